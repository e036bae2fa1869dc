package openapi

import (
	"testing"
	"unsafe"
)

// TestNodeSize: a node is made for every value a description holds, so
// its size is what a tree costs a value: 40 bytes (it was 88 with a
// string and two slices).
func TestNodeSize(t *testing.T) {
	t.Parallel()
	if got := unsafe.Sizeof(Node{}); got > 40 {
		t.Errorf("a Node takes %d bytes, want at most 40", got)
	}
}

// TestNodeHoldsOneOfTextMembersElements: a node's text, members and
// elements share its one pointer: setting one drops the others, each
// reads back as set, and a list grown through the accessors keeps its
// room, so that appending a member at a time costs no copy each time.
func TestNodeHoldsOneOfTextMembersElements(t *testing.T) {
	t.Parallel()
	one, two := NewScalar(String, "one"), NewScalar(String, "two")
	cases := []struct {
		name                string
		set                 func(n *Node)
		scalar              string
		fields, items, room int
	}{
		{"text", func(n *Node) { n.SetScalar("text") }, "text", 0, 0, 0},
		{"members", func(n *Node) { n.SetFields(make([]Field, 1, 8)) }, "", 1, 0, 8},
		{"elements", func(n *Node) { n.SetItems(append(make([]*Node, 0, 4), one, two)) }, "", 0, 2, 4},
		{"members, then text", func(n *Node) { n.SetFields(make([]Field, 2)); n.SetScalar("t") }, "t", 0, 0, 0},
		{"text, then elements", func(n *Node) { n.SetScalar("t"); n.SetItems([]*Node{one}) }, "", 0, 1, 1},
		{"elements, then members", func(n *Node) { n.SetItems([]*Node{one}); n.SetFields([]Field{{Key: "k"}}) }, "", 1, 0, 1},
		{"no members", func(n *Node) { n.SetScalar("t"); n.SetFields(nil) }, "", 0, 0, 0},
		{"members appended one at a time", func(n *Node) {
			n.SetFields(make([]Field, 0, 16))
			for range 10 {
				n.SetFields(append(n.Fields(), Field{Key: "k", Value: one}))
			}
		}, "", 10, 0, 16},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := &Node{}
			tc.set(n)
			if got := n.Scalar(); got != tc.scalar {
				t.Errorf("Scalar() = %q, want %q", got, tc.scalar)
			}
			if got := len(n.Fields()); got != tc.fields {
				t.Errorf("%d fields, want %d", got, tc.fields)
			}
			if got := len(n.Items()); got != tc.items {
				t.Errorf("%d items, want %d", got, tc.items)
			}
			if got := cap(n.Fields()) + cap(n.Items()); got != tc.room {
				t.Errorf("room for %d, want %d", got, tc.room)
			}
		})
	}
	n := &Node{}
	n.SetItems([]*Node{one, two})
	if n.Items()[1] != two {
		t.Errorf("item 1 is not the node set")
	}
	n.Items()[1] = one // the slice is the node's own
	if n.Items()[1] != one {
		t.Errorf("an item changed through Items() did not change the node")
	}
}
