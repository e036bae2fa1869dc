package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestFileSafeKeepsWhatFits: an id of letters from a to z and A to Z keeps
// them all; an id that fits in the name is kept whole, up to the last byte
// allowed; a longer one keeps as much as fits before the hash of the whole
// id, making a name of exactly the length allowed.
func TestFileSafeKeepsWhatFits(t *testing.T) {
	t.Parallel()
	hash := func(id string) string { sum := sha256.Sum256([]byte(id)); return hex.EncodeToString(sum[:8]) }
	fits := strings.Repeat("b", maxSafeID)
	longer := fits + "c"
	cases := []struct{ name, id, want string }{
		{"every letter", "azAZ09", "azAZ09"},
		{"the first and last letters alone", "zA", "zA"},
		{"exactly as long as allowed", fits, fits},
		{"one byte longer", longer, longer[:maxSafeID-17] + "-" + hash(longer)},
	}
	for _, tc := range cases {
		got := fileSafe(tc.id)
		if got != tc.want {
			t.Errorf("%s: fileSafe = %q (%d bytes), want %q (%d bytes)", tc.name, got, len(got), tc.want, len(tc.want))
		}
	}
}
