package redact

import (
	"strings"
	"unicode/utf8"
)

// A server may echo part of a secret, with no cut mark to say so
// (emutoken-SECRET of emutoken-SECRET-123456). A run of at least half a
// secret's characters in a row, and never fewer than MinDistinct, is
// masked: the half left unmasked next to it gives a reader no more than
// half of a token, and a run that long does not occur in text by chance.
// A token's well-known prefix (ghs_, github_pat_) is the same in every
// token of its kind: it does not count towards the run, so that a text
// naming the kind of token, or a different token of it, is left alone.
//
// Runs are looked for in the text as a reader decoding every escape would
// read it (see plainText), so that every encoding the whole-secret match
// reads holds for parts too; and among the runs of MinDistinct bytes of
// each secret (grams), indexed by their bytes, so that the search costs a
// lookup per byte of text, whatever the number and length of the secrets.

// minPartial is the length of the shortest secret looked for in part: a
// shorter one has too few characters for half of it to be told from
// ordinary text.
const minPartial = 12

// knownPrefixes start tokens of a well-known kind: GitHub's (classic and
// fine-grained personal, OAuth, user-to-server, server-to-server and
// refresh tokens).
var knownPrefixes = []string{"github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"}

// gramLen is the length of the runs indexed: the shortest run masked.
const gramLen = MinDistinct

// partialPattern is a text whose runs are masked: a secret, or one of its
// base64 forms.
type partialPattern struct {
	text string
	fold bool // ASCII letter case is ignored
	// from is the length of the well-known prefix, which does not count.
	from int
	// need is the shortest run masked, counted from from.
	need int
}

// gram is where a run of gramLen bytes stands: in which pattern, and at.
type gram struct{ pat, at int }

// partialIndex finds the runs of its patterns in a text.
type partialIndex struct {
	pats  []partialPattern
	grams map[uint64][]gram
	// filter has a bit for each gram's hash: most bytes of a text need no
	// lookup in grams.
	filter [1 << 16 / 64]uint64
	// raw: a secret holds a byte that reading escapes changes (a
	// backslash, %, &, <, a blank), so the text is looked in as written
	// too.
	raw bool
}

// add indexes the runs of secret and of its base64 forms.
func (x *partialIndex) add(secret string, forms []string) {
	if len(secret) < minPartial {
		return
	}
	from := 0
	for _, p := range knownPrefixes {
		if strings.HasPrefix(secret, p) {
			from = len(p)
			break
		}
	}
	if len(secret)-from < MinDistinct {
		return
	}
	x.addPattern(partialPattern{text: secret, fold: true, from: from, need: max(MinDistinct, (len(secret)-from+1)/2)})
	for _, f := range forms {
		x.addPattern(partialPattern{text: f, need: max(MinDistinct, (len(f)+1)/2)})
	}
	x.raw = x.raw || strings.ContainsAny(secret, "\\%&< \t\r\n")
}

func (x *partialIndex) addPattern(p partialPattern) {
	for _, q := range x.pats {
		if q == p {
			return
		}
	}
	if x.grams == nil {
		x.grams = map[uint64][]gram{}
	}
	pi := len(x.pats)
	x.pats = append(x.pats, p)
	for at := 0; at+gramLen <= len(p.text); at++ {
		var key uint64
		for j := range gramLen {
			key = key<<8 | uint64(lower(p.text[at+j]))
		}
		x.grams[key] = append(x.grams[key], gram{pi, at})
		h := filterHash(key)
		x.filter[h/64] |= 1 << (h % 64)
	}
}

func filterHash(key uint64) uint64 { return key * 0x9e3779b97f4a7c15 >> 48 }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c | 0x20
	}
	return c
}

// find lists the runs of d that are masked, as spans of d, in no order.
func (x *partialIndex) find(d string) []span {
	var spans []span
	var key uint64
	for j := 0; j < len(d); j++ {
		key = key<<8 | uint64(lower(d[j]))
		st := j + 1 - gramLen
		if st < 0 {
			continue
		}
		if h := filterHash(key); x.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, g := range x.grams[key] {
			p := &x.pats[g.pat]
			if !p.fold && d[st:st+gramLen] != p.text[g.at:g.at+gramLen] {
				continue
			}
			// A run is read once, from where it starts: a gram that
			// continues the one before it was read with it.
			if st > 0 && g.at > 0 && p.same(d[st-1], p.text[g.at-1]) {
				continue
			}
			n := gramLen
			for st+n < len(d) && g.at+n < len(p.text) && p.same(d[st+n], p.text[g.at+n]) {
				n++
			}
			if min(g.at+n, len(p.text))-max(g.at, p.from) >= p.need {
				spans = append(spans, span{st, st + n})
			}
		}
	}
	return spans
}

func (p *partialPattern) same(c, t byte) bool {
	return c == t || p.fold && lower(c) == lower(t)
}

// partialSpans lists the spans of s that hold a run of a secret, in no
// order.
func (x *partialIndex) partialSpans(s string) []span {
	if len(x.pats) == 0 || len(s) < gramLen {
		return nil
	}
	var spans []span
	if x.seen(s) {
		d, from := plainText(s)
		spans = x.find(d)
		for i, sp := range spans {
			_, n := plainAt(s, from[sp.to-1])
			spans[i] = span{from[sp.from], from[sp.to-1] + n}
		}
	}
	if x.raw {
		spans = append(spans, x.find(s)...)
	}
	return spans
}

// seen reports whether s, read as plainText reads it, holds a gram of a
// pattern: what most texts do not, so that they cost one pass that keeps
// nothing.
func (x *partialIndex) seen(s string) bool {
	var key uint64
	read := 0
	for i := 0; i < len(s); {
		b, n := plainAt(s, i)
		for j := 0; j < len(b); j++ {
			key = key<<8 | uint64(lower(b[j]))
			if read++; read < gramLen {
				continue
			}
			if h := filterHash(key); x.filter[h/64]&(1<<(h%64)) != 0 && x.grams[key] != nil {
				return true
			}
		}
		i += n
	}
	return false
}

// plainText is s as a reader decoding every escape reads it, one reading
// for each position (see plainAt), the separators left out; and for each
// byte of it, where in s the character it comes from starts.
func plainText(s string) (string, []int) {
	d := make([]byte, 0, len(s))
	from := make([]int, 0, len(s))
	for i := 0; i < len(s); {
		b, n := plainAt(s, i)
		d = append(d, b...)
		for range len(b) {
			from = append(from, i)
		}
		i += n
	}
	return string(d), from
}

// plainAt is the character at s[i] as a reader decoding every escape
// reads it, and its length in s: the longest escape the text starts with,
// decoded as far as it goes (&amp;#43; is +), a backslash that escapes
// the character after it left out, and a separator (a blank, a line
// break, an invisible character, <br>) read as nothing.
func plainAt(s string, i int) (string, int) {
	c := s[i]
	switch {
	case isBlankByte(c):
		return "", 1
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRuneInString(s[i:])
		if invisible(r) {
			return "", n
		}
		return s[i : i+n], n
	case strings.IndexByte(`\&<%`, c) < 0:
		return s[i : i+1], 1
	}
	var buf [8]unit
	us := units(s, i, buf[:0])
	best := us[0]
	for _, u := range us[1:] {
		if u.n > best.n || u.n == best.n && u.sep && c == '\\' {
			best = u
		}
	}
	if best.sep {
		return "", best.n
	}
	return best.b, best.n
}
