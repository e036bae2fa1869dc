// Package redact removes secrets from text before it is shown, in every
// form a reader could decode: as written; escaped, character by character
// and in any mix, as JSON and JavaScript (\u002B, \u{2b}, \x2b, \/),
// HTML (&#43;, &#x2B, &#0043;, &plus;, &amp;) and URLs (%2B, %2b) do, and
// escaped again (%252B, &amp;#43;, \\u002B); base64-encoded at any
// alignment (a Basic authorization header, a JSON blob echoed back); in
// another letter case; split by line breaks, blanks (every character
// Unicode counts as white space: U+00A0, U+2028, U+3000…), invisible
// characters (every format character and default ignorable code point:
// bidirectional marks and overrides, zero-width spaces, tags, variation
// selectors…), controls and a terminal's escape sequences (a colour code:
// controls.go) or escaping backslashes, written or escaped again (%5C_,
// &#92;_); cut short; and in part, a run of half of it or more
// (partial.go).
//
// Rather than list every mixed form, which cannot be done, a Redactor
// decodes the text as it matches: at each position it reads the next
// character in each encoding, and compares it with the secret's next one,
// remembering the span of the original text to replace. The cost is linear
// in the text's length, times the secrets' length at worst. Parts of a
// secret are looked up instead, by the runs of MinDistinct bytes they
// start with, in the text read once with every escape decoded (plainText)
// and as written: a few more passes, linear in the text whatever the
// secret.
//
// A Redactor is meant for the program's sinks (the log, the job summary,
// the outputs, what is sent to GitHub, file names): each scrubs the text it
// writes once, after every formatting and escaping step, so that no escape
// can hide a secret from it. Text cut short before it reaches a sink ends
// with the cut mark "…": what is left of a secret just before the mark is
// scrubbed too.
package redact

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/report"
)

// Mask is what a secret is replaced with.
const Mask = "***"

// CutMark ends text that was cut short.
const CutMark = report.CutMark

// Redactor scrubs a set of secrets. The zero value scrubs nothing; it is
// safe for concurrent use.
type Redactor struct {
	mu       sync.RWMutex
	patterns []pattern // longest first
	// starts are the bytes a match may start with: the first byte of a
	// pattern, in either case where case is ignored, and the bytes escapes
	// start with.
	starts [256]bool
	// shortest is the length of the shortest secret added.
	shortest int
	// partial finds runs of a secret echoed without the rest.
	partial partialIndex
	// notUTF8: a secret is not UTF-8 (no token is, but a secret is
	// bytes).
	notUTF8 bool
}

// pattern is what the text is matched against: a secret, or a run of
// base64 that encodes only bytes of one.
type pattern struct {
	text string
	// fold: ASCII letter case is ignored, as a host name or a
	// case-folding server echoes a secret.
	fold bool
	// split: separators may stand between two of its characters.
	split bool
}

// MinDistinct is the length of the shortest secret that can be told from
// ordinary text. Shorter ones are words, numbers and ids that text holds by
// chance ("docs", "true", "1001"): a run warns of them, as the scrub hides
// them wherever they show. Eight characters of a token (a random one has
// more than 10^14 values) do not show by chance; seven letters are still
// ordinary words.
const MinDistinct = 8

// minSplit is the shortest secret looked for split, or in another letter
// case: shorter ones would match ordinary words by chance.
const minSplit = MinDistinct

// minCut is the shortest start of a secret scrubbed before a cut mark.
const minCut = 4

