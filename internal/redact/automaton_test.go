package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomText is n bytes of alphabet.
func randomText(rnd *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rnd.IntN(len(alphabet))]
	}
	return string(b)
}

// TestAutomatonReadsLongestRuns compares, after each byte of a text, the
// automaton's run with the longest suffix of the text read so far that
// the automaton's text holds, found by trying every one; on texts of two
// and three letters, which repeat the most.
func TestAutomatonReadsLongestRuns(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(7, 11))
	for range 300 {
		alphabet := "ab"[:1+rnd.IntN(2)] + "c"[:rnd.IntN(2)]
		text, read := randomText(rnd, alphabet, 1+rnd.IntN(40)), randomText(rnd, alphabet, rnd.IntN(80))
		a := newAutomaton(text)
		var w walk
		for j := 0; j < len(read); j++ {
			a.step(&w, read[j])
			want := 0
			for n := j + 1; n > 0; n-- {
				if strings.Contains(text, read[j+1-n:j+1]) {
					want = n
					break
				}
			}
			if w.n != want {
				t.Fatalf("automaton of %q reading %q: run %d after byte %d, want %d", text, read, w.n, j, want)
			}
		}
	}
}

// TestPartialRunsAsEveryRun compares the parts of a secret found with the
// parts found by trying every run of the text, on secrets and texts of
// two and three letters, which repeat the most: the spans found cover
// exactly the bytes that some run of need bytes or more of the secret
// covers.
func TestPartialRunsAsEveryRun(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 5))
	check := func(secret string, need int, text string) {
		t.Helper()
		var x partialIndex
		x.addPattern(partialPattern{text: secret, fold: true, need: need})
		got := make([]bool, len(text))
		for _, sp := range x.find(text) {
			for i := sp.from; i < sp.to; i++ {
				got[i] = true
			}
		}
		want := make([]bool, len(text))
		for i := range text {
			for j := i + need; j <= len(text) && strings.Contains(secret, text[i:j]); j++ {
				for k := i; k < j; k++ {
					want[k] = true
				}
			}
		}
		for i := range text {
			if got[i] != want[i] {
				t.Fatalf("secret %q, runs of %d, in %q: byte %d covered %v, want %v", secret, need, text, i, got[i], want[i])
			}
		}
	}
	// Found by the random cases: two runs long enough, with a shorter
	// one between them that keeps the automaton reading.
	check("bababbabbbbbbbbbbabbbbbbbbaaa", 22, "abbabbbbabbbbbbbbbaababbabbbbbbbbbbabbbbbbbbbbbbbbbbbbbbabbbbbbbbbbbbbbabbbbbbbbaaabbbbbbbbbbabbbbbbbbbabbbbbbbbbbbbbbbbbbbabbbbbbbb")
	for range 5000 {
		alphabet := "ab" + "c"[:rnd.IntN(2)]
		secret := randomText(rnd, alphabet, minPartial+rnd.IntN(20))
		// Pieces of the secret, and letters between them.
		var b strings.Builder
		for b.Len() < 120 {
			if rnd.IntN(3) == 0 {
				b.WriteString(randomText(rnd, alphabet, 1+rnd.IntN(3)))
				continue
			}
			from := rnd.IntN(len(secret))
			b.WriteString(secret[from : from+1+rnd.IntN(len(secret)-from)])
		}
		check(secret, gramLen+rnd.IntN(len(secret)-gramLen+1), b.String())
	}
}
