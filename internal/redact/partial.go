package redact

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// A server may echo part of a secret, with no cut mark to say so
// (emutoken-SECRET of emutoken-SECRET-123456). A run of at least half a
// secret's characters in a row, and never fewer than MinDistinct, is
// masked: a run shorter than that gives a reader less than half of a
// token, and a run that long does not occur in text by chance. Several
// shorter runs of one text can give more together; they are left.
// A token's well-known prefix (ghs_, github_pat_) is the same in every
// token of its kind: it does not count towards the run, so that a text
// naming the kind of token, or a different token of it, is left alone.
//
// Runs are looked for in the text as a reader decoding every escape would
// read it (see plainText), so that every encoding the whole-secret match
// reads holds for parts too, and in the text as written. The runs of
// MinDistinct bytes of each secret (grams) are indexed by their bytes: a
// byte of text costs a lookup in a bit set, and only where a gram shows
// does a suffix automaton of the secret read on, for as long as the text
// goes on as the secret does. The cost is linear in the text's length, for
// any secret, however repetitive.

// minPartial is the length of the shortest secret looked for in part: a
// shorter one has too few characters for half of it to be told from
// ordinary text.
const minPartial = 12

// knownPrefixes start tokens of a well-known kind: GitHub's (classic and
// fine-grained personal, OAuth, user-to-server, server-to-server and
// refresh tokens).
var knownPrefixes = []string{"github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"}

// knownPrefix is the well-known prefix secret starts with, "" for none.
func knownPrefix(secret string) string {
	for _, p := range knownPrefixes {
		if strings.HasPrefix(secret, p) {
			return p
		}
	}
	return ""
}

// gramLen is the length of the runs indexed: the shortest run masked.
const gramLen = MinDistinct

// partialPattern is a text whose runs are masked: a secret, or one of its
// base64 forms.
type partialPattern struct {
	text string // as the automaton reads it: in lower case where fold
	fold bool   // ASCII letter case is ignored
	// prefix is the well-known prefix, which does not count: text is the
	// rest.
	prefix string
	// need is the shortest run masked: by default half the text, and a
	// gram at least.
	need int
	runs *automaton
}

// partialIndex finds the runs of its patterns in a text.
type partialIndex struct {
	pats []partialPattern
	// grams are, for each gram in lower case, the patterns that hold it.
	grams map[uint64][]int
	// filter has a bit for each gram's hash: most bytes of a text need no
	// lookup in grams.
	filter [1 << 16 / 64]uint64
}

// add indexes the runs of secret and of its base64 forms.
func (x *partialIndex) add(secret string, forms []string) {
	if len(secret) < minPartial {
		return
	}
	prefix := knownPrefix(secret)
	rest := secret[len(prefix):]
	if len(rest) < gramLen {
		return
	}
	x.addPattern(partialPattern{text: lowerASCII(rest), fold: true, prefix: prefix})
	for _, f := range forms {
		x.addPattern(partialPattern{text: f})
	}
}

func (x *partialIndex) addPattern(p partialPattern) {
	if slices.ContainsFunc(x.pats, func(q partialPattern) bool {
		return q.text == p.text && q.fold == p.fold && q.prefix == p.prefix
	}) {
		return
	}
	if x.grams == nil {
		x.grams = map[uint64][]int{}
	}
	if p.need == 0 {
		p.need = max(gramLen, (len(p.text)+1)/2)
	}
	p.runs = newAutomaton(p.text)
	pi := len(x.pats)
	x.pats = append(x.pats, p)
	for at := 0; at+gramLen <= len(p.text); at++ {
		var key uint64
		for j := range gramLen {
			key = key<<8 | uint64(lower(p.text[at+j]))
		}
		if !slices.Contains(x.grams[key], pi) {
			x.grams[key] = append(x.grams[key], pi)
		}
		h := filterHash(key)
		x.filter[h/64] |= 1 << (h % 64)
	}
}

func filterHash(key uint64) uint64 { return key * 0x9e3779b97f4a7c15 >> 48 }

// mayHold says whether the gram key may be a pattern's: false for most
// grams of a text, found in the filter without a lookup.
func (x *partialIndex) mayHold(key uint64) bool {
	h := filterHash(key)
	return x.filter[h/64]&(1<<(h%64)) != 0
}

// lowerASCII is s with its ASCII letters in lower case and every other
// byte as it is (strings.ToLower would make bytes that are not UTF-8 into
// U+FFFD).
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

func lower(c byte) byte {
	if isLetter(c) {
		return c | 0x20
	}
	return c
}

// find lists the runs of d that are masked, as spans of d, in no order.
func (x *partialIndex) find(d string) []span {
	var spans []span
	// For each pattern: its walk, and the span of the run it is in, to 0
	// while it reads nothing, from -1 while its run is too short. Made
	// when a gram first shows.
	var walks []walk
	var runs []span
	var active []int // the patterns reading on, most often none
	var key uint64
	for j := 0; j < len(d); j++ {
		key = key<<8 | uint64(lower(d[j]))
		still := active[:0]
		for _, pi := range active {
			if spans = x.read(d, pi, &walks[pi], &runs[pi], j, spans); runs[pi].to > 0 {
				still = append(still, pi)
			}
		}
		active = still
		if j+1 < gramLen {
			continue
		}
		if !x.mayHold(key) {
			continue
		}
		for _, pi := range x.grams[key] {
			if runs == nil {
				walks, runs = make([]walk, len(x.pats)), make([]span, len(x.pats))
			}
			if runs[pi].to > 0 {
				continue
			}
			// A run as long as a gram or longer starts with one: reading
			// from there, none is missed.
			p := &x.pats[pi]
			walks[pi], runs[pi] = walk{}, span{-1, 1}
			for k := j + 1 - gramLen; k < j; k++ {
				p.runs.step(&walks[pi], p.byteOf(d[k]))
			}
			if spans = x.read(d, pi, &walks[pi], &runs[pi], j, spans); runs[pi].to > 0 {
				active = append(active, pi)
			}
		}
	}
	for _, pi := range active {
		spans = x.flush(d, pi, runs[pi], spans)
	}
	return spans
}

