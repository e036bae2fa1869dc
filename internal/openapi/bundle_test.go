package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

var bundleCases = []struct{ dir, main string }{
	{"swagger2", "swagger.yaml"},
	{"openapi3", "openapi.yaml"},
	{"circular", "openapi.yaml"},
	{"clash", "openapi.yaml"},
	{"openapi31", "openapi.yaml"},
	{"openapi32", "openapi.yaml"},
	{"discriminator", "openapi.yaml"},
	{"components-ref", "openapi.yaml"},
	{"example-refs", "swagger.yaml"},
	{"text-refs", "openapi.yaml"},
	{"ref-rewrite", "swagger.yaml"},
	{"header-siblings", "swagger.yaml"},
	{"pct20", "openapi.yaml"},
	{"external-value", "openapi.yaml"},
	{"data-refs", "openapi.yaml"},
}

// loadAndBundle loads the description at file and bundles it, with the
// file's folder as the file system.
func loadAndBundle(t *testing.T, file string) *Node {
	t.Helper()
	fsys := os.DirFS(filepath.Dir(file))
	root, err := Load(context.Background(), fsys, filepath.Base(file), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Bundle(context.Background(), root, BundleOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBundleGolden compares each fixture's bundle with its golden file
// (go test ./internal/openapi -update rewrites them).
func TestBundleGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range bundleCases {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("..", "..", "testdata", "bundle", tc.dir)
			raw := loadAndBundle(t, filepath.Join(dir, tc.main)).AppendJSON(nil)
			if err := noDuplicateKeys(raw); err != nil {
				t.Errorf("the bundle is not JSON without duplicate keys: %v", err)
			}
			got := pretty(raw)
			golden := filepath.Join(dir, "bundle.golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./internal/openapi -update creates it)", err)
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

// noDuplicateKeys reads JSON as a strict reader does: an object that holds
// a key twice is an error.
func noDuplicateKeys(b []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(b)) // refuses duplicate names
	for {
		if _, err := dec.ReadToken(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
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

// checkSameDocument: the bundle with every reference expanded is its
// source with every reference expanded: the same operations, info, tags,
// extensions and components (see expandedComparison).
func checkSameDocument(t *testing.T, file string) {
	t.Helper()
	fsys, name := os.DirFS(filepath.Dir(file)), filepath.Base(file)
	src, err := Load(context.Background(), fsys, name, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	bundled := loadAndBundle(t, file)
	// The bundle is one document: resolve it against itself only.
	bundled.Src = &Source{Name: "bundle.json"}
	setSrc(bundled, bundled.Src)
	c := &expandedComparison{src: newDereferencer(t, fsys, src), bundle: newDereferencer(t, fstest.MapFS{}, bundled)}
	if outcome, reason := c.document(src, bundled, formatOf(src)); outcome != "exact" {
		t.Errorf("%s: %s", outcome, reason)
	}
}

func setSrc(n *Node, s *Source) {
	n.Src = s
	for _, f := range n.Fields() {
		setSrc(f.Value, s)
	}
	for _, it := range n.Items() {
		setSrc(it, s)
	}
}

func TestBundleExpandsToItsSource(t *testing.T) {
	t.Parallel()
	for _, tc := range bundleCases {
		t.Run(tc.dir, func(t *testing.T) {
			t.Parallel()
			checkSameDocument(t, filepath.Join("..", "..", "testdata", "bundle", tc.dir, tc.main))
		})
	}
	files, _ := filepath.Glob("../../testdata/specs/*")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			checkSameDocument(t, f)
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
		{"array index with a leading zero", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: p.yaml#/list/01\n", "p.yaml": "list: [{name: a}, {name: b}]\n"}, `p.yaml has no item "01"`},
		{"array index one past the end", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: p.yaml#/list/2\n", "p.yaml": "list: [{name: a}, {name: b}]\n"}, `p.yaml has no item "2"`},
		{"array index with a sign", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: p.yaml#/list/+1\n", "p.yaml": "list: [{name: a}, {name: b}]\n"}, `p.yaml has no item "+1"`},
		{"a cycle of files that are only $refs", map[string]string{"openapi.yaml": "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: a.yaml\n", "a.yaml": "$ref: b.yaml\n", "b.yaml": "$ref: a.yaml\n"}, "leads into a cycle of $refs that only refer to each other: a.yaml# → b.yaml# → a.yaml#"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, content := range tc.files {
				os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
			}
			fsys := os.DirFS(dir)
			root, err := Load(context.Background(), fsys, "openapi.yaml", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Bundle(context.Background(), root, BundleOptions{FS: fsys})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestSwagger2ExtensionsAreInlined: a Swagger 2.0 extension that is a bare
// $ref to another file is inlined where it stands, each time: the document
// root is not a components section.
func TestSwagger2ExtensionsAreInlined(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "openapi.yaml"), []byte("swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-a: {$ref: 'v.yaml#/v'}\nx-b: {$ref: 'v.yaml#/v'}\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "v.yaml"), []byte("v: {logo: x.png}\n"), 0o644))
	got := string(loadAndBundle(t, filepath.Join(dir, "openapi.yaml")).AppendJSON(nil))
	if want := `"x-a":{"logo":"x.png"},"x-b":{"logo":"x.png"}`; !strings.Contains(got, want) {
		t.Errorf("bundle %s, want %s", got, want)
	}
}

// TestLoadLimits: each limit, when hit, is an error naming the file, the
// line and the limit, with ErrLimit as its cause.
func TestLoadLimits(t *testing.T) {
	t.Parallel()
	deepJSON := `{"swagger":"2.0","x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`
	deepYAML := "swagger: \"2.0\"\nx: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n"
	aliases := "swagger: \"2.0\"\nx: &a \"" + strings.Repeat("a", 100) + "\"\ny: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
	inline := "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-1: {$ref: 'v.yaml#/v'}\nx-2: {$ref: 'v.yaml#/v'}\nx-3: {$ref: 'v.yaml#/v'}\n"
	cases := []struct {
		name  string
		files map[string]string
		lim   Limits
		want  string
	}{
		{"a file too large", map[string]string{"openapi.yaml": "swagger: \"2.0\"\n" + strings.Repeat("# pad\n", 100)}, Limits{FileBytes: 100}, "openapi.yaml: the file is 615 bytes, more than 100 bytes"},
		{"JSON nested too deep", map[string]string{"openapi.json": deepJSON}, Limits{Depth: 30}, "openapi.json:1:"},
		{"YAML nested too deep", map[string]string{"openapi.yaml": deepYAML}, Limits{Depth: 30}, "openapi.yaml:2:"},
		{"aliases over the bytes", map[string]string{"openapi.yaml": aliases}, Limits{ExpandedBytes: 1000}, "openapi.yaml:3:"},
		{"inlining over the bytes", map[string]string{"openapi.yaml": inline, "v.yaml": "v: \"" + strings.Repeat("b", 400) + "\"\n"}, Limits{ExpandedBytes: 1000}, "openapi.yaml:6:6: $refs inline more than 1000 bytes"},
		{"too many files", map[string]string{"openapi.yaml": inline + "x-4: {$ref: 'w.yaml#/v'}\n", "v.yaml": "v: 1\n", "w.yaml": "v: 2\n"}, Limits{Files: 2}, "openapi.yaml:7:13: $ref w.yaml#/v: the description refers to more than 2 files"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var main string
			for name, content := range tc.files {
				if strings.HasPrefix(name, "openapi") {
					main = name
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			fsys := os.DirFS(dir)
			root, err := Load(context.Background(), fsys, main, tc.lim)
			if err == nil {
				_, err = Bundle(context.Background(), root, BundleOptions{FS: fsys, Limits: tc.lim})
			}
			if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "limit") {
				t.Errorf("error %v, want ErrLimit saying %q", err, tc.want)
			}
		})
	}
}

// TestBundleReportsEveryBrokenRef: bundling goes on past a broken $ref and
// reports each, once, at its place; a file that cannot be parsed is reported
// once however many $refs lead to it.
func TestBundleReportsEveryBrokenRef(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc := "openapi: 3.0.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters:\n" +
		"        - $ref: 'bad.yaml#/p'\n        - $ref: 'bad.yaml#/q'\n        - $ref: 'nope.yaml#/p'\n        - $ref: 'ok.yaml#/none'\n" +
		"      responses: {'200': {description: ok}}\n"
	for name, content := range map[string]string{"openapi.yaml": doc, "bad.yaml": "p: [\n", "ok.yaml": "p: {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := os.DirFS(dir)
	root, err := Load(context.Background(), fsys, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Bundle(context.Background(), root, BundleOptions{FS: fsys})
	var les LoadErrors
	if !errors.As(err, &les) || len(les) != 3 {
		t.Fatalf("error %v: want 3 load errors", err)
	}
	want := []string{"bad.yaml:1:4: invalid YAML", "openapi.yaml:9:17: $ref nope.yaml#/p: nope.yaml does not exist", `openapi.yaml:10:17: $ref ok.yaml#/none does not resolve`}
	for i, w := range want {
		if !strings.HasPrefix(les[i].Error(), w) {
			t.Errorf("error %d = %q, want it to start %q", i, les[i], w)
		}
	}
}
