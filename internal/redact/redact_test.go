package redact

import (
	"encoding/base64"
	"html"
	"net/url"
	"strings"
	"testing"
)

const secret = "tok-3f9a/very+secret?&="

func TestRedactsEveryForm(t *testing.T) {
	t.Parallel()
	r := New(secret)
	cases := map[string]string{
		"as written":      "token " + secret + " revoked",
		"query-escaped":   "GET /x?token=" + url.QueryEscape(secret),
		"path-escaped":    "/files/" + url.PathEscape(secret),
		"basic auth":      "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:"+secret)),
		"url base64":      base64.URLEncoding.EncodeToString([]byte("a" + secret + "bc")),
		"raw base64":      base64.RawStdEncoding.EncodeToString([]byte("ab" + secret)),
		"json blob":       `{"data":"` + base64.StdEncoding.EncodeToString([]byte(`{"t":"`+secret+`"}`)) + `"}`,
		"twice in a row":  secret + secret,
		"lower-case hex":  "?t=" + strings.ToLower(url.QueryEscape(secret)),
		"in an HTML page": "<p>token " + html.EscapeString(secret) + " refused</p>",
	}
	for name, text := range cases {
		got := r.Redact(text)
		if strings.Contains(got, secret) {
			t.Errorf("%s: the secret survives in %q", name, got)
		}
		for _, f := range Forms(secret) {
			if strings.Contains(got, f) {
				t.Errorf("%s: form %q survives in %q", name, f, got)
			}
		}
		// Decoding what is left must not give the secret back.
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			for _, word := range strings.FieldsFunc(got, func(r rune) bool { return strings.ContainsRune(" :\"{}=/?", r) }) {
				if b, err := enc.DecodeString(word); err == nil && strings.Contains(string(b), secret) {
					t.Errorf("%s: %q decodes to the secret", name, word)
				}
			}
		}
		if got == text {
			t.Errorf("%s: nothing was redacted in %q", name, text)
		}
	}
}

func TestRedactLeavesOtherTextAlone(t *testing.T) {
	t.Parallel()
	r := New(secret)
	for _, s := range []string{"", "service answered 401 Unauthorized", "aGVsbG8gd29ybGQ=", strings.Repeat("x", 1000)} {
		if got := r.Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
	var zero *Redactor
	if zero.Redact(secret) != secret {
		t.Error("a nil Redactor changed the text")
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("tok", "prefix", "suffix")
	f.Add(secret, "Basic ", "")
	f.Fuzz(func(t *testing.T, sec, before, after string) {
		if len(sec) < 4 || strings.Contains(before+after, Mask) {
			return
		}
		r := New(sec)
		for _, form := range []string{sec, url.QueryEscape(sec), base64.StdEncoding.EncodeToString([]byte(before + sec + after))} {
			got := r.Redact(before + form + after)
			if strings.Contains(got, sec) {
				t.Fatalf("secret %q survives in %q", sec, got)
			}
		}
	})
}
