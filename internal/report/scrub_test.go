package report_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
)

// TestEscapedSecretsAreScrubbed: the zero-width spaces EscapeMarkdown puts
// inside references never hide a secret from the scrub: a token of
// letters, hex digits, '#' and '-', written whole or split by any
// separator the scrub looks past, at any place, and escaped for Markdown,
// is masked.
func TestEscapedSecretsAreScrubbed(t *testing.T) {
	t.Parallel()
	const alphabet = "abcdefABCDEFxyzXYZ0123456789#-_"
	separators := []string{"", "\n", "\r\n", " ", "\t", "%0A", "%0d", "%250A", `\n`, `\r`}
	leftOver := strings.NewReplacer("&#8203;", "", "<br>", "", " ", "", "\t", "", `\`, "", "%250A", "", "%0A", "", "%0d", "", `\n`, "", `\r`, "")
	rng := rand.New(rand.NewPCG(34, 8))
	for range 300 {
		tok := report.RandomText(rng, alphabet, 12+rng.IntN(20))
		r := redact.New(tok)
		for at := 1; at < len(tok); at++ {
			sep := separators[rng.IntN(len(separators))]
			text := "answer " + tok[:at] + sep + tok[at:] + " end"
			got := r.Redact(report.EscapeMarkdown(text))
			if !strings.Contains(got, redact.Mask) || strings.Contains(leftOver.Replace(got), leftOver.Replace(report.EscapeMarkdown(tok))) {
				t.Fatalf("token %q split by %q at %d: the summary shows %q", tok, sep, at, got)
			}
		}
	}
}
