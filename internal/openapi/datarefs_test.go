package openapi

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// TestBundleRefsAllResolve: every $ref in the bundle of each fixture, in
// data (enum, example, default, extensions) as anywhere else, resolves in
// the bundle itself: the service's resolver follows $ref wherever it
// appears, and one copied from another file unchanged would point at the
// bundle's root and lead nowhere.
func TestBundleRefsAllResolve(t *testing.T) {
	t.Parallel()
	for _, tc := range bundleCases {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			raw := loadAndBundle(t, filepath.Join("..", "..", "testdata", "bundle", tc.dir, tc.main)).AppendJSON(nil)
			var doc any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			n := 0
			eachRef(doc, func(ref string) {
				n++
				if isRemote(ref) {
					return
				}
				if !strings.HasPrefix(ref, "#") {
					t.Errorf("$ref %q names a file the bundle does not hold", ref)
					return
				}
				if _, ok := resolveJSON(doc, ref[1:]); !ok {
					t.Errorf("$ref %q does not resolve in the bundle", ref)
				}
			})
			if n == 0 && tc.dir == "data-refs" {
				t.Error("no $ref checked")
			}
		})
	}
}

// eachRef calls f with the text of every $ref in v, decoded JSON.
func eachRef(v any, f func(string)) {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok {
			f(r)
		}
		for _, c := range v {
			eachRef(c, f)
		}
	case []any:
		for _, c := range v {
			eachRef(c, f)
		}
	}
}

// resolveJSON follows a JSON pointer (RFC 6901, without the #) in v, by
// the standard's rules, independently of the package's own resolver.
func resolveJSON(v any, pointer string) (any, bool) {
	if pointer == "" {
		return v, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || tok != strconv.Itoa(i) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// TestBrokenDataRefsAreReported: a $ref in data that does not resolve is an
// error at its place, as one in a schema is, in the description itself and
// in the files it refers to.
func TestBrokenDataRefsAreReported(t *testing.T) {
	t.Parallel()
	main := "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n" +
		"          content:\n            application/json:\n              schema: {$ref: 's.yaml#/S'}\n              example: {$ref: '#/components/examples/none'}\n"
	s := "S:\n  type: string\n  enum:\n    - {$ref: '#/Kinds/none'}\n    - {$ref: 'k.yaml#/cat'}\n  default: {$ref: 'missing.yaml'}\n"
	_, err := Prepare(t.Context(), mapFS(map[string]string{"openapi.yaml": main, "s.yaml": s, "k.yaml": "dog: dog\n"}), "openapi.yaml", PrepareOptions{Bundle: true}, &discard{})
	want := []struct{ start, end string }{ // in the order the bundler meets them, each with what to do
		{"s.yaml:4:14: $ref #/Kinds/none does not resolve", ": fix the $ref, or add what it names to s.yaml"},
		{"s.yaml:5:14: $ref k.yaml#/cat does not resolve", ": fix the $ref, or add what it names to k.yaml"},
		{"s.yaml:6:19: $ref missing.yaml: missing.yaml does not exist", ": add the file, or fix the $ref (its path is read from the folder of the file that holds it)"},
		{"openapi.yaml:12:31: $ref #/components/examples/none in data does not resolve", ": fix the $ref, or add what it names"},
	}
	f, ok := err.(*Faults)
	if !ok || len(f.Load) != len(want) {
		t.Fatalf("error %v: want %d load errors", err, len(want))
	}
	for i, w := range want {
		if got := f.Load[i].Error(); !strings.HasPrefix(got, w.start) || !strings.HasSuffix(got, w.end) {
			t.Errorf("error %d = %q, want it to start %q and end %q", i, got, w.start, w.end)
		}
	}
}

// mapFS is a file system of the files given, by name.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	return fsys
}
