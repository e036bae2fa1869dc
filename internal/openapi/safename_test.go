package openapi

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSafeNameAsTheCleaning: safeName, which spares a lifted name the
// cleaning's copy, holds for exactly the names the cleaning leaves as they
// are (and not ""), on names chosen at their edges and random ones.
func TestSafeNameAsTheCleaning(t *testing.T) {
	t.Parallel()
	cleaned := func(s string) string { return strings.Trim(unsafeName.ReplaceAllString(s, "_"), "_") }
	names := []string{"", "_", "__", "_x_", "_x", "x_", "a__b", "a_b", "ü", "aü", "my pet", "a~b", "-", ".", "a.b-c", "Pet", "9", "a\x00"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aZ09._-_ ~ü/"
	for range 20_000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		names = append(names, b.String())
	}
	for _, s := range names {
		if got, want := safeName(s), s != "" && cleaned(s) == s; got != want {
			t.Errorf("safeName(%q) = %v, want %v (cleaned: %q)", s, got, want, cleaned(s))
		}
	}
}
