// Package redact removes secrets from text before it is shown: the secret
// as written, percent-encoded (as in a URL), and base64-encoded at any
// alignment (as in a Basic authorization header or a JSON blob echoed back).
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
)

// Mask is what a secret is replaced with.
const Mask = "***"

// Redactor scrubs a set of secrets. The zero value scrubs nothing; it is
// safe for concurrent use.
type Redactor struct {
	mu    sync.RWMutex
	forms []string // every form of every secret, longest first
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
	}
	slices.SortFunc(r.forms, func(a, b string) int { return len(b) - len(a) })
}

// Redact replaces every form of every secret in s with Mask. Call it before
// cutting s to a length, so that a cut cannot leave part of a secret.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, f := range r.forms {
		if strings.Contains(s, f) {
			s = strings.ReplaceAll(s, f, Mask)
		}
	}
	return s
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
	var out []string
	for _, f := range forms {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
