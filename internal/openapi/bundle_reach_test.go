package openapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// nested is a flow value nested levels deep below where it is placed:
// mappings {"a": ...} or sequences [...] around inner.
func nested(levels int, arrays bool, inner string) string {
	open, close := `{"a":`, `}`
	if arrays {
		open, close = "[", "]"
	}
	return strings.Repeat(open, levels) + inner + strings.Repeat(close, levels)
}

// TestBundleDepthWithoutRefs: a description that refers to no file still
// meets the nesting bound counted across files, whether it nests through
// mappings, sequences, or a list of scalars (held packed): exactly at
// the bound it is bundled as it is, one level past it is refused at its
// place.
func TestBundleDepthWithoutRefs(t *testing.T) {
	t.Parallel()
	const bound = 20
	long := strings.TrimSuffix(strings.Repeat("s,", packFrom+4), ",") // packed: past packFrom plain scalars
	cases := []struct {
		name string
		// value is x's value, whose deepest value lies depth levels below the
		// root (x's value itself is at level 1).
		value  func(depth int) string
		packed bool
	}{
		{"mappings", func(d int) string { return nested(d-1, false, "1") }, false},
		{"sequences, packed below", func(d int) string { return nested(d-1, true, "1") }, true},
		{"sequences with a $ref at the bottom", func(d int) string { return nested(d-1, true, "{$ref: '#/info'}") }, false},
		{"sequences down to a mapping", func(d int) string { return nested(d-1, true, "{}") }, true},
		{"a packed list at the bottom", func(d int) string { return nested(d-2, false, "["+long+"]") }, true},
		{"a packed list in sequences", func(d int) string { return nested(d-2, true, "["+long+"]") }, true},
	}
	for _, tc := range cases {
		for _, depth := range []int{bound, bound + 1} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, depth), func(t *testing.T) {
				t.Parallel()
				// YAML, whose long lists are held packed.
				doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx: " + tc.value(depth) + "\n"
				fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(doc)}}
				lim := Limits{Depth: 100, DepthAcrossFiles: bound}
				root, err := Load(context.Background(), fsys, "openapi.yaml", lim)
				if err != nil {
					t.Fatal(err)
				}
				if hasPacked(root) != tc.packed {
					t.Fatalf("a packed list in the description: %v, want %v", !tc.packed, tc.packed)
				}
				out, err := Bundle(context.Background(), root, BundleOptions{FS: fsys, Limits: lim})
				if depth <= bound {
					if err != nil || out != root {
						t.Errorf("nested %d levels, bound %d: (%p, %v), want the description as it is", depth, bound, out, err)
					}
					return
				}
				if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "nests deeper than 20 levels") {
					t.Errorf("nested %d levels, bound %d: %v, want ErrLimit, nests deeper than 20 levels", depth, bound, err)
				}
			})
		}
	}
}

// hasPacked reports whether a packed Array lies in n.
func hasPacked(n *Node) bool {
	if n.packed {
		return true
	}
	for _, f := range n.Fields() {
		if hasPacked(f.Value) {
			return true
		}
	}
	return slices.ContainsFunc(n.Items(), hasPacked)
}

// TestBundleKeepsLoadsLimits: a description Load read is bundled within the
// limits Load was given, and what its files spent of them, even when
// Bundle is given none.
func TestBundleKeepsLoadsLimits(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n" +
			"x-1: {$ref: 'a.yaml#/v'}\nx-2: {$ref: 'b.yaml#/v'}\n")},
		"a.yaml": {Data: []byte("v: 1\n")},
		"b.yaml": {Data: []byte("v: 2\n")},
	}
	root, err := Load(context.Background(), fsys, "openapi.yaml", Limits{Files: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Bundle(context.Background(), root, BundleOptions{FS: fsys})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than 2 files") {
		t.Errorf("%v, want ErrLimit: the description refers to more than 2 files (Load's limit)", err)
	}
}

// TestBundleFollowsAMappingAlone: a discriminator mapping that names a file
// is bundled even where no $ref names one: the mapping ends local, and the
// file's schema is among the components.
func TestBundleFollowsAMappingAlone(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Pet:
      type: object
      discriminator:
        propertyName: kind
        mapping:
          dog: ./Dog.yaml
`)},
		"Dog.yaml": {Data: []byte("type: object\nproperties: {bark: {type: string}}\n")},
	}
	out, err := loadBundle(t, fsys, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.AppendJSON(nil))
	if strings.Contains(got, "Dog.yaml") || !strings.Contains(got, `"bark"`) {
		t.Errorf("bundle %s: want the mapping made local and Dog.yaml's schema in it", got)
	}
}

// TestBundleBrokenRefsListed: every broken $ref is reported at its place,
// the first named and the rest counted; past maxLoadErrors the first
// hundred are reported, not the one that came after them alone.
func TestBundleBrokenRefsListed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		broken, listed int
		more           string
	}{
		{1, 1, ""},
		{3, 3, " (and 2 more)"},
		{maxLoadErrors, maxLoadErrors, " (and 99 more)"},
		{maxLoadErrors + 50, maxLoadErrors, " (and 99 more)"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.broken), func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n")
			for i := range tc.broken {
				fmt.Fprintf(&b, "x-%d: {$ref: 'missing%d.yaml#/v'}\n", i, i)
			}
			fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(b.String())}}
			_, err := loadBundle(t, fsys, "openapi.yaml", DefaultLimits)
			var les LoadErrors
			if !errors.As(err, &les) || len(les) != tc.listed {
				t.Fatalf("%T %v: want %d load errors", err, err, tc.listed)
			}
			first := "openapi.yaml:4:13: $ref missing0.yaml#/v: missing0.yaml does not exist: add the file, or fix the $ref (its path is read from the folder of the file that holds it)"
			if got := err.Error(); got != first+tc.more {
				t.Errorf("error %q, want %q", got, first+tc.more)
			}
			if last := les[len(les)-1]; int(last.Pos.Line) != 3+tc.listed {
				t.Errorf("the last error at line %d, want %d: the first %d in order", last.Pos.Line, 3+tc.listed, tc.listed)
			}
		})
	}
}
