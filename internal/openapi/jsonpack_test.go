package openapi

import (
	"context"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// jsonList is a JSON description whose x-list holds n copies of item, and
// which names another file, so that it is read into a tree.
func jsonList(n int, item string) fstest.MapFS {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"O":{"$ref":"other.json"}}},"x-list":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteString("]}\n")
	return fstest.MapFS{
		"a.json":     {Data: []byte(b.String())},
		"other.json": {Data: []byte(`{"type":"string"}`)},
	}
}

// TestJSONTreeListsInBoundedMemory: a long JSON list of scalars read into
// a tree (a description that names another file) is held packed, as a
// YAML one is: the tree's peak, prepared whole (loaded, bundled,
// validated, written), costs at most 10 bytes a byte of input more at four
// times the size (a node an item took 77). Not parallel: it measures the
// heap.
func TestJSONTreeListsInBoundedMemory(t *testing.T) {
	testenv.Long(t) // prepares lists of 400,000 items
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	for _, item := range []string{`1`, `"abcdefgh"`, `true`} {
		var size [2]int
		var peak [2]uint64
		for i, n := range []int{100_000, 100_000 * growthtest.Factor} {
			fsys := jsonList(n, item)
			size[i] = len(fsys["a.json"].Data)
			out, err := os.CreateTemp(t.TempDir(), "out")
			if err != nil {
				t.Fatal(err)
			}
			peak[i] = growthtest.Peak(func() {
				p, err := Prepare(context.Background(), fsys, "a.json", PrepareOptions{Bundle: true}, out)
				if err != nil {
					t.Fatal(err)
				}
				if p.OnePass {
					t.Fatal("the single pass did the work: the test wants the tree")
				}
				p.Release()
			})
			out.Close()
		}
		perByte := float64(peak[1]-peak[0]) / float64(size[1]-size[0])
		t.Logf("[%s,…]: %d KB: peak %d KB; %d KB: peak %d KB; %.1f bytes a byte between", item, size[0]>>10, peak[0]>>10, size[1]>>10, peak[1]>>10, perByte)
		if perByte > 10 {
			t.Errorf("[%s,…]: %.1f bytes of memory a byte of input, want at most 10", item, perByte)
		}
	}
}
