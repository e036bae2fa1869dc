package report

import (
	"fmt"
	"strconv"
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
// a zero-width space inside each reference GitHub would link, as its
// patterns find them in the text it shows. An issue or pull request
// (#12, owner/repo#12: # and digits that end a word; GH-12, in either
// case, where gh starts a word) gets one between the # or - and the
// number. A commit SHA (a word of 7 to 40 hex digits, as in a5c3785,
// user@a5c3785, owner/repo@a5c3785) gets one after every 6th digit, so
// that no piece is long enough to link; after # or GH-, one before it
// too, or its first piece would read as a number (#123456a7). Everything
// else is left as it is: a word with a letter past f, or of digits only
// (an id), or shorter than 7 or longer than 40 characters (a sha256
// value), a number after # that goes on as a word. A word is a run of ASCII letters, digits and _, as
// it is to GitHub: a zero-width space is not part of one. The scrub of
// secrets looks past the spaces wherever they stand.
func unlinkReferences(s string) string {
	s = namerule.EscapeControls(s)
	var b strings.Builder
	last := 0
	insert := func(at int) {
		if b.Len() == 0 {
			b.Grow(len(s) + len(s)/4)
		}
		b.WriteString(s[last:at])
		b.WriteString(zwsp)
		last = at
	}
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			if s[i] == '#' && numberAt(s, i+1) {
				insert(i + 1)
			}
			i++
			continue
		}
		j := wordEnd(s, i)
		if isSHA(s[i:j]) {
			for at := i + 6; at < j; at += 6 {
				insert(at)
			}
		}
		if strings.EqualFold(s[i:j], "gh") && j < len(s) && s[j] == '-' && numberAt(s, j+1) {
			insert(j + 1)
		}
		i = j
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// numberAt reports whether s[i:] starts with a number GitHub would read
// after # or GH-: digits that end a word, or that start a commit SHA, as
// the spaces put inside the SHA would cut it into such digits (#123456a7).
func numberAt(s string, i int) bool {
	j := i
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	return j > i && (j == len(s) || !isWordByte(s[j]) || isSHA(s[i:wordEnd(s, j)]))
}

// wordEnd is the end of the word s[i:] starts with (i for none).
func wordEnd(s string, i int) int {
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	return i
}

// isSHA reports whether the word w is one GitHub reads as a commit SHA:
// 7 to 40 hex digits, in either case, a letter among them. A word of
// digits only is left whole: it is a build id, a date or a count far more
// often than a commit (GitHub links one only where a commit of the
// repository starts so), and a reader copies ids from the summary.
func isSHA(w string) bool {
	if len(w) < 7 || len(w) > 40 {
		return false
	}
	letter := false
	for i := 0; i < len(w); i++ {
		c := w[i] | 0x20
		switch {
		case 'a' <= c && c <= 'f':
			letter = true
		case '0' <= w[i] && w[i] <= '9':
		default:
			return false
		}
	}
	return letter
}

func isWordByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_'
}

// CodeSpan writes s as a Markdown code span, which shows its content as
// it is and which GitHub links nothing in: no mention, address, issue or
// commit. It is for values a reader copies, such as a commit SHA or a
// commit message: one copied from the comment is the value itself, where
// EscapeMarkdown's zero-width spaces would make it another. A control is
// shown as its escape (\u202E), as EscapeMarkdown shows it; the fence is
// longer than any run of backticks in s. Text a code span cannot hold
// whole and safe in a line of a paragraph or of a table cell (a line
// break, a pipe, which ends a table cell even inside a code span, or no
// text at all) is escaped with EscapeMarkdown instead.
func CodeSpan(s string) string {
	if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "|\r\n") {
		return EscapeMarkdown(s)
	}
	s = namerule.EscapeControls(s)
	fence, run := 1, 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
			continue
		}
		run++
		fence = max(fence, run+1)
	}
	tick := strings.Repeat("`", fence)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		// A space on either side keeps a backtick at an end from joining
		// the fence, and a value with a space at both ends whole: Markdown
		// takes one off each side.
		return tick + " " + s + " " + tick
	}
	return tick + s + tick
}

// CutMark ends text that was cut short.
const CutMark = "…"

// Shorten cuts s to at most max bytes, at a character's start, and says
// how much was left out: "abc… (1234 more characters)". The cut text ends
// with the cut mark "…", which tells a sink that scrubs secrets to scrub
// what is left of one before it. Text Shorten cut already is cut again
// from its text, counting what was left out before: the same, or shorter.
func Shorten(s string, max int) string {
	text, before := cutBefore(s)
	if len(text) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return fmt.Sprintf("%s%s (%d more characters)", text[:cut], CutMark, utf8.RuneCountInString(text[cut:])+before)
}

// cutBefore is s without what Shorten added to it, and how many
// characters it said were left out; s and 0 when Shorten did not cut it.
func cutBefore(s string) (string, int) {
	const tail = " more characters)"
	if !strings.HasSuffix(s, tail) {
		return s, 0
	}
	head := s[:len(s)-len(tail)]
	i := strings.LastIndex(head, CutMark+" (")
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(head[i+len(CutMark+" ("):])
	if err != nil || n < 0 {
		return s, 0
	}
	return s[:i], n
}

// Plural is n and word, with an s for any count but one: "1 error",
// "3 files".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
