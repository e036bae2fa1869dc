package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOnePassPlacesAcrossChunks: in a JSON description several times the
// size of what the single pass reads at once, with lines of every length,
// the findings it places past each read (a shared parameter of an unknown
// type in each part) are placed as the tree places them.
func TestOnePassPlacesAcrossChunks(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{},"parameters":{`)
	for p := range 7 {
		if p > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `"p%d":{"name":"n%d","in":"query","type":"strin","x-pad":[`, p, p)
		for i := range 400 + 37*p {
			if i > 0 {
				b.WriteString(",")
				if i%3 != 0 {
					b.WriteString("\n")
				}
			}
			fmt.Fprintf(&b, "%q", strings.Repeat("a", (i*7+p)%150))
		}
		b.WriteString("]}")
	}
	b.WriteString("}}\n")
	if b.Len() < 4*chunkSize {
		t.Fatalf("%d bytes: want at least four reads' worth", b.Len())
	}
	fsys := fstest.MapFS{"a.json": {Data: []byte(b.String())}}
	if !agree(t, fsys, "a.json", Limits{}) {
		t.Error("the single pass did not do the work")
	}
}

// TestOnePassAtItsBounds: a file exactly FileBytes long, a document exactly
// DocumentBytes as the limits reckon it, and one nested exactly as deep as
// Depth allows are within the limits for the single pass as for the tree:
// the pass does the work, and agrees. One byte or one level less, the pass
// leaves the document to the tree, which refuses it as a run does.
func TestOnePassAtItsBounds(t *testing.T) {
	t.Parallel()
	data := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x":[1,{"a":"b"},{"$ref":"#/info"}]}`
	root, err := Parse("a.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"a.json": {Data: []byte(data)}}
	depth := 1 // the least Depth the tree takes the document at
	for ; prepareWith(t, fsys, "a.json", PrepareOptions{Limits: Limits{Depth: depth}, TreeOnly: true}).err != ""; depth++ {
		if depth > 10 {
			t.Fatal("the tree refuses the document at every Depth up to 10")
		}
	}
	size := jsonSize(root, nil)
	for _, tc := range []struct {
		lim    Limits
		within bool
	}{
		{Limits{FileBytes: int64(len(data))}, true},
		{Limits{FileBytes: int64(len(data)) - 1}, false},
		{Limits{DocumentBytes: size}, true},
		{Limits{DocumentBytes: size - 1}, false},
		{Limits{Depth: depth}, true},
		{Limits{Depth: depth - 1}, false},
	} {
		if onePass := agree(t, fsys, "a.json", tc.lim); onePass != tc.within {
			t.Errorf("%+v: the single pass did the work: %v, want %v", tc.lim, onePass, tc.within)
		}
		if !tc.within && prepareWith(t, fsys, "a.json", PrepareOptions{Limits: tc.lim}).err == "" {
			t.Errorf("%+v: the document past the limit was taken", tc.lim)
		}
	}
}
