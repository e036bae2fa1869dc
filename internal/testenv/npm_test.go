package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNPMFileFetchedByManyAtOnce: tests that fetch the same release into
// an empty cache at once each get the whole file, and leave no folder of
// their own behind.
func TestNPMFileFetchedByManyAtOnce(t *testing.T) {
	Network(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache) // where XDG_CACHE_HOME is not read
	want := make(chan string, 4)
	t.Run("group", func(t *testing.T) {
		for i := range cap(want) {
			t.Run(string(rune('a'+i)), func(t *testing.T) {
				t.Parallel()
				b, err := os.ReadFile(NPMFile(t, "is-number", "7.0.0", "index.js"))
				if err != nil {
					t.Fatal(err)
				}
				want <- string(b)
			})
		}
	})
	close(want)
	first := <-want
	if !strings.Contains(first, "module.exports") {
		t.Fatalf("index.js holds %q", first)
	}
	for got := range want {
		if got != first {
			t.Errorf("fetches at once read different files: %d and %d bytes", len(got), len(first))
		}
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "docs-publish-testdata", "is-number@7.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "package" {
			t.Errorf("fetches left %s behind", e.Name())
		}
	}
}