// Add registers a secret. Empty secrets are ignored.
func (r *Redactor) Add(secret string) {
	if secret == "" {
		return
	}
	// The text is matched without the characters that show as nothing:
	// so is a secret pasted with one (a U+200E or U+FEFF copied with it).
	if shown, at := visible(secret); at != nil {
		r.Add(shown)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notUTF8 = r.notUTF8 || !utf8.ValidString(secret)
	long := len(secret) >= minSplit
	add := []pattern{{text: secret, fold: long, split: long}}
	forms := base64Forms(secret)
	r.partial.add(secret, forms)
	for _, f := range forms {
		add = append(add, pattern{text: f, split: true})
	}
	for _, p := range add {
		if slices.Contains(r.patterns, p) {
			continue
		}
		r.patterns = append(r.patterns, p)
		c := p.text[0]
		r.starts[c] = true
		if p.fold && isLetter(c) {
			r.starts[c|0x20], r.starts[c&^0x20] = true, true
		}
		if c == ' ' {
			r.starts['+'] = true
		}
	}
	for _, c := range []byte(`\&%`) {
		r.starts[c] = true
	}
	if r.shortest == 0 || len(secret) < r.shortest {
		r.shortest = len(secret)
	}
	slices.SortStableFunc(r.patterns, func(a, b pattern) int { return len(b.text) - len(a.text) })
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// Shortest is the length of the shortest secret registered, 0 for none.
func (r *Redactor) Shortest() int {
	if r == nil {
		return 0
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.shortest
}

// Redact replaces every form of every secret in s with Mask: written
// whole, in any encoding and mix of encodings, split by separators (as
// text folded, or made one line, shows it), the start of one cut short
// just before CutMark, and a run of half of one or more.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.patterns) == 0 {
		return s
	}
	spans := r.spans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		if sp.from < last { // overlaps one already masked
			last = max(last, sp.to)
			continue
		}
		b.WriteString(s[last:sp.from])
		b.WriteString(Mask)
		last = sp.to
	}
	b.WriteString(s[last:])
	return b.String()
}

// Has reports whether s holds a secret in any form Redact scrubs.
func (r *Redactor) Has(s string) bool {
	if r == nil {
		return false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.patterns) > 0 && len(r.spans(s)) > 0
}

// spans lists the spans of s that hold a secret, in the order they start,
// matched as if the characters that show as nothing were not there.
func (r *Redactor) spans(s string) []span {
	view, at := visible(s)
	var q seqScan
	spans := append(r.find(view, &q), r.partial.partialSpans(view, &q)...)
	if at != nil {
		for i, sp := range spans {
			spans[i] = span{at[sp.from], at[sp.to]}
		}
		if r.notUTF8 {
			// Its first bytes may end a character of the text before it
			// that shows as nothing, which the view leaves out.
			spans = append(spans, r.find(s, &seqScan{})...)
			spans = append(spans, r.partial.find(s)...)
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Or(a.from-b.from, b.to-a.to) })
	return spans
}

// span is a part of the text to mask, s[from:to].
type span struct{ from, to int }

// state is a point of a match: the text read up to p, the pattern up to k.
type state struct{ p, k int }

// matcher holds what matching reuses from one position to the next.
type matcher struct {
	s     string
	seqs  *seqScan
	first []unit // the ways the text at the start position reads
	us    []unit
	stack []state
	// seen are the states reached from the start position: a short list,
	// then, for each position of the text, the match (gen) that last
	// reached it and the first k it did so with (a long run of blanks
	// makes a state at each position), then a map for the others.
	seen    []state
	seenGen []uint32
	seenK   []int32
	gen     uint32
	seenMap map[state]bool
	// seenPeak is the most states seenMap has held: clearing it costs
	// that, however few it holds now.
	seenPeak int
	// pushes counts the states searched from, for all the matches.
	pushes int
	// long are the positions stamped past the short list (their k in
	// seenK; the others at them are in seenMap).
	long []int32
	// dead are, for each pattern, the states from which a match was
	// searched for in full and none found; dead the current pattern's.
	deads []*deadStates
	dead  *deadStates
}

// deadStates are states that lead to no match of a pattern: an escape
// sequence (a title, a link) shows as nothing, and may hold the text of
// later starts of a secret, so that a search from each start could read
// on to the end of the text. A search that reads a state found dead in an
// earlier one stops there: each state of a pattern is searched from once.
type deadStates struct {
	k    []int32 // for each position, a dead k plus one; 0 for none
	more map[state]bool
}

func (d *deadStates) has(st state) bool {
	return d.k[st.p] == int32(st.k)+1 || d.more[st]
}

func (d *deadStates) add(st state) {
	switch d.k[st.p] {
	case 0:
		d.k[st.p] = int32(st.k) + 1
	case int32(st.k) + 1:
	default:
		if d.more == nil {
			d.more = map[state]bool{}
		}
		d.more[st] = true
	}
}

// maxSeenList is how many states are looked up in a list before a map.
const maxSeenList = 32

