package namerule

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Hidden returns the first segment of the slash path p that is hidden (it
// starts with a dot and is neither "." nor ".."), or "".
func Hidden(p string) string {
	for _, seg := range strings.Split(p, "/") {
		if len(seg) > 1 && seg[0] == '.' && seg != ".." {
			return seg
		}
	}
	return ""
}

// Control reports whether r breaks a line, or changes the order or look of
// the text around it: C0 and C1 controls, DEL, the line and paragraph
// separators, and the bidirectional controls.
func Control(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f: // C0, DEL, C1
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, // ALM, LRM, RLM
		r >= 0x202a && r <= 0x202e, // LRE, RLE, PDF, LRO, RLO
		r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	}
	return false
}

// TextError is text that a name may not hold. Its message never quotes the
// text: it names what is wrong.
type TextError struct {
	Invalid bool // not valid UTF-8
	Control rune // else the first control character
}

func (e *TextError) Error() string {
	if e.Invalid {
		return "not valid UTF-8"
	}
	return fmt.Sprintf("text holding the control character %U", e.Control)
}

// CheckText refuses text that is not valid UTF-8 or holds a Control
// character, with a *TextError.
func CheckText(s string) error {
	if !utf8.ValidString(s) {
		return &TextError{Invalid: true}
	}
	if i := strings.IndexFunc(s, Control); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return &TextError{Control: r}
	}
	return nil
}

// EscapeControls writes each control of s (Control) but line breaks and
// tabs as its escape, \u202E: the form the job summary, the log and the
// annotations show them in, so that no text from a description or a
// server restyles, hides or reorders the text around it (GitHub's log
// viewer renders a terminal's escape sequences: ESC [8m hides what
// follows). Bytes that are not UTF-8 are kept as they are.
func EscapeControls(s string) string {
	i := strings.IndexFunc(s, Escaped)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i >= 0 {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[:i])
		fmt.Fprintf(&b, "\\u%04X", r)
		s = s[i+size:]
		i = strings.IndexFunc(s, Escaped)
	}
	b.WriteString(s)
	return b.String()
}

// Escaped reports whether EscapeControls writes r as an escape.
func Escaped(r rune) bool {
	return Control(r) && r != '\n' && r != '\r' && r != '\t'
}

// EditsApart is how many letters inserted, deleted, changed or swapped
// with the next take a to b (the optimal string alignment distance), or
// more than limit when the lengths alone say it is, so that a long text
// costs nothing to compare with a short name; else the product of their
// lengths, a few dozen steps for names.
func EditsApart(a, b string, limit int) int {
	if len(a)-len(b) > limit || len(b)-len(a) > limit {
		return limit + 1
	}
	// Three rows of the table: the one before the last, the last, this.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
