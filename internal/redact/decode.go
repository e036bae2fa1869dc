package redact

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A unit is one character of text as a reader may decode it: its length
// in the text, and the bytes it stands for. A position in the text may be
// read as several units (a backslash is itself, or a separator, or the
// start of an escape).
type unit struct {
	n int    // bytes of the text it spans
	b string // what it decodes to
	// sep: the unit may be left out between two characters of a secret
	// (a line break, a blank, an invisible character, an escaping
	// backslash).
	sep bool
}

// maxNesting is how many layers of escaping are undone inside one
// character: %2541 is %41 is A; &amp;#115; is &#115; is s; \\u0073 is
// \u0073 is s.
const maxNesting = 3

// maxEscape bounds the text one escape may span, so that decoding a
// position costs a constant.
const maxEscape = 48

// units appends to out the ways the text at s[i:] may be read, each the
// first character of what follows i: as written; as an escape of JSON or
// JavaScript, HTML, or a URL; and, where the decoded character introduces
// another escape, that one decoded in turn.
func units(s string, i int, out []unit) []unit {
	return unitsNested(s, i, out, maxNesting)
}

func unitsNested(s string, i int, out []unit, depth int) []unit {
	c := s[i]
	out = append(out, unit{n: 1, b: s[i : i+1], sep: separatorByte(c)})
	if c >= utf8.RuneSelf {
		if r, n := utf8.DecodeRuneInString(s[i:]); separator(r) {
			out = append(out, unit{n: n, sep: true})
		}
		return out
	}
	first := len(out)
	switch c {
	case '\\':
		// An escaping backslash, added by any layer of escaping
		// (Markdown's \_ too), may stand between two characters.
		out = append(out, unit{n: 1, sep: true})
		out = jsonEscape(s, i, out)
	case '&':
		out = htmlEntity(s, i, out)
	case '<':
		for _, br := range []string{"<br>", "<br/>", "<br />"} {
			if hasPrefixFold(s[i:], br) {
				out = append(out, unit{n: len(br), sep: true})
			}
		}
	case '%':
		out = percentEscape(s, i, out)
	case '+':
		out = append(out, unit{n: 1, b: " "}) // a blank in a query
	case '^':
		// Caret notation, as cat -v and less show a control: ^[ is ESC,
		// ^@ NUL, ^? DEL.
		if i+1 < len(s) && '?' <= s[i+1] && s[i+1] <= '_' {
			out = append(out, unit{n: 2, b: string(rune(s[i+1] ^ 0x40))})
		}
	}
	// A decoded character that itself starts an escape: decode the text
	// it starts, once more. Markdown's escaping backslashes may stand
	// inside that escape (&amp;\#115; shows as &#115;).
	if depth > 1 {
		// Only the units read at this depth: the ones appended here are
		// decoded already as far as depth allows.
		for j, decoded := first, len(out); j < decoded; j++ {
			u := out[j]
			if u.n < 2 || len(u.b) != 1 || strings.IndexByte(`\&%`, u.b[0]) < 0 {
				continue
			}
			virtual, at := unescapedMarkdown(u.b, s[i+u.n:min(len(s), i+u.n+maxEscape)])
			for _, v := range unitsNested(virtual, 0, nil, depth-1)[1:] {
				// More than the decoded character itself, or a decoded
				// backslash read as one that escapes (Markdown's \_
				// escaped again, as %5C_ or &#92;_): a separator.
				if v.n > 1 || v.sep {
					out = append(out, unit{n: u.n + at[v.n-1], b: v.b, sep: v.sep})
				}
			}
		}
	}
	for j := first; j < len(out); j++ {
		if r, n := utf8.DecodeRuneInString(out[j].b); n > 0 && n == len(out[j].b) && separator(r) {
			out[j].sep = true
		}
	}
	return out
}

// unescapedMarkdown is head followed by text without the backslashes that
// escape punctuation in Markdown, and for each byte of it after head, the
// length of text up to and including it.
func unescapedMarkdown(head, text string) (string, []int) {
	b := make([]byte, 0, len(head)+len(text))
	b = append(b, head...)
	at := make([]int, len(head), len(head)+len(text))
	for k := 0; k < len(text); k++ {
		if text[k] == '\\' && k+1 < len(text) && isPunct(text[k+1]) && text[k+1] != '\\' {
			continue
		}
		b = append(b, text[k])
		at = append(at, k+1)
	}
	return string(b), at
}

func isPunct(c byte) bool { return c > ' ' && c < 0x7f && !isAlnum(c) }