// find lists the spans of s that hold a secret, in the order they start;
// q finds its escape sequences.
func (r *Redactor) find(s string, q *seqScan) []span {
	m := matcher{s: s, seqs: q}
	return m.find(r)
}

func (m *matcher) find(r *Redactor) []span {
	var spans []span
	s := m.s
	// A pattern is looked for again only past its last match, as a
	// replacement of every match from left to right would: a text that
	// repeats a secret costs its length once, not once a byte.
	next := make([]int, len(r.patterns))
	for i := 0; i < len(s); i++ {
		if !r.starts[s[i]] {
			continue
		}
		m.first = units(s, i, m.first[:0])
		end := -1
		for pi := range r.patterns {
			if i < next[pi] {
				continue
			}
			if e := m.match(pi, &r.patterns[pi], i); e > i {
				next[pi] = e
				end = max(end, e)
			}
		}
		if end > i {
			spans = append(spans, span{i, end})
		}
	}
	return spans
}

// match is the end of the span that starts at i and reads as p, or as
// the start of p (minCut bytes or more) followed by CutMark; -1 for none.
func (m *matcher) match(pi int, p *pattern, i int) int {
	if !slices.ContainsFunc(m.first, func(u unit) bool { return p.continues(u.b, 0) }) {
		return -1 // the way most positions end: no need to search
	}
	m.dead = nil
	if pi < len(m.deads) {
		m.dead = m.deads[pi]
	}
	m.long = m.long[:0]
	end := m.search(p, i)
	if end < 0 && len(m.long) > 0 {
		// Searched in full, past the short list, and no match: a later
		// search that reaches one of these states need not read on.
		if m.dead == nil {
			m.dead = &deadStates{k: make([]int32, len(m.s)+1)}
			if pi >= len(m.deads) {
				m.deads = slices.Grow(m.deads, pi+1-len(m.deads))[:pi+1]
			}
			m.deads[pi] = m.dead
		}
		for _, st := range m.seen {
			m.dead.add(st)
		}
		for _, p := range m.long {
			m.dead.add(state{int(p), int(m.seenK[p])})
		}
		for st := range m.seenMap {
			m.dead.add(st)
		}
	}
	return end
}

// search is match's search from i, past its first check.
func (m *matcher) search(p *pattern, i int) int {
	m.seen = m.seen[:0]
	if m.gen++; m.gen == 0 { // wrapped: the stamps may hold this number
		clear(m.seenGen)
		m.gen = 1
	}
	if n := len(m.seenMap); n > 0 {
		// A map grown large by one long match (a start followed by a
		// long run of blanks) is dropped rather than cleared, so that
		// each match costs what it reads, not what that one did.
		if m.seenPeak > 4*n+maxSeenList {
			m.seenMap, m.seenPeak = nil, 0
		} else {
			clear(m.seenMap)
		}
	}
	cut := -1
	m.stack = append(m.stack[:0], state{i, 0})
	for len(m.stack) > 0 {
		st := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if st.k == len(p.text) {
			return st.p
		}
		if st.k >= minCut && st.p > cut {
			if end := cutAt(m.s, st.p); end >= 0 {
				cut = end
			}
		}
		if st.p >= len(m.s) {
			continue
		}
		us := m.first
		if st.p != i {
			m.us = units(m.s, st.p, m.us[:0])
			us = m.us
		}
		if p.split && st.k > 0 {
			// An escape sequence, which shows as nothing: a separator.
			if end := m.seqs.at(m.s, st.p, us); end > st.p {
				m.push(state{end, st.k})
			}
		}
		for _, u := range us {
			if u.sep && p.split && st.k > 0 {
				m.push(state{st.p + u.n, st.k})
			}
			if p.continues(u.b, st.k) {
				m.push(state{st.p + u.n, st.k + len(u.b)})
			}
		}
	}
	return cut
}

