package apidiff

import (
	"errors"
	"fmt"
	"github.com/docs-publish/docs-publish/internal/growthtest"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// treeBytes is what t holds, about.
func treeBytes(t *tree) int {
	return cap(t.nodes)*int(unsafe.Sizeof(tnode{})) + cap(t.kids)*int(unsafe.Sizeof(tkid{})) + cap(t.keys)
}

// denseShapes are schemas whose text is mostly values the tree holds a
// node or a member for, each of about n bytes; but the objects nested,
// 900 levels (12 kB), under the 1,000 a description may nest.
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
			tr := newTree(data, &doc{}, nil)
			if tr.parse(data, fields) < 0 {
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

// TestTreeReadsEveryUnit: every unit and document-level part of the
// descriptions of oasdiff's test data (the copy of a part of it) is read
// by the tree: what it did not read, the walk would refuse.
func TestTreeReadsEveryUnit(t *testing.T) {
	t.Parallel()
	n := 0
	err := filepath.WalkDir(filepath.Join("testdata", "oasdiff"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !slices.Contains([]string{".yaml", ".yml", ".json"}, filepath.Ext(p)) {
			return err
		}
		data := bundleFile(os.DirFS(filepath.Dir(p)), filepath.Base(p))
		if data == nil {
			return nil
		}
		data = compact(data)
		d, err := index(data)
		if err != nil {
			return nil // compared whole, or by the library alone
		}
		tr := newTree(data, d, map[unitKey]bool{})
		for k, raw := range d.units {
			if got := tr.unit(k); got < 0 && len(raw) > 2 && (raw[0] == '{' || raw[0] == '[') {
				t.Errorf("%s: %v not read", p, k)
			}
		}
		for key := range d.level {
			tr.part(key)
		}
		if tr.unread {
			t.Errorf("%s: read in part", p)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("%d descriptions read, want the copy of oasdiff's test data", n)
	}
}

// TestTreeFindsMembers: a member by its key, the last of a key written
// twice, in an object of a few members and in one of many (found by
// binary search), and a list's member by its place, its other members
// values the tree does not hold.
func TestTreeFindsMembers(t *testing.T) {
	t.Parallel()
	many := `{`
	for i := range 20 {
		many += fmt.Sprintf(`"m%02d":{"i":%d},`, i, i)
	}
	many += `"m05":{"i":99},"z":[1,{"i":7},"s",{"i":8}]}`
	few := `{"a":{"i":1},"b":{"i":2},"a":{"i":3}}`
	cases := []struct {
		doc  string
		path []string
		want string // the member's text, "" for none
	}{
		{few, []string{"a"}, `{"i":3}`},
		{few, []string{"b"}, `{"i":2}`},
		{few, []string{"c"}, ""},
		{many, []string{"m00"}, `{"i":0}`},
		{many, []string{"m19"}, `{"i":19}`},
		{many, []string{"m05"}, `{"i":99}`},
		{many, []string{"a"}, ""},
		{many, []string{"zz"}, ""},
		{many, []string{"z", "1"}, `{"i":7}`},
		{many, []string{"z", "3"}, `{"i":8}`},
		{many, []string{"z", "0"}, ""},
		{many, []string{"z", "2"}, ""},
		{many, []string{"z", "4"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.doc[:12]+"/"+strings.Join(tc.path, "/"), func(t *testing.T) {
			t.Parallel()
			data := []byte(tc.doc)
			tr := newTree(data, &doc{}, nil)
			got := tr.at(tr.parse(data, mapOfFields), tc.path)
			if tc.want == "" {
				if got >= 0 {
					t.Errorf("found node %d, want none", got)
				}
				return
			}
			if got < 0 {
				t.Fatalf("none found, want %s", tc.want)
			}
			want := newTree([]byte(tc.want), &doc{}, nil)
			if w := want.parse(want.data, fields); tr.nodes[got].sum != want.nodes[w].sum {
				t.Errorf("found another member than %s", tc.want)
			}
		})
	}
}

// TestWalkRefusesWhatItCannotRead: text whose units are not where the
// index found them (a copy of it) is not read by the tree, and the
// comparison is refused rather than weighed without them.
func TestWalkRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	base, head := compact(spec(1, growthtest.RefChain(3, "string"))), compact(spec(1, growthtest.RefChain(3, "integer")))
	b, h := indexBoth(t, base, head)
	if err := checkPairs(base, head, b, h, prune(b, h)); err != nil {
		t.Fatalf("the text the index read: %v", err)
	}
	if err := checkPairs(slices.Clone(base), slices.Clone(head), b, h, prune(b, h)); !errors.Is(err, errUnread) {
		t.Errorf("a copy of it: got %v, want errUnread", err)
	}
}