// separator reports whether r splits a secret's text as a blank does: a
// white space (a line break or blank, as text folded or made one line
// splits a secret with, and the others Unicode counts: U+00A0, U+2028,
// U+3000…), an invisible character, or a control (see controls.go).
func separator(r rune) bool { return invisible(r) || unicode.IsSpace(r) || control(r) }

// invisible reports whether r shows as nothing, by Unicode's rule rather
// than a list: every format character (category Cf: bidirectional marks,
// embeddings, overrides and isolates, zero-width spaces and joiners, the
// soft hyphen, tags…) and every other default ignorable code point
// (variation selectors, Hangul fillers, the combining grapheme joiner…).
// A reader copying the text leaves them out, and a hostile server puts
// them inside a secret to hide it; Markdown escaping puts U+200B after @
// and before //. None is a blank: blanks are separators of their own.
func invisible(r rune) bool {
	if r < 0xad {
		return false // ASCII, its controls included, and Latin-1 up to the soft hyphen
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}

// controlEscapes are the one-letter escapes of C and the shell that
// write a control character: \e for ESC, \a, \v, \b and \f.
var controlEscapes = map[byte]string{'e': "\x1b", 'E': "\x1b", 'a': "\a", 'v': "\v", 'b': "\b", 'f': "\f"}

// jsonEscape reads the escape at s[i] (a backslash) as JSON and
// JavaScript decode it: \uXXXX (a surrogate pair as one character),
// \u{X…}, \xXX, and the short escapes. \n and \r are line breaks. It
// reads those C, the shell and Python add too, which write terminal
// escapes: \e (ESC), \a (BEL), and a byte in three octal digits (\033).
func jsonEscape(s string, i int, out []unit) []unit {
	if i+1 >= len(s) {
		return out
	}
	e := s[i+1]
	if c, ok := controlEscapes[e]; ok {
		return append(out, unit{n: 2, b: c})
	}
	switch e {
	case 'u':
		if i+2 < len(s) && s[i+2] == '{' {
			end := strings.IndexByte(s[i+3:min(len(s), i+3+9)], '}')
			if r, ok := hexValue(s[i+3 : i+3+max(end, 0)]); end > 0 && ok {
				out = appendRune(out, r, end+4)
			}
			return out
		}
		r, ok := hexValue(s[i+2 : min(len(s), i+6)])
		if !ok || i+6 > len(s) {
			return out
		}
		if 0xd800 <= r && r < 0xdc00 {
			// The low half is escaped as many times as the text around
			// it: inside an escape decoded once more (\\ud83d\\ude00),
			// only the high half has lost a backslash.
			j := i + 6
			for j < len(s) && j-i < 6+2*maxNesting && s[j] == '\\' {
				j++
			}
			if j > i+6 && j < len(s) && s[j] == 'u' {
				if lo, ok := hexValue(s[j+1 : min(len(s), j+5)]); ok && j+5 <= len(s) && 0xdc00 <= lo && lo < 0xe000 {
					return appendRune(out, (r-0xd800)<<10+(lo-0xdc00)+0x10000, j+5-i)
				}
			}
		}
		return appendRune(out, r, 6)
	case 'x':
		if r, ok := hexValue(s[i+2 : min(len(s), i+4)]); ok && i+4 <= len(s) {
			return appendRune(out, r, 4)
		}
	case 'n', 'r':
		return append(out, unit{n: 2, sep: true})
	case 't':
		return append(out, unit{n: 2, b: "\t", sep: true})
	case '0', '1', '2', '3':
		if i+4 <= len(s) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			v := (e-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0')
			out = append(out, unit{n: 4, b: string([]byte{v})})
			if v >= utf8.RuneSelf {
				out = octalRune(s, i, v, out)
			}
			return out
		}
		if e == '0' { // JavaScript's NUL
			return append(out, unit{n: 2, b: "\x00"})
		}
	case '/', '"', '\\', '\'':
		return append(out, unit{n: 2, b: s[i+1 : i+2]})
	}
	return out
}

// htmlEntity reads the character reference at s[i] (an ampersand) as a
// browser does: decimal or hexadecimal, with any number of leading zeros,
// with or without the closing semicolon; named, with it, or without it
// for the names browsers accept bare (&amp, &lt…).
func htmlEntity(s string, i int, out []unit) []unit {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
		hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
		if hex {
			j++
		}
		start := j
		for j < len(s) && j-start < maxEscape && (isDigit(s[j]) || hex && isHexLetter(s[j])) {
			j++
		}
		if j == start {
			return out
		}
		digits := strings.TrimLeft(s[start:j], "0")
		if len(digits) > 7 { // beyond Unicode: a browser shows U+FFFD
			return out
		}
		if j < len(s) && s[j] == ';' {
			j++
		}
		ref := "&#" + digits + ";"
		if hex {
			ref = "&#x" + digits + ";"
		}
		if digits == "" {
			return out
		}
		return append(out, unit{n: j - i, b: html.UnescapeString(ref)})
	}
	for j < len(s) && j-i <= 32 && isAlnum(s[j]) {
		j++
	}
	if j == i+1 || j-i > 32 {
		return out
	}
	if j < len(s) && s[j] == ';' {
		ref := s[i : j+1]
		if d := html.UnescapeString(ref); d != ref && (d == ";" || !strings.HasSuffix(d, ";")) {
			return append(out, unit{n: j + 1 - i, b: d})
		}
	}
	// Bare: the longest legacy name the text starts with.
	for k := j; k > i+2; k-- {
		ref := s[i:k]
		if d := html.UnescapeString(ref); d != ref && utf8.RuneCountInString(d) == 1 {
			return append(out, unit{n: k - i, b: d})
		}
	}
	return out
}

