package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// collidingRefs is a description whose n properties each refer to a schema
// of c.yaml named "a" and punctuation: all their names clean to "a". The
// description defines a_2 itself, as a user may.
func collidingRefs(n int) fstest.MapFS {
	var main, other strings.Builder
	main.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    a_2: {type: integer}\n    S:\n      type: object\n      properties:\n")
	for i := range n {
		name := "a" + growthtest.Punct(i)
		fmt.Fprintf(&main, "        p%d: {$ref: 'c.yaml#/%s'}\n", i, name)
		fmt.Fprintf(&other, "'%s': {type: string}\n", name)
	}
	return fstest.MapFS{
		"openapi.yaml": &fstest.MapFile{Data: []byte(main.String())},
		"c.yaml":       &fstest.MapFile{Data: []byte(other.String())},
	}
}

// TestLiftedNamesNumberPastNamesInUse: names that clean to the same text
// are numbered in turn, and a number a defined component holds is skipped.
func TestLiftedNamesNumberPastNamesInUse(t *testing.T) {
	t.Parallel()
	root, err := loadBundle(t, collidingRefs(5), "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range root.Get("components").Get("schemas").Fields() {
		got = append(got, f.Key)
	}
	want := "a_2 S a c_a a_3 a_4 a_5"
	if strings.Join(got, " ") != want {
		t.Errorf("schemas %q, want %q", strings.Join(got, " "), want)
	}
	if typ := root.Get("components").Get("schemas").Get("a_2").Get("type"); typ == nil || typ.Scalar() != "integer" {
		t.Errorf("the defined a_2 was replaced: type %v", typ)
	}
}

// TestCollidingNamesCostLinear: n $refs whose names all clean to the same
// text cost allocations in proportion to n, prepared whole (loaded,
// bundled, validated, written): numbering each from _2 again made it n²,
// 191 s at 40,000. Not parallel: it counts allocations.
func TestCollidingNamesCostLinear(t *testing.T) {
	testenv.Long(t)
	prepare := preparer(t, false)
	growthtest.Linear(t, "colliding lifted names", 2000, func(n int) {
		p := prepare(collidingRefs(n), "openapi.yaml")
		defer p.Release()
		if got := len(p.Root.Get("components").Get("schemas").Fields()); got != n+2 {
			t.Fatalf("%d schemas, want %d", got, n+2)
		}
	})
}
