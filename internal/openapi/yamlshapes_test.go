package openapi

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// yamlShapes are the shapes of YAML a pull request can write many times
// over, as the benchmarks write them (BENCHMARKS.md, growth by shape): a
// description's top, head, n items, tail. peak bounds the live heap the
// prepared tree takes per byte of input more, between n and 4n items: the
// target, 10, where the shape reaches it; elsewhere the figure measured,
// with some room, over the target because each value is a node of 40
// bytes (a member 32 more) where the input spends a few bytes on it, and
// below what nodes of 88 bytes took (16, 45, 14, 37 and 22; the YAML
// library's tree took 38 to 90 here). Flow lists are held packed (see
// packFlow), and long block lists of scalars, packed lists and empty
// collections (see packableInBlock).
var yamlShapes = []struct {
	name       string
	head, tail string
	item       func(i int) string
	n          int
	peak       float64
}{
	{name: "flow list [1,1,…]", head: "x-list: [1", item: func(int) string { return ",1" }, tail: "]\n", n: 100_000, peak: 10},
	{name: "flow mapping {k0: 1, …}", head: "x-map: {k", item: func(i int) string { return fmt.Sprintf("%d: 1, k", i) }, tail: "end: 1}\n", n: 100_000, peak: 8.5},   // 8.0 measured; 9.1 to 10.7 before its members' slice was grown once (countMembers)
	{name: "nested flow collections [[1,[1,{a: 1}]],…]", head: "x-nest: [[0]", item: func(int) string { return ",[1,[1,{a: 1}]]" }, tail: "]\n", n: 10_000, peak: 8}, // 24 before it was held packed
	{name: "block mapping k0: 1", head: "x-map:\n", item: func(i int) string { return fmt.Sprintf("  k%d: 1\n", i) }, n: 100_000, peak: 8.5},                         // 7.5 measured; 8.9 to 10.8 before, as the flow mapping
	{name: "lines of - [1]", head: "x-list:\n", item: func(int) string { return "- [1]\n" }, n: 100_000, peak: 6},                                                    // 3.9 measured; 20 before its [1] was held packed, 11.5 before the list was
	// Nine levels: packDepth and one more, so that each line's list holds
	// eight packed ones: what the packing let go is handed out again.
	{name: "lines of - [[[[[[[[[1]]]]]]]]]", head: "x-list:\n", item: func(int) string { return "- [[[[[[[[[1]]]]]]]]]\n" }, n: 10_000, peak: 10},            // 35 before what packing lets go was handed out again
	{name: "flow list of lists nine deep", head: "x-list: [[0]", item: func(int) string { return ",[[[[[[[[[1]]]]]]]]]" }, tail: "]\n", n: 10_000, peak: 10}, // 37 before
	{name: "lines of - {}", head: "x-list:\n", item: func(int) string { return "- {}\n" }, n: 100_000, peak: 4},                                              // 1.3 to 1.7 measured; 12 before the list was held packed
	{name: "block scalars k0: >-", head: "x-map:\n", item: func(i int) string { return fmt.Sprintf("  k%d: >-\n    folded\n\n    text\n", i) }, n: 25_000, peak: 10},
	{name: "lines of - |", head: "x-list:\n", item: func(int) string { return "- |\n  x\n" }, n: 100_000, peak: 4}, // 1.6 to 2.1 measured; 9 to 11 before the list was held packed (a node of 40 bytes and its text for an item of 8)
}

// yamlShape writes shape s with n items.
func yamlShape(head, tail string, item func(int) string, n int) fstest.MapFS {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n" + head)
	for i := range n {
		b.WriteString(item(i))
	}
	b.WriteString(tail)
	return fstest.MapFS{"a.yaml": {Data: []byte(b.String())}}
}

// prepareYAML prepares a.yaml from fsys, bundled, into a temporary file.
func prepareYAML(t *testing.T, fsys fstest.MapFS) *Prepared {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	p, err := Prepare(context.Background(), fsys, "a.yaml", PrepareOptions{Bundle: true}, out)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestYAMLShapesGrowLinearly: preparing each shape at n and 4n items
// allocates about four times as much, in allocations and in bytes. Not
// parallel: it counts the heap.
func TestYAMLShapesGrowLinearly(t *testing.T) {
	testenv.Long(t) // prepares megabytes of YAML
	for _, s := range yamlShapes {
		growthtest.Linear(t, "YAML "+s.name, s.n, func(n int) {
			prepareYAML(t, yamlShape(s.head, s.tail, s.item, n)).Release()
		})
	}
}

// TestYAMLShapesInBoundedMemory: the tree prepared from each shape holds
// at most its bound of live heap per byte of input more, between n and
// 4n items (the YAML library's own tree took 30 to 125). Not parallel:
// it measures the heap.
func TestYAMLShapesInBoundedMemory(t *testing.T) {
	testenv.Long(t) // prepares megabytes of YAML
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	for _, s := range yamlShapes {
		var size [2]int
		var peak [2]uint64
		for i, n := range []int{s.n, s.n * growthtest.Factor} {
			fsys := yamlShape(s.head, s.tail, s.item, n)
			size[i] = len(fsys["a.yaml"].Data)
			peak[i] = growthtest.Peak(func() {
				prepareYAML(t, fsys).Release()
			})
		}
		perByte := (float64(peak[1]) - float64(peak[0])) / float64(size[1]-size[0])
		t.Logf("%s: %d KB: peak %d KB; %d KB: peak %d KB; %.1f bytes a byte between", s.name, size[0]>>10, peak[0]>>10, size[1]>>10, peak[1]>>10, perByte)
		if perByte > s.peak {
			t.Errorf("%s: %.1f bytes of memory a byte of input, want at most %g", s.name, perByte, s.peak)
		}
	}
}