// percentEscape reads the escape at s[i] (a percent sign) as a URL
// decoder does, in either case: %XX, and %uXXXX as JavaScript's escape
// writes it.
func percentEscape(s string, i int, out []unit) []unit {
	if v, ok := hexValue(s[i+1 : min(len(s), i+3)]); ok && i+3 <= len(s) {
		out = append(out, unit{n: 3, b: string([]byte{byte(v)})})
		if v >= utf8.RuneSelf {
			out = percentRune(s, i, byte(v), out)
		}
		return out
	}
	if i+1 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') {
		if r, ok := hexValue(s[i+2 : min(len(s), i+6)]); ok && i+6 <= len(s) {
			return appendRune(out, r, 6)
		}
	}
	return out
}

// percentRune reads the bytes of one character escaped one by one
// (%E2%80%8E), whose first byte, lead, is escaped at s[i]: the bytes
// match a secret one at a time, but only the whole character can be told
// invisible.
func percentRune(s string, i int, lead byte, out []unit) []unit {
	return escapedRune(s, i, lead, out, func(e string) (byte, bool) {
		v, ok := hexValue(e[1:])
		return byte(v), ok && e[0] == '%'
	})
}

// octalRune reads the bytes of one character escaped one by one in octal
// (\302\233), as percentRune does.
func octalRune(s string, i int, lead byte, out []unit) []unit {
	return escapedRune(s, i, lead, out, func(e string) (byte, bool) {
		ok := e[0] == '\\' && '0' <= e[1] && e[1] <= '3' && isOctal(e[2]) && isOctal(e[3])
		return (e[1]-'0')<<6 | (e[2]-'0')<<3 | (e[3] - '0'), ok
	})
}

// escapedRune reads the bytes of one character, each escaped in an
// escape of the same length as the first at s[i], whose byte is lead, as
// byteOf reads one.
func escapedRune(s string, i int, lead byte, out []unit, byteOf func(escape string) (byte, bool)) []unit {
	size := map[byte]int{'%': 3, '\\': 4}[s[i]]
	b := []byte{lead}
	for j := i + size; len(b) < utf8.UTFMax && !utf8.FullRune(b); j += size {
		if j+size > len(s) {
			return out
		}
		v, ok := byteOf(s[j : j+size])
		if !ok {
			return out
		}
		b = append(b, v)
	}
	if r, n := utf8.DecodeRune(b); r != utf8.RuneError && n == len(b) && n > 1 {
		out = append(out, unit{n: size * n, b: string(b)})
	}
	return out
}

// appendRune appends a unit of n bytes of text that decodes to r, unless
// r is no character.
func appendRune(out []unit, r rune, n int) []unit {
	if !utf8.ValidRune(r) {
		return out
	}
	return append(out, unit{n: n, b: string(r)})
}

// hexValue is the value of h, 1 to 8 hexadecimal digits.
func hexValue(h string) (rune, bool) {
	if h == "" || len(h) > 8 {
		return 0, false
	}
	var v rune
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case isDigit(c):
			v = v<<4 | rune(c-'0')
		case isHexLetter(c):
			v = v<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isOctal(c byte) bool     { return '0' <= c && c <= '7' }
func isHexLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'f' }
func isAlnum(c byte) bool     { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z' }

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
