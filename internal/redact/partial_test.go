package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// emu is the emulator's kind of token: no well-known prefix, 22
// characters, so 11 of them in a row are masked.
const emu = "emutoken-SECRET-123456"

// TestPartOfASecret: a server that echoes a run of a secret without the
// rest and without a cut mark: a run as long as half the secret (without
// its well-known prefix, and never under MinDistinct) is masked, in any
// encoding; one character shorter, or the prefix alone, is left as it is.
func TestPartOfASecret(t *testing.T) {
	t.Parallel()
	// After a blank, as a reader reads it (the next word's first letter
	// would extend a run that ends just under the threshold: emutoken-S
	// end holds emutoken-Se, blanks and case left out).
	const before, after = "bad: ", " (end)"
	json := func(s string) string { return jsonEscaped(s) }
	for _, tc := range []struct {
		name, secret, in string
		masked           bool
	}{
		{"start, 15 of 22", emu, emu[:15], true},
		{"end, 18 of 22", emu, emu[4:], true},
		{"start at the threshold", emu, emu[:11], true},
		{"start under it", emu, emu[:10], false},
		{"end at the threshold", emu, emu[11:], true},
		{"end under it", emu, emu[12:], false},
		{"middle at the threshold", emu, emu[5:16], true},
		{"middle under it", emu, emu[5:15], false},
		{"in upper case", emu, strings.ToUpper(emu[:11]), true},
		{"in lower case", emu, strings.ToLower(emu[5:16]), true},
		{"JSON-escaped", emu, json(emu[:11]), true},
		{"JSON-escaped, under", emu, json(emu[:10]), false},
		{"percent-encoded", emu, "%65%6D%75%74oken-SE", true},
		{"HTML references", emu, "&#101;&#x6d;utoken&#45;SE", true},
		{"split by a line break", emu, emu[:6] + "\n" + emu[6:11], true},
		{"with a bidi mark inside", emu, emu[:6] + "\u200e" + emu[6:11], true},
		{"with a bidi mark escaped inside", emu, emu[:6] + `\u202E` + emu[6:11], true},
		{"base64 of half", emu, base64.StdEncoding.EncodeToString([]byte(emu[:12])), true},
		{"two runs too short apart", emu, emu[:10] + " and " + emu[12:], false},
		// ghs_ is every GitHub App token's: it does not count, so 18 of
		// the 36 characters after it are wanted.
		{"the prefix alone", gh, gh[:4], false},
		{"the prefix and 17", gh, gh[:4+17], false},
		{"the prefix and 18", gh, gh[:4+18], true},
		{"18 after the prefix", gh, gh[4 : 4+18], true},
		{"the last 18", gh, gh[len(gh)-18:], true},
		{"the last 17", gh, gh[len(gh)-17:], false},
		{"another token with the same prefix", gh, "ghs_aaaaBBBBccccDDDDeeeeFFFFgggg0000hhhh", false},
		{"a secret under 12 characters is not looked for in part", "abcdefghij1", "abcdefghij", false},
		{"a 12-character secret, 8 of it", "abcdefghij12", "cdefghij", true},
		{"a 12-character secret, 7 of it", "abcdefghij12", "defghij", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			text := before + tc.in + after
			got := New(tc.secret).Redact(text)
			want := text
			if tc.masked {
				want = before + Mask + after
			}
			if got != want {
				t.Errorf("secret %q in %q: got %q, want %q", tc.secret, text, got, want)
			}
			if has := New(tc.secret).Has(text); has != tc.masked {
				t.Errorf("Has(%q) = %v, want %v", text, has, tc.masked)
			}
		})
	}
}

// TestPartsOfASecretRepeated: a text full of runs just under the
// threshold, and runs of a secret that repeats itself, are read once.
func TestPartsOfASecretRepeated(t *testing.T) {
	t.Parallel()
	r := New(emu)
	// Blanks would join the runs: a secret is found split by them.
	short := strings.Repeat(emu[:10]+"|", 1000)
	if got := r.Redact(short); got != short {
		t.Errorf("runs under the threshold were masked: %.80q…", got)
	}
	long := strings.Repeat(emu[3:17]+"|", 1000)
	if got, want := r.Redact(long), strings.Repeat(Mask+"|", 1000); got != want {
		t.Errorf("got %.80q…, want every run masked", got)
	}
	rep := New("abababababababab")
	if got := rep.Redact("x ababababab y"); got != "x "+Mask+" y" {
		t.Errorf("a run of a repeating secret: got %q", got)
	}
}

// BenchmarkRedactPartialLine scrubs a log line of 1 MB that holds runs of
// a 40-character secret just under the threshold, the slowest text for
// the search of its parts, and one run over it.
func BenchmarkRedactPartialLine(b *testing.B) {
	r := New(gh)
	text := strings.Repeat(gh[3:4+17]+" x ", (1<<20)/24) + gh[10:30]
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		r.Redact(text)
	}
}
