package openapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestInlinedRefInsideItsTargetRefused: a $ref inlined (here in an
// example, where no component section can hold it) whose target holds the
// $ref itself, through a part of a file inlined around it or through a
// file that part inlined, is refused at the $ref, as a $ref inlined inside
// the same target is: replaced by a copy of its target, which shares the
// target's members, it would hold itself, and every walk of the tree after
// (validating it, writing it) would go round for ever. A target that holds
// other $refs of the file is inlined.
func TestInlinedRefInsideItsTargetRefused(t *testing.T) {
	t.Parallel()
	const main = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-sample:\n  example: {$ref: 'a.yaml'}\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		file  string // where the refused $ref is; "" when none is
		line  int32
	}{
		{"a part of the file inlined around it", map[string]string{
			"a.yaml": "X:\n  items: [{$ref: '#/X'}]\n",
		}, "a.yaml", 2},
		{"through a file that part inlined", map[string]string{
			"a.yaml": "X:\n  items: [{$ref: 'b.yaml'}]\n",
			"b.yaml": "Y: {$ref: 'a.yaml#/X'}\n",
		}, "b.yaml", 1},
		{"another part of the file", map[string]string{
			"a.yaml": "X:\n  items: [{$ref: '#/Z'}]\nZ: {z: 1}\n",
		}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(main)}}
			for name, text := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			root, err := Load(context.Background(), fsys, "openapi.yaml", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Bundle(context.Background(), root, BundleOptions{FS: fsys})
			if tc.file == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := string(out.Get("x-sample").Get("example").AppendJSON(nil)); got != `{"X":{"items":[{"z":1}]},"Z":{"z":1}}` {
					t.Errorf("inlined as %s", got)
				}
				return
			}
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("bundled a tree that holds itself (error %v)", err)
			}
			if le.File != tc.file || le.Pos.Line != tc.line {
				t.Errorf("refused at %s:%d, want %s:%d: %v", le.File, le.Pos.Line, tc.file, tc.line, err)
			}
		})
	}
}

// TestComponentsFromAFileLiftedIntoCopies: with components given by a
// $ref to another file, a $ref in that file to the whole of it lifts the
// file into the schemas, which are then the main file's copy of that
// file's section: lifted into the file's own section, the target held the
// section, which held the target, and every walk after went round for
// ever. The bundle holds no node twice on one path, and the $ref is a
// local one to the lifted schema.
func TestComponentsFromAFileLiftedIntoCopies(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents: {$ref: 'comps.yaml'}\n")},
		"comps.yaml":   {Data: []byte("schemas: {A: {properties: {c: {$ref: '#'}}}}\n")},
	}
	root, err := Load(context.Background(), fsys, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Bundle(context.Background(), root, BundleOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if path := cycle(out); path != "" {
		t.Fatalf("the bundle holds itself: %s", path)
	}
	schemas := out.Get("components").Get("schemas")
	ref := schemas.Get("A").Get("properties").Get("c").Get("$ref").Scalar()
	if !strings.HasPrefix(ref, "#/components/schemas/") || schemas.Get(strings.TrimPrefix(ref, "#/components/schemas/")) == nil {
		t.Errorf("A's $ref is %q, not one to a lifted schema of %v", ref, schemas.Fields())
	}
}

// cycle is the path to a node that holds itself in the tree at n, or "".
func cycle(n *Node) string {
	on := map[*Node]bool{}
	var walk func(n *Node, at string) string
	walk = func(n *Node, at string) string {
		if on[n] {
			return at
		}
		on[n] = true
		defer delete(on, n)
		for _, f := range n.Fields() {
			if p := walk(f.Value, at+"/"+f.Key); p != "" {
				return p
			}
		}
		for i, it := range n.Items() {
			if p := walk(it, fmt.Sprint(at, "/", i)); p != "" {
				return p
			}
		}
		return ""
	}
	return walk(n, "#")
}
