package redact

import (
	"encoding/base64"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/report"
)

const secret = "tok-3f9a/very+secret?&="

// gh is shaped like a GitHub token: its _ is escaped in Markdown.
const gh = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"

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
	for name, text := range map[string]string{
		"markdown-escaped": "| build | " + report.EscapeMarkdown(gh) + " |",
		"split by a line":  gh[:9] + "\n" + gh[9:],
		"split by CRLF":    gh[:5] + "\r\n" + gh[5:],
		"split by %0A":     "::error::" + gh[:9] + "%0A" + gh[9:],
		"split, escaped":   `{"m":"` + gh[:12] + `\n` + gh[12:] + `"}`,
		"lines joined":     "answer: " + gh[:9] + " " + gh[9:] + " end",
		"markdown break":   report.EscapeMarkdown(gh[:9] + "\n" + gh[9:]),
		"command-escaped":  "::warning::" + strings.ReplaceAll(url.QueryEscape(gh), "%", "%25"),
		"cut short":        "service answered 400: " + gh[:len(gh)-1] + report.CutMark + " (more)",
		"cut, escaped":     report.Shorten("x "+report.EscapeMarkdown(gh), 10),
	} {
		got := New(gh).Redact(text)
		if strings.Contains(strings.NewReplacer("\n", "", "\r", "", "%0A", "", " ", "", "<br>", "", `\n`, "", `\`, "").Replace(got), gh[:6]) {
			t.Errorf("%s: the secret survives in %q", name, got)
		}
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: nothing was redacted in %q", name, got)
		}
	}
	// A secret split by a line break and then cut short, at every length
	// a cut may leave; and in another letter case.
	for n := minCut + 1; n < len(gh); n++ {
		for _, sep := range []string{"\n", " ", "<br>"} {
			text := "yyyy " + gh[:1] + sep + gh[1:n] + report.CutMark
			got := New(gh).Redact(text)
			if left := strings.NewReplacer(sep, "", report.CutMark, "").Replace(got); strings.Contains(left, gh[:minCut]) {
				t.Errorf("split by %q, cut after %d bytes: the secret's start survives in %q", sep, n, got)
			}
		}
	}
	for name, text := range map[string]string{"lower case": "http://" + strings.ToLower(gh) + ".invalid/x", "upper case": strings.ToUpper(gh)} {
		if got := New(gh).Redact(text); strings.Contains(strings.ToLower(got), strings.ToLower(gh[:minCut])) {
			t.Errorf("%s: the secret survives in %q", name, got)
		}
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
	f.Add(gh, "| build | ", " |")
	f.Fuzz(func(t *testing.T, sec, before, after string) {
		if len(sec) < 4 || strings.Contains(before+after, Mask) {
			return
		}
		r := New(sec)
		for _, form := range []string{sec, url.QueryEscape(sec), base64.StdEncoding.EncodeToString([]byte(before + sec + after)),
			report.EscapeMarkdown(sec)} {
			got := r.Redact(before + form + after)
			if strings.Contains(got, sec) {
				t.Fatalf("secret %q survives in %q", sec, got)
			}
		}
		// Half of it or more, without the rest, as a server may echo it.
		if shown, _ := visible(sec); len(shown) == len(sec) && len(sec) >= minPartial && !strings.Contains(sec, "*") {
			need := max(MinDistinct, (len(sec)+1)/2)
			for _, part := range []string{sec[:need], sec[len(sec)-need:]} {
				if knownPrefix(part) == "" && strings.Contains(r.Redact(before+part+after), part) {
					t.Fatalf("%q of secret %q survives in %q", part, sec, r.Redact(before+part+after))
				}
			}
		}
		// Split by a line break, as a server may fold it, or a sink escape
		// it: a secret long enough to be found split is.
		// Long enough as it shows: its invisible characters do not count.
		if shown, _ := visible(sec); len(shown) < minSplit || strings.ContainsAny(sec, "\r\n%\\< \t") {
			return
		}
		for _, brk := range []string{"\n", "%0A", "<br>", " "} {
			k := len(sec) / 2
			got := r.Redact(before + sec[:k] + brk + sec[k:] + after)
			if strings.Contains(strings.ReplaceAll(got, brk, ""), sec) {
				t.Fatalf("secret %q split by %q survives in %q", sec, brk, got)
			}
		}
	})
}

// TestRedactLeavesTextThatIsNoSecret: ordinary words, split or cut, are
// not taken for a secret.
func TestRedactLeavesTextThatIsNoSecret(t *testing.T) {
	t.Parallel()
	r := New(gh)
	for _, s := range []string{"gh", "ghs", "ghs is short… (3 more characters)", "a b c d e f g h i j", "ghs_ alone\n"} {
		if got := r.Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
}

// BenchmarkRedactSummary scrubs two secrets from text the size of the
// largest job summary GitHub takes, as its sink does once per run.
func BenchmarkRedactSummary(b *testing.B) {
	r := New(gh, secret)
	row := "| ❌ | GET /books/{bookId} | removed the <code>query</code> request parameter <code>limit\\_x</code> | request-parameter-removed |\n"
	text := strings.Repeat(row, (1<<20)/len(row))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Redact(text)
	}
}

// BenchmarkRedactLine scrubs one line of the log, as its sink does for
// every line.
func BenchmarkRedactLine(b *testing.B) {
	r := New(gh, secret)
	line := "::warning title=docs-publish::API changes not reported: GitHub answered 500 Internal Server Error: upstream refused"
	for b.Loop() {
		r.Redact(line)
	}
}

// TestLongerSecretMaskedWhole: a secret that holds a shorter one (a token
// and the same token with a suffix, say) is masked whole, whichever was
// added first: masking the shorter one first would leave the rest of the
// longer one visible.
func TestLongerSecretMaskedWhole(t *testing.T) {
	t.Parallel()
	short, long := "dp_live_abcdef", "dp_live_abcdef-tail-9q8w7e"
	for _, r := range []*Redactor{New(short, long), New(long, short)} {
		if got := r.Redact("token " + long + " refused"); got != "token "+Mask+" refused" {
			t.Errorf("got %q, want the longer secret masked whole", got)
		}
	}
}
