package openapi

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestOnePassReadsInBoundedMemory: the single pass over a JSON description
// of several megabytes that asks for no position (no finding, nothing kept
// but the few keys validation reads) lets go of what it has read as it goes:
// all it allocates is a small part of the file's size. Not parallel: other
// tests would count in the measure.
func TestOnePassReadsInBoundedMemory(t *testing.T) {
	testenv.Long(t) // reads megabytes
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-list":[`)
	for i := range 1_600_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`"abcdefgh"`)
	}
	b.WriteString("]}\n")
	size := b.Len()
	fsys := fstest.MapFS{"a.json": {Data: []byte(b.String())}}
	b.Reset()

	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := Prepare(context.Background(), fsys, "a.json", PrepareOptions{}, out)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if !p.OnePass {
		t.Fatal("the single pass did not do the work")
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d KB read, %d KB allocated", size>>10, allocated>>10)
	if allocated > uint64(size)/4 {
		t.Errorf("the pass over %d KB allocated %d KB, more than a quarter of the file", size>>10, allocated>>10)
	}
}
