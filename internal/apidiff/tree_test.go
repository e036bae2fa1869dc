package apidiff

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// treeBytes is what t holds, about.
func treeBytes(t *tree) int {
	return cap(t.nodes)*int(unsafe.Sizeof(tnode{})) + cap(t.kids)*int(unsafe.Sizeof(tkid{})) + cap(t.keys)
}

// denseShapes are schemas whose text is mostly values the tree holds a
// node or a member for, each of about n bytes.
var denseShapes = []struct {
	name   string
	schema func(n int) string
}{
	{"branches of one property", func(n int) string {
		return `{"allOf":[` + strings.Repeat(`{"a":0},`, n/8) + `{}]}`
	}},
	{"branches of one empty key", func(n int) string {
		return `{"allOf":[` + strings.Repeat(`{"":0},`, n/7) + `{}]}`
	}},
	{"properties of one property", func(n int) string {
		var b strings.Builder
		b.WriteString(`{"properties":{`)
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, `"%d":{"":0},`, i)
		}
		b.WriteString(`"z":{}}}`)
		return b.String()
	}},
	{"arrays in branches", func(n int) string {
		return `{"allOf":[` + strings.Repeat(`[0],`, n/4) + `[]]}`
	}},
	{"an enum of objects", func(n int) string {
		return `{"enum":[` + strings.Repeat(`{"a":0},`, n/8) + `{}]}`
	}},
	{"objects nested", func(n int) string {
		d := min(n/8, 900)
		return strings.Repeat(`{"a":[{"b":0},`, d) + `{}` + strings.Repeat(`]}`, d)
	}},
}

// TestTreeHoldsAFewBytesAByte: the tree holds at most 9 bytes a byte of
// the text it reads, whatever the text's shape: it holds no member that
// is no object or array, and no object or array whose members can hold
// no schema (a list's lists, an enum's values, an empty one). The densest
// found, objects and lists nested by turns, holds 8.0, a third of it the
// room its slices grow into; GitHub's description 0.41, Stripe's 0.48, read whole.
func TestTreeHoldsAFewBytesAByte(t *testing.T) {
	t.Parallel()
	for _, tc := range denseShapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := []byte(tc.schema(1 << 20))
			tr := &tree{data: data, doc: &doc{}, byKey: map[int32][]int32{}, targets: map[string]int32{}}
			if tr.parse(data) < 0 {
				t.Fatal("not read")
			}
			perByte := float64(treeBytes(tr)) / float64(len(data))
			t.Logf("%.1f bytes a byte", perByte)
			if perByte > 9 {
				t.Errorf("the tree holds %.1f bytes a byte of its text, want at most 9", perByte)
			}
		})
	}
}
