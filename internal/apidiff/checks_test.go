package apidiff

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/oasdiff/oasdiff/checker"
)

// TestChecksAreMadeOnce: a comparison runs the library's checks made once,
// not checks made again each time it compares a part: here twice, for the
// changes and for their places, so that making them each time allocates
// twice what making them takes, where the rest of the comparison takes
// less than that. Not parallel: it counts what the process allocates.
func TestChecksAreMadeOnce(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "apidiff", "removed-operation")
	base, head := bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head"))
	compare := func() {
		if _, err := Compare(base, head); err != nil {
			t.Fatal(err)
		}
	}
	compare() // what is made once a process, as the walk's shapes
	making := allocated(func() { checker.NewConfig(checker.GetAllChecks()) })
	comparing := allocated(compare)
	t.Logf("making the checks: %d bytes; comparing: %d bytes", making, comparing)
	if comparing >= 2*making {
		t.Errorf("a comparison of one removed operation allocated %d bytes, want less than twice what making the checks takes, %d", comparing, 2*making)
	}
}

// allocated is how many bytes the process allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
