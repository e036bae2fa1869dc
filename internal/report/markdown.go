package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapeMarkdown makes text (from the service, or the description) plain
// text in Markdown, the one way the job summary and the pull request
// comment place such text: in a paragraph, in a table cell, and inside
// <code> (whose content Markdown still reads), it opens no link, image,
// autolink, emphasis, code span, math, HTML or table cell of its own, and
// it stays one line. GitHub's extensions are kept from acting too: a
// zero-width space after @ keeps a name from mentioning (and notifying)
// anyone, and one inside "www." and "://" keeps an address from becoming
// a link.
func EscapeMarkdown(s string) string { return markdownText.Replace(s) }

var markdownText = strings.NewReplacer(
	"\\", `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`,
	"!", `\!`, "#", `\#`, "~", `\~`, "|", `\|`, "$", `\$`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
	"@", "@&#8203;", "www.", "www&#8203;.", "://", ":&#8203;//",
	"\r\n", "<br>", "\r", "<br>", "\n", "<br>",
)

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