// cutAt is where the text at p is cut short: at p, or after the start of
// an escape the cut left unfinished (&#x2…); -1 when it is not.
func cutAt(s string, p int) int {
	if strings.HasPrefix(s[p:], CutMark) {
		return p
	}
	if p == len(s) || strings.IndexByte(`&%\`, s[p]) < 0 {
		return -1
	}
	j := p + 1
	for j < len(s) && j-p < 16 && (isAlnum(s[j]) || s[j] == '#' || s[j] == '{') {
		j++
	}
	if strings.HasPrefix(s[j:], CutMark) {
		return j
	}
	return -1
}

func (m *matcher) push(st state) {
	if m.dead != nil && m.dead.has(st) {
		return
	}
	switch {
	case len(m.seen) < maxSeenList:
		if slices.Contains(m.seen, st) {
			return
		}
		m.seen = append(m.seen, st)
	case slices.Contains(m.seen, st):
		return
	default:
		if m.seenGen == nil {
			m.seenGen, m.seenK = make([]uint32, len(m.s)+1), make([]int32, len(m.s)+1)
		}
		if m.seenGen[st.p] != m.gen {
			m.seenGen[st.p], m.seenK[st.p] = m.gen, int32(st.k)
			m.long = append(m.long, int32(st.p))
			break
		}
		if int(m.seenK[st.p]) == st.k || m.seenMap[st] {
			return
		}
		if m.seenMap == nil {
			m.seenMap = map[state]bool{}
		}
		m.seenMap[st] = true
		m.seenPeak = max(m.seenPeak, len(m.seenMap))
	}
	m.stack = append(m.stack, st)
	m.pushes++
}

// continues reports whether b, not empty, is what p holds at k.
func (p *pattern) continues(b string, k int) bool {
	if b == "" || len(b) > len(p.text)-k {
		return false
	}
	if !p.fold {
		return p.text[k:k+len(b)] == b
	}
	for j := 0; j < len(b); j++ {
		if lower(b[j]) != lower(p.text[k+j]) {
			return false
		}
	}
	return true
}

// New returns a Redactor for secrets.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

var lowerHex = regexp.MustCompile(`%[0-9A-F]{2}`)

// base64Forms are the runs of base64 that encode only bytes of secret,
// as it is found inside a longer encoded text: in standard and URL
// encoding, padded or not, at each of the three alignments a secret may
// start at within a group of three bytes.
func base64Forms(secret string) []string {
	var forms []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		for align := range 3 {
			pad := strings.Repeat("\x00", align)
			full := enc.EncodeToString([]byte(pad + secret))
			// Characters before this index mix in the padding bytes.
			start := (align*8 + 5) / 6
			// The last group may mix in bytes after the secret.
			end := (align + len(secret)) * 8 / 6
			if end-start >= minBase64 && end <= len(full) && !slices.Contains(forms, full[start:end]) {
				forms = append(forms, full[start:end])
			}
		}
	}
	return forms
}

// minBase64 is the shortest base64 run worth scrubbing: shorter runs match
// ordinary text by chance.
const minBase64 = 8

// Forms lists common text forms in which secret may appear, written out:
// for a reader that can only hide text as it is written, such as the
// runner's ::add-mask::. A Redactor finds these and every other form.
func Forms(secret string) []string {
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret),
		strings.ReplaceAll(secret, "/", `\/`)} // as a JSON encoder that escapes slashes writes it
	if quoted, err := json.Marshal(secret); err == nil {
		forms = append(forms, string(quoted[1:len(quoted)-1])) // JSON-escaped
	}
	forms = append(forms, html.EscapeString(secret)) // as an HTML error page echoes it
	// In another letter case, as a host name or a case-folding server
	// echoes it; short secrets are left alone, as they would match
	// ordinary words.
	if len(secret) >= minSplit {
		forms = append(forms, strings.ToLower(secret), strings.ToUpper(secret))
	}
	// Percent-encoding with lower-case hex digits, as some servers write it.
	for _, esc := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		forms = append(forms, lowerHex.ReplaceAllStringFunc(esc, strings.ToLower))
	}
	forms = append(forms, base64Forms(secret)...)
	// Each form also as the places that escape text write it: a workflow
	// command's message and properties (the log, annotations), and
	// Markdown (the job summary, a pull request comment).
	for _, f := range slices.Clone(forms) {
		forms = append(forms, commandData.Replace(f), commandProperty.Replace(f), report.EscapeMarkdown(f))
	}
	if shown, at := visible(secret); at != nil && shown != "" {
		forms = append(forms, Forms(shown)...)
	}
	var out []string
	for _, f := range forms {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// How the runner's workflow commands escape their message and properties.
var (
	commandData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	commandProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
