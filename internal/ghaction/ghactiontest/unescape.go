package ghactiontest

import (
	"html"
	"regexp"
	"strconv"
)

var (
	jsonEscapes    = regexp.MustCompile(`\\u([0-9a-fA-F]{4})`)
	htmlNoSemi     = regexp.MustCompile(`&#(x[0-9a-fA-F]+|[0-9]+);?`)
	percentEscapes = regexp.MustCompile(`%([0-9a-fA-F]{2})`)
)

// Unescape undoes one layer of the escapes a reader of a sink could undo,
// with the standard library rather than the scrub's own decoder, so that
// tests check the scrub against a reader written apart from it: HTML's
// character references (the closing ; optional, as browsers read them),
// JSON's \uXXXX and a URL's %XX.
func Unescape(s string) string {
	s = html.UnescapeString(htmlNoSemi.ReplaceAllString(s, "&#$1;"))
	s = jsonEscapes.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[2:], 16, 32)
		return string(rune(v))
	})
	return percentEscapes.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[1:], 16, 8)
		return string([]byte{byte(v)})
	})
}