// flush adds run, if one was found, to spans.
func (x *partialIndex) flush(d string, pi int, run span, spans []span) []span {
	if run.from < 0 {
		return spans
	}
	return append(spans, x.withPrefix(d, pi, run))
}

// read reads d[j] with pattern pi's walk. A run long enough extends the
// span run, or starts another past its end. A walk whose run is shorter
// than a gram stops: a longer run would start with a gram of its own.
func (x *partialIndex) read(d string, pi int, w *walk, run *span, j int, spans []span) []span {
	p := &x.pats[pi]
	p.runs.step(w, p.byteOf(d[j]))
	if w.n >= p.need {
		// The runs' starts never go back: a run ending at j+1 is at most
		// one longer than the one ending at j.
		if from := j + 1 - w.n; run.from < 0 || from > run.to {
			spans = x.flush(d, pi, *run, spans)
			run.from = from
		}
		run.to = j + 1
	}
	if w.n < gramLen {
		spans = x.flush(d, pi, *run, spans)
		*run = span{}
	}
	return spans
}

// byteOf is c as the automaton reads it.
func (p *partialPattern) byteOf(c byte) byte {
	if p.fold {
		return lower(c)
	}
	return c
}

// withPrefix is run with the well-known prefix before it, where the run
// starts as the rest of the secret does.
func (x *partialIndex) withPrefix(d string, pi int, run span) span {
	p := &x.pats[pi]
	n := len(p.prefix)
	if n > 0 && run.from >= n && strings.EqualFold(d[run.from-n:run.from], p.prefix) &&
		hasPrefixFold(d[run.from:], p.text[:p.need]) {
		run.from -= n
	}
	return run
}

// partialSpans lists the spans of s that hold a run of a secret, in no
// order.
func (x *partialIndex) partialSpans(s string, q *seqScan) []span {
	if len(x.pats) == 0 || len(s) < gramLen {
		return nil
	}
	var spans []span
	if x.seen(s, q) {
		d, from := plainText(s, q)
		spans = x.find(d)
		for i, sp := range spans {
			_, n := plainAt(s, from[sp.to-1])
			spans[i] = span{from[sp.from], from[sp.to-1] + n}
		}
	}
	// As written too: the one reading of the text decoded may take for an
	// escape what a reader sees as characters of a secret (the %00 of
	// %000000000), or leave out what a secret holds (a blank, a
	// backslash).
	return append(spans, x.find(s)...)
}

// seen reports whether s, read as plainText reads it, holds a gram of a
// pattern: what most texts do not, so that they cost one pass that keeps
// nothing.
func (x *partialIndex) seen(s string, q *seqScan) bool {
	var key uint64
	read := 0
	for i := 0; i < len(s); {
		b, n := s[i:i+1], 1
		if c := s[i]; c >= utf8.RuneSelf || notPlain[c] {
			b, n = plainStep(s, i, q)
		}
		for j := 0; j < len(b); j++ {
			key = key<<8 | uint64(lower(b[j]))
			if read++; read < gramLen {
				continue
			}
			if x.mayHold(key) && x.grams[key] != nil {
				return true
			}
		}
		i += n
	}
	return false
}

// notPlain are the ASCII bytes that plainAt reads as something else: the
// bytes escapes start with, blanks and other controls.
var notPlain = func() (t [utf8.RuneSelf]bool) {
	for c := range byte(utf8.RuneSelf) {
		t[c] = separatorByte(c) || strings.IndexByte(`\&<%^`, c) >= 0
	}
	return t
}()

// plainText is s as a reader decoding every escape reads it, one reading
// for each position (see plainAt), the separators and the escape
// sequences left out; and for each
// byte of it, where in s the character it comes from starts.
func plainText(s string, q *seqScan) (string, []int) {
	d := make([]byte, 0, len(s))
	from := make([]int, 0, len(s))
	for i := 0; i < len(s); {
		b, n := plainStep(s, i, q)
		d = append(d, b...)
		for range len(b) {
			from = append(from, i)
		}
		i += n
	}
	return string(d), from
}

// plainAt is the character at s[i] as a reader decoding every escape
// reads it (see readAt), and its length in s; a separator (a blank, a line
// break, an invisible character, a control, <br>, a backslash that escapes
// the character after it) read as nothing.
func plainAt(s string, i int) (string, int) {
	u := readAt(s, i)
	if u.sep {
		return "", u.n
	}
	return u.b, u.n
}

// plainStep is plainAt, but for an escape sequence (see seqScan.at),
// read as nothing.
func plainStep(s string, i int, q *seqScan) (string, int) {
	c := s[i]
	if c < utf8.RuneSelf && !notPlain[c] || c >= utf8.RuneSelf && c != 0xc2 {
		return plainAt(s, i)
	}
	var buf [8]unit
	var us []unit
	if c < utf8.RuneSelf {
		us = units(s, i, buf[:0])
	}
	if end := q.at(s, i, us); end > i {
		return "", end - i
	}
	u := plainByteAt(s, i)
	if us != nil {
		u = longest(us)
	}
	if u.sep {
		return "", u.n
	}
	return u.b, u.n
}
