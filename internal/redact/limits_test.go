package redact

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/report"
)

// TestRedactExactly reads the whole scrubbed text, so that a mask that
// leaves a secret's last bytes, or a secret left whole beside a masked one,
// shows; and scrubs at the edges of the package's limits: the shortest
// secret found split or in another case, the shortest start before a cut
// mark, the shortest base64 run.
func TestRedactExactly(t *testing.T) {
	t.Parallel()
	const cut = report.CutMark
	for _, tc := range []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"the shortest secret looked for split, split", []string{"abcd1234"}, "key abcd\n1234 end", "key " + Mask + " end"},
		{"split secrets out of their order by length", []string{"abcd1234", "zyxw98765", "qrst-uvw-xyz"},
			"zyxw\n98765, abcd\n1234, qrst-u\nvw-xyz", Mask + ", " + Mask + ", " + Mask},
		{"two split secrets overlapping", []string{"abcdefgh", "efghijkl"}, "abcd\nefgh\nijkl.", Mask + "."},
		{"text cut at both ends", []string{gh}, cut + " token " + gh[:10] + cut, cut + " token " + Mask + cut},
		{"the shortest start before a cut", []string{"abcd1234xyz"}, "key abcd" + cut, "key " + Mask + cut},
		{"a start escaped before a cut inside an escape", []string{"abcd1234xyz"}, "key &#x61;b&#99d&#x3" + cut, "key " + Mask + cut},
		{"a start before a cut after a partial escape too long to be one", []string{"abcd1234xyz"}, "key abcd%0123456789abcdef0" + cut, "key abcd%0123456789abcdef0" + cut},
		{"the shortest secret looked for in upper case", []string{"Abcd1234"}, "HOST ABCD1234", "HOST " + Mask},
		// Go's JSON encoder writes <, > and & as \u escapes.
		{"JSON-escaped with HTML characters", []string{"p<ss&word>1"}, `{"password":"p\u003css\u0026word\u003e1"}`, `{"password":"` + Mask + `"}`},
		{"the shortest base64 run", []string{"s3cr3t"}, "Basic " + base64.StdEncoding.EncodeToString([]byte("s3cr3t")), "Basic " + Mask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := New(tc.secrets...).Redact(tc.in); got != tc.want {
				t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestHas(t *testing.T) {
	t.Parallel()
	r := New(gh)
	for in, want := range map[string]bool{
		"token " + gh:                     true,
		"split " + gh[:9] + "\n" + gh[9:]: true,
		"no secret here":                  false,
		"":                                false,
	} {
		if got := r.Has(in); got != want {
			t.Errorf("Has(%q) = %v, want %v", in, got, want)
		}
	}
}

// BenchmarkRedactLongSeparatorWalk: one start of a secret followed by a
// long run of blanks (a match that reads on through every one of them),
// then starts of the secret spaced out, each a match that reads more
// states than a short list holds. Every later match must cost what it
// reads, not what the long one did: the time a byte stays the same at 1
// and 4 MB.
func BenchmarkRedactLongSeparatorWalk(b *testing.B) {
	spaced := strings.Join(strings.Split(gh[:len(gh)-1], ""), " ") + " x "
	for _, size := range []int{1 << 20, 4 << 20} {
		text := "g" + strings.Repeat(" ", size/2) + strings.Repeat(spaced, size/2/len(spaced))
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			r := New(gh)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				r.Redact(text)
			}
		})
	}
}

// TestRedactBeyondTheShortList: a match that reads more states than the
// short list holds: each blank of the secret read both as its character
// and as a separator (two states at one position, only the first of which
// dies), and the same states read again for a shorter secret at the same
// start after a longer one failed there. The y is an HTML reference, so
// that only the whole-secret match reads the text.
func TestRedactBeyondTheShortList(t *testing.T) {
	t.Parallel()
	short := "x" + strings.Repeat(" y", 20)
	long := short + "Q"
	text := "x" + strings.Repeat(" &#121;", 20) + " end"
	for _, tc := range []struct {
		name    string
		secrets []string
	}{
		{"one secret", []string{short}},
		{"after a longer one failed at the same start", []string{long, short}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := New(tc.secrets...).Redact(text); got != Mask+" end" {
				t.Errorf("%q scrubbed to %q", text, got)
			}
		})
	}
}
