// Package redact removes secrets from text before it is shown: the secret
// as written, percent-encoded (as in a URL), base64-encoded at any
// alignment (as in a Basic authorization header or a JSON blob echoed
// back), JSON-, HTML- and Markdown-escaped, in lower or upper case, split
// by line breaks, and cut short (split or not).
//
// A Redactor is meant for the program's sinks (the log, the job summary,
// the outputs, what is sent to GitHub, file names): each scrubs the text it
// writes once, after every formatting and escaping step, so that no escape
// can hide a secret from it. Text cut short before it reaches a sink ends
// with the cut mark "…": what is left of a secret just before the mark is
// scrubbed too.
package redact

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/report"
)

// Mask is what a secret is replaced with.
const Mask = "***"

// CutMark ends text that was cut short.
const CutMark = report.CutMark

// Redactor scrubs a set of secrets. The zero value scrubs nothing; it is
// safe for concurrent use.
type Redactor struct {
	mu    sync.RWMutex
	forms []string // every form of every secret, longest first
	// squeezed are the forms long enough to be found split, without the
	// separators that may split them.
	squeezed []string
}

// Add registers a secret. Empty secrets are ignored.
func (r *Redactor) Add(secret string) {
	if secret == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range Forms(secret) {
		if !slices.Contains(r.forms, f) {
			r.forms = append(r.forms, f)
		}
		if sq, _ := squeeze(f); len(sq) >= minSplit && !slices.Contains(r.squeezed, sq) {
			r.squeezed = append(r.squeezed, sq)
		}
	}
	longestFirst := func(a, b string) int { return len(b) - len(a) }
	slices.SortFunc(r.forms, longestFirst)
	slices.SortFunc(r.squeezed, longestFirst)
}

// Redact replaces every form of every secret in s with Mask: written
// whole, split by line breaks or blanks (as text folded, or made one line,
// shows it), and the start of one cut short just before CutMark.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.forms) == 0 {
		return s
	}
	for _, f := range r.forms {
		if strings.Contains(s, f) {
			s = strings.ReplaceAll(s, f, Mask)
		}
	}
	s = r.redactSplit(s)
	if strings.Contains(s, CutMark) {
		s = r.redactCut(s)
	}
	return s
}

// Has reports whether s holds a secret in any form Redact scrubs.
func (r *Redactor) Has(s string) bool { return r.Redact(s) != s }

// minSplit is the shortest form looked for split: shorter ones would match
// ordinary words by chance once blanks are ignored.
const minSplit = 8

// minCut is the shortest start of a secret scrubbed before a cut mark.
const minCut = 4

// separators are what may split a secret in text: line breaks as written,
// as JSON, URLs and the runner's workflow commands escape them (and a
// workflow command escapes an escaped one), as Markdown writes them,
// blanks (text whose lines were joined), and backslashes (escapes added by
// any number of layers of escaping, such as Markdown escaping a secret a
// server had escaped already).
var separators = []string{"\r", "\n", "%0D", "%0A", "%0d", "%0a", "%250D", "%250A", "%250d", "%250a", `\r`, `\n`, "<br>", " ", "\t", `\`}

// separatorStarts are the bytes a separator starts with.
const separatorStarts = "\r\n%\\< \t"

// squeeze is s without separators, and for each of its bytes the index in
// s it came from.
func squeeze(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	idx := make([]int, 0, len(s))
next:
	for i := 0; i < len(s); {
		if strings.IndexByte(separatorStarts, s[i]) < 0 {
			b.WriteByte(s[i])
			idx = append(idx, i)
			i++
			continue
		}
		for _, sep := range separators {
			if strings.HasPrefix(s[i:], sep) {
				i += len(sep)
				continue next
			}
		}
		b.WriteByte(s[i])
		idx = append(idx, i)
		i++
	}
	return b.String(), idx
}

// redactSplit masks the forms that s holds with separators inside them.
func (r *Redactor) redactSplit(s string) string {
	if len(r.squeezed) == 0 || !strings.ContainsAny(s, separatorStarts) {
		return s
	}
	sq, idx := squeeze(s)
	type span struct{ from, to int } // in s
	var spans []span
	for _, f := range r.squeezed {
		for at := 0; ; {
			i := strings.Index(sq[at:], f)
			if i < 0 {
				break
			}
			i += at
			spans = append(spans, span{idx[i], idx[i+len(f)-1] + 1})
			at = i + len(f)
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp.from < last { // overlaps one already masked
			if sp.to > last {
				last = sp.to
			}
			continue
		}
		b.WriteString(s[last:sp.from])
		b.WriteString(Mask)
		last = sp.to
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactCut masks, before each cut mark, the longest start of a form that
// the text there ends with.
func (r *Redactor) redactCut(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, CutMark)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		before := r.maskCutStart(s[:i])
		b.WriteString(before + CutMark)
		s = s[i+len(CutMark):]
	}
}

// maskCutStart masks the longest start of a form that before ends with,
// written whole or split by separators (a secret split by a line break,
// then cut short).
func (r *Redactor) maskCutStart(before string) string {
	for _, f := range r.forms {
		if n := endsWithStart(before, f); n > 0 {
			return before[:len(before)-n] + Mask
		}
	}
	if len(r.squeezed) == 0 || !strings.ContainsAny(before, separatorStarts) {
		return before
	}
	sq, idx := squeeze(before)
	for _, f := range r.squeezed {
		if n := endsWithStart(sq, f); n > 0 {
			return before[:idx[len(sq)-n]] + Mask
		}
	}
	return before
}

// endsWithStart is the length of the longest start of f, of minCut bytes
// or more, that s ends with; 0 for none.
func endsWithStart(s, f string) int {
	for n := min(len(f)-1, len(s)); n >= minCut; n-- {
		if strings.HasSuffix(s, f[:n]) {
			return n
		}
	}
	return 0
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

// minBase64 is the shortest base64 run worth scrubbing: shorter runs match
// ordinary text by chance.
const minBase64 = 8

// Forms lists the text forms in which secret may appear.
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
	// In base64 a secret's encoding depends on where it starts within a
	// group of three bytes. For each of the three alignments, keep the
	// characters that encode only bytes of the secret.
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		for align := range 3 {
			pad := strings.Repeat("\x00", align)
			full := enc.EncodeToString([]byte(pad + secret))
			// Characters before this index mix in the padding bytes.
			start := (align*8 + 5) / 6
			// The last group may mix in bytes after the secret.
			end := (align + len(secret)) * 8 / 6
			if end-start >= minBase64 && end <= len(full) {
				forms = append(forms, full[start:end])
			}
		}
	}
	// Each form also as the places that escape text write it: a workflow
	// command's message and properties (the log, annotations), and
	// Markdown (the job summary, a pull request comment).
	for _, f := range slices.Clone(forms) {
		forms = append(forms, commandData.Replace(f), commandProperty.Replace(f), report.EscapeMarkdown(f))
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
