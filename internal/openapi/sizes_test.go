package openapi

import (
	"fmt"
	"strings"
	"testing"
)

// TestJSONSizes: the size the limits reckon for a value (jsonSize, and
// sizeUpTo below its bound) is its compact JSON's length plus one byte for
// each object or array that holds anything (the comma after its last
// member is counted), for text that JSON writes without escapes; sizeUpTo
// past its bound is some number over it. Every value of a document with
// each kind of value is checked, at every bound up to its size (around
// its size for a large one).
func TestJSONSizes(t *testing.T) {
	t.Parallel()
	var long strings.Builder
	for i := range packFrom + 3 {
		fmt.Fprintf(&long, "  - %d\n  - s%d\n", i, i)
	}
	doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n" +
		"x-kinds: {s: text, n: -1.5e3, b: true, z: null, e: {}, a: [], q: ['']}\n" +
		"x-nested: {a: [1, {b: [x, y, [z]]}], c: {d: {e: f}}}\n" +
		"x-long:\n" + long.String()
	root, err := Parse("sizes.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if !hasPacked(root) {
		t.Fatal("no packed list: the long list should be held packed")
	}
	var check func(n *Node, at string)
	check = func(n *Node, at string) {
		want := int64(len(n.AppendJSON(nil)) + filledContainers(n))
		if got := jsonSize(n, nil); got != want {
			t.Errorf("%s: jsonSize %d, want %d", at, got, want)
		}
		bounds := []int64{0, want - 2, want - 1, want, want + 1}
		if want < 300 {
			bounds = bounds[:0]
			for max := range want + 2 {
				bounds = append(bounds, max)
			}
		}
		for _, max := range bounds {
			got := sizeUpTo(n, max)
			if max >= want && got != want || max < want && got <= max {
				t.Errorf("%s (%d bytes): sizeUpTo(%d) = %d", at, want, max, got)
			}
		}
		for _, f := range n.Fields() {
			check(f.Value, at+"/"+f.Key)
		}
		for i, it := range n.Items() {
			check(it, fmt.Sprintf("%s/%d", at, i))
		}
	}
	check(root, "#")
}

// filledContainers counts the objects and arrays in n that hold anything.
func filledContainers(n *Node) int {
	c := 0
	if len(n.Fields()) > 0 || len(n.Items()) > 0 || n.packed {
		c++
	}
	if n.packed { // read from its text, leaving it packed
		var count func(s string) int
		count = func(s string) int {
			c := 0
			eachPacked(s, Pos{}, func(k Kind, lit string, _ Pos) bool {
				if (k == Array || k == Object) && lit != "" {
					c += 1 + count(lit)
				}
				return true
			})
			return c
		}
		c += count(n.Scalar())
	}
	for _, f := range n.Fields() {
		c += filledContainers(f.Value)
	}
	for _, it := range n.Items() {
		c += filledContainers(it)
	}
	return c
}
