package report_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
)

// charEncodings write one character as an encoder would; a text mixes
// them character by character.
var charEncodings = []func(c byte) string{
	func(c byte) string { return string(c) },
	func(c byte) string { return fmt.Sprintf(`\u%04x`, c) },
	func(c byte) string { return fmt.Sprintf(`\u%04X`, c) },
	func(c byte) string { return fmt.Sprintf("&#%d;", c) },
	func(c byte) string { return fmt.Sprintf("&#x%X;", c) },
	func(c byte) string { return fmt.Sprintf("%%%02X", c) },
	func(c byte) string { return fmt.Sprintf("%%%02x", c) },
}

// TestEscapedSecretsAreScrubbed: the zero-width spaces EscapeMarkdown puts
// inside references (in a commit SHA, after # or GH-, inside an escape
// such as &#49;) never hide a secret from the scrub: a token written
// whole, in one encoding or a mix, split by a separator the scrub looks
// past, after text that makes it a reference, and escaped for Markdown,
// is masked.
func TestEscapedSecretsAreScrubbed(t *testing.T) {
	t.Parallel()
	const alphabet = "abcdefABCDEF0123456789#-_xyz"
	fixed := []string{"a5c3785ed8d6a35868bc169f07e40e889087fd2e", "1234567890abcdef", "gh-1234567890", "owner/repo#123456789"}
	before := []string{"", "answer ", "#", "gh-", "GH-", "octo@", "octo/books@", "x", "_"}
	separators := []string{"", "\n", "\r\n", " ", "\t", "%0A", "%0d", "%250A", `\n`, `\r`}
	// What a reader skips: invisible characters, line breaks as the
	// summary writes them, and the separators.
	leftOver := strings.NewReplacer("&#8203;", "", "<br>", "", " ", "", "\t", "", `\`, "", "%250A", "", "%0A", "", "%0d", "", `\n`, "", `\r`, "")
	rng := rand.New(rand.NewPCG(34, 8))
	tokens := fixed
	for range 150 {
		tokens = append(tokens, report.RandomText(rng, alphabet, 12+rng.IntN(30)))
	}
	for _, tok := range tokens {
		r := redact.New(tok)
		for at := 1; at < len(tok); at++ {
			var enc strings.Builder
			encode := charEncodings[rng.IntN(len(charEncodings))]
			mixed := rng.IntN(2) == 0
			for i := 0; i < len(tok); i++ {
				if mixed {
					encode = charEncodings[rng.IntN(len(charEncodings))]
				}
				if i == at {
					enc.WriteString(separators[rng.IntN(len(separators))])
				}
				enc.WriteString(encode(tok[i]))
			}
			text := before[rng.IntN(len(before))] + enc.String() + " end"
			got := r.Redact(report.EscapeMarkdown(text))
			if !strings.Contains(got, redact.Mask) || strings.Contains(leftOver.Replace(got), leftOver.Replace(report.EscapeMarkdown(enc.String()))) {
				t.Fatalf("token %q written %q: the summary shows %q", tok, text, got)
			}
		}
	}
}
