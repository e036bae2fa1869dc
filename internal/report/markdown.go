package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// EscapeMarkdown makes text (from the service, or the description) plain
// text in Markdown, the one way the job summary and the pull request
// comment place such text: in a paragraph, in a table cell, and inside
// <code> (whose content Markdown still reads), it opens no link, image,
// autolink, emphasis, code span, math, HTML or table cell of its own, and
// it stays one line. GitHub's extensions are kept from acting too: a
// zero-width space after @ keeps a name from mentioning (and notifying)
// anyone, one inside "www." and "://" keeps an address from becoming a
// link, and those unlinkReferences inserts keep a reference to an issue,
// a pull request or a commit from linking (and from marking that issue
// as mentioned). A control that would reorder or hide the text around it
// (a bidirectional override, a C0 or C1 control, a line or paragraph
// separator) is shown as its escape, \u202E.
func EscapeMarkdown(s string) string { return markdownText.Replace(unlinkReferences(s)) }

var markdownText = strings.NewReplacer(
	"\\", `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`,
	"!", `\!`, "#", `\#`, "~", `\~`, "|", `\|`, "$", `\$`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
	"@", "@&#8203;", "www.", "www&#8203;.", "://", ":&#8203;//", zwsp, "&#8203;",
	"\r\n", "<br>", "\r", "<br>", "\n", "<br>",
)

const zwsp = "\u200b"

// unlinkReferences writes the controls of s as escapes (\u202E), and puts
// a zero-width space where GitHub would read a reference: between # and a
// digit (#12, owner/repo#12), between - and a digit (GH-12, gh-12), and
// between a hex digit and a hex letter next to it, either way round, so
// that a commit SHA (7 to 40 hex digits, as a5c3785) falls apart into
// pieces too short to link (a run of digits alone, or of the letters a to
// f alone, stays whole: GitHub links one only when the repository has a
// commit that starts so). Each rule looks at two neighbouring characters
// only (blanks and line breaks between them aside): the escape of a text
// holds the escape of each part of it, which the scrub of secrets, looking
// for a secret's escape, relies on.
func unlinkReferences(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var prev rune
	for i := 0; i < len(s); {
		if sep := escapedBreak(s[i:]); sep != "" {
			b.WriteString(sep) // looked past, and kept whole
			i += len(sep)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case namerule.Control(r) && r != '\n' && r != '\r' && r != '\t':
			fmt.Fprintf(&b, "\\u%04X", r)
			r = 0
		case breaksReference(prev, r):
			b.WriteString(zwsp)
			fallthrough
		default:
			b.WriteString(s[i : i+size]) // as it is: bytes that are not UTF-8 too
		}
		if !strings.ContainsRune(seeThrough, r) {
			prev = r
		}
		i += size
	}
	return b.String()
}

// seeThrough are the characters the rules look past (escaped line breaks
// too), as the scrub of secrets does when it finds a secret split by a line
// break or a blank: the escape of a secret so split then holds its
// zero-width spaces where the escape of the whole secret does.
const seeThrough = "\r\n \t\\"

// escapedBreaks are line breaks as URLs, workflow commands and JSON
// escape them, which the scrub of secrets also looks past.
var escapedBreaks = []string{"%250D", "%250A", "%250d", "%250a", "%0D", "%0A", "%0d", "%0a", `\r`, `\n`}

// escapedBreak is the escaped line break s starts with, or "".
func escapedBreak(s string) string {
	if s == "" || s[0] != '%' && s[0] != '\\' {
		return ""
	}
	for _, e := range escapedBreaks {
		if strings.HasPrefix(s, e) {
			return e
		}
	}
	return ""
}

// breaksReference reports whether GitHub could read a reference across the
// characters a and b.
func breaksReference(a, b rune) bool {
	switch {
	case !isDigit(b) && !isHexLetter(b):
		return false
	case a == '#' || a == '-':
		return isDigit(b)
	}
	return isDigit(a) && isHexLetter(b) || isHexLetter(a) && isDigit(b)
}

func isDigit(r rune) bool     { return '0' <= r && r <= '9' }
func isHexLetter(r rune) bool { return 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F' }

// CutMark ends text that was cut short.
const CutMark = "…"

// Shorten cuts s to at most max bytes, at a character's start, and says
// how much was left out: "abc… (1234 more characters)". The cut text ends
// with the cut mark "…", which tells a sink that scrubs secrets to scrub
// what is left of one before it.
func Shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s%s (%d more characters)", s[:cut], CutMark, utf8.RuneCountInString(s[cut:]))
}

// Plural is n and word, with an s for any count but one: "1 error",
// "3 files".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
