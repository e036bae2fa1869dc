package redact

import "unicode/utf8"

// visible is s without the characters that show as nothing (U+200B and
// the like, written raw or as an HTML character reference), and for each
// byte of it, and for its end, the position in s it comes from; at is nil
// when s holds none. Reports put such characters where GitHub would link a
// reference, even inside an escape (&#<U+200B>115;, whose #115 reads as
// an issue): a reader copying the text leaves them out, and so does the
// match, wherever they stand.
func visible(s string) (view string, at []int) {
	var b []byte
	for i := 0; i < len(s); {
		n := invisibleAt(s, i)
		if n == 0 {
			if b != nil {
				b = append(b, s[i])
				at = append(at, i)
			}
			i++
			continue
		}
		if b == nil { // the first one: copy what came before
			b = make([]byte, 0, len(s))
			at = make([]int, 0, len(s)+1)
			b = append(b, s[:i]...)
			for k := range i {
				at = append(at, k)
			}
		}
		i += n
	}
	if b == nil {
		return s, nil
	}
	return string(b), append(at, len(s))
}

// invisibleAt is the length of the invisible character s[i:] starts with,
// raw or as a character reference; 0 for none.
func invisibleAt(s string, i int) int {
	switch c := s[i]; {
	case c >= utf8.RuneSelf:
		if r, n := utf8.DecodeRuneInString(s[i:]); invisible(r) {
			return n
		}
	case c == '&':
		for _, u := range htmlEntity(s, i, nil) {
			if r, n := utf8.DecodeRuneInString(u.b); n == len(u.b) && invisible(r) {
				return u.n
			}
		}
	}
	return 0
}
