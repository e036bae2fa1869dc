package openapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestBundleDepthThroughRefs: with a $ref to another file, so that the
// bundler walks the description, nesting exactly at the bound is bundled
// and one level past it is refused.
func TestBundleDepthThroughRefs(t *testing.T) {
	t.Parallel()
	const bound = 20
	for _, depth := range []int{bound, bound + 1} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			t.Parallel()
			doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-other: {$ref: 'other.yaml#/v'}\nx: " + nested(depth-1, false, "1") + "\n"
			fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(doc)}, "other.yaml": {Data: []byte("v: 1\n")}}
			_, err := loadBundle(t, fsys, "openapi.yaml", Limits{Depth: 100, DepthAcrossFiles: bound})
			checkBound(t, err, depth <= bound, "nests deeper than 20 levels", fmt.Sprintf("nested %d levels, bound %d", depth, bound))
		})
	}
}

// TestBundleTotalBytes: the files the $refs lead to may together be
// exactly TotalBytes, not a byte more.
func TestBundleTotalBytes(t *testing.T) {
	t.Parallel()
	a, b := "v: "+strings.Repeat("a", 100)+"\n", "v: "+strings.Repeat("b", 50)+"\n"
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-a: {$ref: 'a.yaml#/v'}\nx-b: {$ref: 'b.yaml#/v'}\n")},
		"a.yaml":       {Data: []byte(a)},
		"b.yaml":       {Data: []byte(b)},
	}
	total := int64(len(a) + len(b))
	for _, lim := range []int64{total, total - 1} {
		_, err := loadBundle(t, fsys, "openapi.yaml", Limits{TotalBytes: lim})
		checkBound(t, err, lim >= total, "the description's files are more than", fmt.Sprintf("files of %d bytes, TotalBytes %d", total, lim))
	}
}

// TestBundleWalkStopsWhenCancelled: a cancelled bundling stops within its
// walk of a large description, before the fault it would find further on.
func TestBundleWalkStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	// JSON: the walk is the same, and a tree of 80,000 nodes reads from
	// JSON several times faster than from YAML.
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-many":{`)
	for i := range 40_000 { // 80,000 nodes: more than the walk visits between checks
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":{"a":1}`, i)
	}
	b.WriteString(`},"x-deep":` + nested(30, false, "1") + "}") // too deep: found last
	fsys := fstest.MapFS{"openapi.json": {Data: []byte(b.String())}}
	lim := Limits{DepthAcrossFiles: 20}
	root, err := Load(context.Background(), fsys, "openapi.json", lim)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Bundle(ctx, root, BundleOptions{FS: fsys, Limits: lim}); !errors.Is(err, context.Canceled) {
		t.Errorf("%v, want context.Canceled", err)
	}
}

// TestBundleParameterExamples: in OpenAPI 3 a parameter's and a header's
// examples are Example objects: one a $ref brings from another file is
// lifted into components/examples, not inlined.
func TestBundleParameterExamples(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get:
      parameters:
        - name: q
          in: query
          schema: {type: string}
          examples:
            one: {$ref: 'ex.yaml#/one'}
      responses:
        '200':
          description: ok
          headers:
            X-H:
              schema: {type: string}
              examples:
                two: {$ref: 'ex.yaml#/two'}
`)},
		"ex.yaml": {Data: []byte("one: {value: a}\ntwo: {value: b}\n")},
	}
	out, err := loadBundle(t, fsys, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.AppendJSON(nil))
	for _, want := range []string{`"one":{"$ref":"#/components/examples/one"}`, `"two":{"$ref":"#/components/examples/two"}`, `"examples":{"one":{"value":"a"},"two":{"value":"b"}}`} {
		if !strings.Contains(got, want) {
			t.Errorf("bundle %s\nwant %s", got, want)
		}
	}
}

// TestBundleDepthIntoLiftedTargets: nesting counts on into the target a
// $ref lifts from another file, whether a schema's $ref or a discriminator
// mapping names it: exactly at the bound it is bundled, one past refused.
func TestBundleDepthIntoLiftedTargets(t *testing.T) {
	t.Parallel()
	const bound = 20
	// fields is how deep the target's fields lie: x's value nested levels
	// below puts its innermost value at fields+levels.
	cases := []struct {
		name, schemas string
		fields        int
	}{
		// components/schemas/S is the target itself: its fields at 4.
		{"a component's $ref", "    S: {$ref: 'deep.yaml#/S'}\n", 4},
		// Lifted beside P, walked from where the $ref stood (5): its fields at 7.
		{"a property's $ref", "    P: {properties: {s: {$ref: 'deep.yaml#/S'}}}\n", 7},
		// Lifted, walked from the schema whose mapping names it (3): its fields at 5.
		{"a mapping", "    Pet:\n      type: object\n      discriminator: {propertyName: kind, mapping: {deep: 'deep.yaml#/S'}}\n", 5},
	}
	for _, tc := range cases {
		for _, depth := range []int{bound, bound + 1} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, depth), func(t *testing.T) {
				t.Parallel()
				fsys := fstest.MapFS{
					"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + tc.schemas)},
					"deep.yaml":    {Data: []byte("S: {x: " + nested(depth-tc.fields, false, "1") + "}\n")},
				}
				_, err := loadBundle(t, fsys, "openapi.yaml", Limits{Depth: 100, DepthAcrossFiles: bound})
				checkBound(t, err, depth <= bound, "nests deeper than 20 levels", fmt.Sprintf("nested %d levels across files, bound %d", depth, bound))
			})
		}
	}
}

// TestBundleInlinedBytes: what inlined $refs add may be exactly
// ExpandedBytes, counted as the JSON it becomes (with a comma after an
// object's last member), not a byte more: for a text, and for an object
// whose measure stops part way.
func TestBundleInlinedBytes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, value string
		size        int64
	}{
		{"a text", strings.Repeat("a", 100), 102},
		{"an object", "{a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1}", 2 + 8*6},
	}
	for _, tc := range cases {
		fsys := fstest.MapFS{
			"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-1: {$ref: 'v.yaml#/v'}\n")},
			"v.yaml":       {Data: []byte("v: " + tc.value + "\n")},
		}
		for _, lim := range []int64{tc.size, tc.size - 1} {
			_, err := loadBundle(t, fsys, "openapi.yaml", Limits{ExpandedBytes: lim})
			checkBound(t, err, lim >= tc.size, "$refs inline more than", fmt.Sprintf("%s of %d bytes inlined, ExpandedBytes %d", tc.name, tc.size, lim))
		}
	}
}
