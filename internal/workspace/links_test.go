package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealPathLinkChains: a chain of symbolic links is followed as far as
// the system itself follows one (40 links), and a longer chain or a loop is
// refused with an error that says so, in bounded time.
func TestRealPathLinkChains(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	// chain/N leads to chain/N-1, ..., chain/1 to the description: N links.
	must(t, os.Mkdir(filepath.Join(w.Dir(), "chain"), 0o755))
	must(t, os.Symlink("../api/openapi.yaml", filepath.Join(w.Dir(), "chain", "1")))
	for i := 2; i <= 41; i++ {
		must(t, os.Symlink(fmt.Sprint(i-1), filepath.Join(w.Dir(), "chain", fmt.Sprint(i))))
	}
	must(t, os.Symlink("loop-b", filepath.Join(w.Dir(), "loop-a")))
	must(t, os.Symlink("loop-a", filepath.Join(w.Dir(), "loop-b")))
	cases := []struct {
		in, want string // want "": refused
	}{
		{"chain/1", "api/openapi.yaml"},
		{"chain/40", "api/openapi.yaml"},
		{"chain/41", ""},
		{"loop-a", ""},
		{"loop-a/openapi.yaml", ""},
	}
	for _, tc := range cases { // in order, and stopping at the first failure: a loop followed forever would hang the rest
		got, err := w.RealPath(tc.in)
		if tc.want != "" {
			if got != tc.want || err != nil {
				t.Fatalf("RealPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		var oe *OutsideError
		if err == nil || errors.As(err, &oe) || !strings.Contains(err.Error(), "too many symbolic links") {
			t.Fatalf("RealPath(%q) = %q, %v; want an error saying there are too many symbolic links", tc.in, got, err)
		}
	}
}
