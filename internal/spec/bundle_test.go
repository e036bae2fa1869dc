package spec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var bundleCases = []struct{ dir, main string }{
	{"swagger2", "swagger.yaml"},
	{"openapi3", "openapi.yaml"},
	{"circular", "openapi.yaml"},
	{"clash", "openapi.yaml"},
	{"openapi31", "openapi.yaml"},
}

func loadAndBundle(t *testing.T, path string) *Node {
	t.Helper()
	root, err := Load(path, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	out, err := Bundle(root, BundleOptions{Display: func(p string) string {
		rel, _ := filepath.Rel(dir, p)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBundleGolden compares each fixture's bundle with its golden file
// (go test ./internal/spec -update rewrites them).
func TestBundleGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range bundleCases {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "..", "testdata", "bundle", tc.dir)
			got := pretty(loadAndBundle(t, filepath.Join(dir, tc.main)).AppendJSON(nil))
			golden := filepath.Join(dir, "bundle.golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./internal/spec -update creates it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("bundle differs from %s (-want +got):\n%s", golden, diff)
			}
			// Same input, same output: every run.
			if again := pretty(loadAndBundle(t, filepath.Join(dir, tc.main)).AppendJSON(nil)); !bytes.Equal(again, got) {
				t.Error("a second bundle of the same input differs")
			}
		})
	}
}

func pretty(b []byte) []byte {
	var buf bytes.Buffer
	json.Indent(&buf, b, "", "  ")
	buf.WriteByte('\n')
	return buf.Bytes()
}

// TestBundleKeepsSharedComponentsShared: a component used from many places
// is one component, referenced from each; nothing external is left.
func TestBundleKeepsSharedComponentsShared(t *testing.T) {
	t.Parallel()
	out := string(loadAndBundle(t, "../../testdata/bundle/swagger2/swagger.yaml").AppendJSON(nil))
	for ref, uses := range map[string]int{
		`"$ref":"#/responses/Error"`:    4, // 3 operations, twice under GET /books
		`"$ref":"#/parameters/limit"`:   2,
		`"$ref":"#/parameters/offset"`:  2,
		`"$ref":"#/definitions/Error"`:  1,
		`"$ref":"#/definitions/Book"`:   2,
		`"$ref":"#/definitions/Author"`: 1,
	} {
		if n := strings.Count(out, ref); n != uses {
			t.Errorf("%s appears %d times, want %d", ref, n, uses)
		}
	}
	if strings.Count(out, `"error_message":{`) != 1 {
		t.Error("the error schema was copied instead of shared")
	}
	if strings.Contains(out, ".yml") {
		t.Error("a reference to another file is left in the bundle")
	}
}

// deref expands every reference below n, from the file n was read in, into
// a copy; a reference already being expanded becomes "<cycle>". It is the
// reference against which bundles are checked, written independently of the
// bundler: it knows nothing of components.
func deref(t *testing.T, n *Node, files map[string]*Node, stack map[string]bool) *Node {
	t.Helper()
	switch n.Kind {
	case Array:
		cp := &Node{Kind: Array}
		for _, it := range n.Items {
			cp.Items = append(cp.Items, deref(t, it, files, stack))
		}
		return cp
	case Object:
		if r := n.Get("$ref"); r != nil && r.Kind == String && !isRemote(r.Scalar) {
			file, pointer, _ := strings.Cut(r.Scalar, "#")
			pointer = strings.ReplaceAll(pointer, "%7B", "{")
			pointer = strings.ReplaceAll(pointer, "%7D", "}")
			path, _ := filepath.Abs(n.Src.Path)
			if file != "" {
				path = filepath.Join(filepath.Dir(path), file)
			}
			key := path + "#" + pointer
			if stack[key] {
				return &Node{Kind: String, Scalar: "<cycle>"}
			}
			root := files[path]
			if root == nil {
				var err error
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				root, err = parseAny(&Source{Name: path, Path: path}, data)
				if err != nil {
					t.Fatal(err)
				}
				files[path] = root
			}
			target, err := Resolve(root, pointer)
			if err != nil {
				t.Fatalf("%s: %v", r.Scalar, err)
			}
			stack[key] = true
			out := deref(t, target, files, stack)
			delete(stack, key)
			for _, f := range n.Fields {
				if f.Key != "$ref" && out.Kind == Object {
					out.Fields = append(out.Fields, Field{Key: f.Key, Value: deref(t, f.Value, files, stack)})
				}
			}
			return out
		}
		cp := &Node{Kind: Object}
		for _, f := range n.Fields {
			cp.Fields = append(cp.Fields, Field{Key: f.Key, Value: deref(t, f.Value, files, stack)})
		}
		return cp
	}
	return n
}

// checkSameOperations: the bundle with all references resolved has the same
// operations, parameters and responses as the source with all references
// resolved.
func checkSameOperations(t *testing.T, path string) {
	t.Helper()
	src, err := Load(path, path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	want := deref(t, src.Get("paths"), map[string]*Node{abs: src}, map[string]bool{})

	bundled := loadAndBundle(t, path)
	// The bundle is one document: resolve it against itself only.
	bundled.Src = &Source{Name: "bundle", Path: abs + ".bundle"}
	setSrc(bundled, bundled.Src)
	got := deref(t, bundled.Get("paths"), map[string]*Node{abs + ".bundle": bundled}, map[string]bool{})
	if a, b := string(want.AppendJSON(nil)), string(got.AppendJSON(nil)); a != b {
		t.Errorf("resolved paths differ:\nsource: %.2000s\nbundle: %.2000s", a, b)
	}
}

func setSrc(n *Node, s *Source) {
	n.Src = s
	for _, f := range n.Fields {
		setSrc(f.Value, s)
	}
	for _, it := range n.Items {
		setSrc(it, s)
	}
}

func TestBundleResolvesToTheSameOperations(t *testing.T) {
	t.Parallel()
	for _, tc := range bundleCases {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			checkSameOperations(t, filepath.Join("..", "..", "testdata", "bundle", tc.dir, tc.main))
		})
	}
	files, _ := filepath.Glob("../../testdata/specs/*")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			checkSameOperations(t, f)
		})
	}
}

func TestBundleErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"missing file", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: nope.yaml#/x\n"}, "openapi.yaml:6:17: $ref nope.yaml#/x: nope.yaml does not exist"},
		{"missing pointer", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: p.yaml#/limit\n", "p.yaml": "offset: {}\n"}, `p.yaml has no "limit"`},
		{"broken referenced file", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: p.yaml#/limit\n", "p.yaml": "limit: [\n"}, "p.yaml:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, content := range tc.files {
				os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
			}
			root, err := Load(filepath.Join(dir, "openapi.yaml"), "openapi.yaml")
			if err != nil {
				t.Fatal(err)
			}
			_, err = Bundle(root, BundleOptions{Display: func(p string) string { r, _ := filepath.Rel(dir, p); return r }})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
