package apidiff

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// sameAsTheLibrary fails t unless readDirect gives for data what
// kin-openapi's loader gives: the same values, refs resolved alike, every
// unexported field too; or the same error. The walk itself reads data,
// unless left, where the library must.
func sameAsTheLibrary(t *testing.T, name string, data []byte, left bool) {
	t.Helper()
	want, wantErr := newLoader(false).LoadFromData(data)
	got, err := readDirect(data, newLoader(false))
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Errorf("%s: error %v, the library's %v", name, err, wantErr)
		return
	}
	if wantErr != nil {
		return
	}
	_, err = decodeDirect(data)
	if left && !errors.Is(err, errNotDirect) {
		t.Errorf("%s: read by the walk (%v), where encoding/json's rules want the library", name, err)
		return
	}
	if !left && err != nil {
		// Read by the library in the walk's place.
		t.Errorf("%s: the walk gave up on a text the library reads: %v", name, err)
		return
	}
	if reflect.DeepEqual(got, want) {
		return
	}
	// Where they differ; cmp stops at a cycle, so DeepEqual says whether.
	d := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true }))
	if len(d) > 4000 {
		d = d[:4000]
	}
	t.Errorf("%s: read directly, not as the library reads it (-library +direct):\n%s", name, d)
}

// descriptionsIn are the descriptions under dir, bundled as a run bundles
// them, by name; those that do not bundle are left out.
func descriptionsIn(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := path.Ext(p); e.IsDir() || ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil
		}
		if data := bundleFile(os.DirFS(filepath.Dir(p)), filepath.Base(p)); data != nil {
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// asCompared are data's texts as the comparison gives them to the library:
// whole, and as a part holding every unit.
func asCompared(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{"whole": data}
	d, err := index(compact(data))
	if err != nil {
		return out
	}
	keep := map[unitKey]bool{}
	for k := range d.units {
		keep[k] = true
	}
	d.verbatim = verbatimUnits(closure(keep, d), d)
	text, _, err := d.text(keep, nil, false)
	if err == nil {
		out["lean"] = text
	}
	return out
}

// TestReadDirectAsTheLibrary: on every description of the project's test
// data, whole and as the comparison gives it, the direct reading equals
// kin-openapi's own.
func TestReadDirectAsTheLibrary(t *testing.T) {
	t.Parallel()
	readAlike(t, 50, testDataDirs...)
}

// testDataDirs hold the project's test descriptions. This package's copies
// of oasdiff's (testdata/oasdiff) are among oasdiff's own test data, which
// the long tests read.
var testDataDirs = []string{filepath.Join("..", "..", "testdata", "apidiff"), filepath.Join("..", "..", "testdata", "specs")}

// TestReadDirectAsTheLibraryOnOasdiffData: the same on oasdiff's own test
// data, some 1,500 texts: a long test, for the walk shares no memory
// across goroutines and -race makes it four minutes of CPU.
func TestReadDirectAsTheLibraryOnOasdiffData(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	readAlike(t, 1000, oasdiffData(t))
}

// readAlike compares the direct reading with the library's on every
// description in dirs, whole and as the comparison gives it: at least
// want texts.
func readAlike(t *testing.T, want int, dirs ...string) {
	t.Helper()
	alike(t, "read", want, dirs, func(name string, data []byte) int {
		n := 0
		for how, text := range asCompared(t, data) {
			sameAsTheLibrary(t, fmt.Sprintf("%s (%s)", name, how), text, false)
			n++
		}
		return n
	})
}

// alike runs compare on every description in dirs, by name, until a test
// fails (each difference is slow to show), and checks that it compared
// at least want texts, which compare counts.
func alike(t *testing.T, what string, want int, dirs []string, compare func(name string, data []byte) int) {
	t.Helper()
	n := 0
	for _, dir := range dirs {
		docs := descriptionsIn(t, dir)
		for _, name := range slices.Sorted(maps.Keys(docs)) {
			if t.Failed() {
				return
			}
			n += compare(name, docs[name])
		}
	}
	if n < want {
		t.Errorf("%d texts compared, want at least %d: the test data is missing", n, want)
	}
	t.Logf("%d texts %s alike", n, what)
}

// TestReadDirectAsTheLibraryOnReleases: the same on real releases: the
// releases of the sample pairs but GitHub's 17.0.0, every release in the
// full sweep.
func TestReadDirectAsTheLibraryOnReleases(t *testing.T) {
	testenv.Long(t) // megabytes of JSON, read twice each (ten minutes under -race)
	testenv.Network(t)
	eachRelease(t, func(t *testing.T, name string, data []byte) {
		if directSweepOnly[name] {
			testenv.Sweep(t)
		}
		for how, text := range asCompared(t, data) {
			sameAsTheLibrary(t, how, text, false)
		}
	})
}

// directSweepOnly are the releases of the sample pairs that only the full
// sweep reads directly. Of GitHub's, CI reads 18.0.0 alone: 17.0.0 (9 of
// the test's 21 CPU-seconds) reached no statement of this package that
// 18.0.0 and the small releases do not reach (measured with
// -coverprofile), and the path it holds twice, which is why its pair is in
// the sample, never reaches the reading: asOasdiffReads keeps the last copy.
var directSweepOnly = map[string]bool{"@octokit/openapi@17.0.0": true}

// TestReadDirectAsTheLibraryOnEdges: texts that test data seldom holds
// are read as the library reads them.
func TestReadDirectAsTheLibraryOnEdges(t *testing.T) {
	t.Parallel()
	const head = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},`
	op := func(schema string) string {
		return head + `"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":` + schema + `}}}}}}}}`
	}
	cases := []struct {
		name, text string
		left       bool // to the library
	}{
		{"nested schemas", op(`{"type":"object","properties":{"p":{"type":"array","items":{"type":"string","enum":["x"]}}}}`), false},
		{"a field written twice, the last a value the library reads", op(`{"items":{"type":"string"},"items":null}`), true},
		{"a field written twice, both built", op(`{"items":{"type":"string"},"items":{"type":"integer"}}`), true},
		{"a map written twice", op(`{"properties":{"a":{"type":"string"}},"properties":{"b":{"type":"integer"}}}`), true},
		{"a $ref written over a value", op(`{"items":{"type":"string"},"items":{"$ref":"#/components/schemas/A"}}`), true},
		{"a field written again in another case", op(`{"properties":{"a":{"type":"string"}},"Properties":{"b":{"type":"integer"}}}`), true},
		{"a field written in another case, then as it is", op(`{"Properties":{"b":{"type":"integer"}},"properties":{"a":{"type":"string"}}}`), true},
		{"a path written twice", head + `"paths":{"/a":{"get":{"responses":{}}},"/a":{"put":{"responses":{}}}}}`, false},
		{"a path written twice, the last null", head + `"paths":{"/a":{"get":{"responses":{}}},"/a":null}}`, false},
		{"extensions of paths and responses", head + `"paths":{"x-p":{"a":[1,{"b":2}]},"/a":{"get":{"responses":{"x-r":{"c":1},"200":{"description":"ok"}}}}}}`, false},
		{"a $ref with siblings", head + `"paths":{},"components":{"schemas":{"A":{"$ref":"#/components/schemas/B","nullable":true,"properties":{"c":{"type":"string"}},"x-e":1},"B":{"type":"object"}}}}`, false},
		{"boolean schemas", op(`{"type":"object","additionalProperties":false,"properties":{"a":true,"b":{"additionalProperties":{"type":"string"}},"c":{"additionalProperties":{}}}}`), false},
		{"null responses", head + `"paths":{"/a":{"get":{"responses":null}}}}`, false},
		{"callbacks, by $ref and inline", head + `"paths":{"/a":{"post":{"responses":{},"callbacks":{"c":{"$ref":"#/components/callbacks/c"},"d":{"{$url}":{"post":{"responses":{}}}}}}}},"components":{"callbacks":{"c":{"{$url}":{"post":{"responses":{}}},"x-c":true}}}}`, false},
		{"webhooks and headers", head + `"paths":{},"webhooks":{"w":{"post":{"responses":{"200":{"description":"ok","headers":{"H":{"schema":{"type":"string"}}}}}}}}}`, false},
		{"a value of the wrong kind", op(`{"properties":[{"type":"string"}]}`), false},
		{"a list where one value goes", op(`{"items":[{"type":"string"}]}`), false},
		{"escaped names", op(`{"\u0070roperties":{"a":{"type":"string"}}}`), false},
		{"a $ref in another case", head + `"paths":{},"components":{"schemas":{"A":{"$REF":"#/components/schemas/B","description":"d"},"B":{"type":"string"}}}}`, false},
		{"a $ref after a value built", head + `"paths":{},"components":{"schemas":{"A":{"items":{"type":"string"},"$ref":"#/components/schemas/B"},"B":{"type":"string"}}}}`, true},
		{"a path written twice, an extension between", head + `"paths":{"/a":{"get":{"responses":{}}},"x-a":1,"/b":{},"/a":{"put":{"responses":{}}}}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sameAsTheLibrary(t, tc.name, []byte(tc.text), tc.left)
		})
	}
}

// TestWalkedFieldsAreNoExtensions: no field the walk builds is one the
// library keeps among an object's extensions too, where the walk would
// leave the empty value it gave the library in its place.
func TestWalkedFieldsAreNoExtensions(t *testing.T) {
	t.Parallel()
	n := 0
	for typ, h := range objectTypes {
		if h != object {
			continue
		}
		s := shapeOf(typ)
		for _, name := range s.names {
			stub := "{}"
			if s.fields[name].typ.Kind() == reflect.Slice {
				stub = "[]"
			}
			p := reflect.New(typ.Elem())
			if err := json.Unmarshal([]byte(`{"`+name+`":`+stub+`}`), p.Interface()); err != nil {
				t.Errorf("%s.%s: %v", typ, name, err)
				continue
			}
			n++
			if e := p.Elem().FieldByName("Extensions"); e.IsValid() && e.Len() > 0 {
				t.Errorf("%s keeps %s among its extensions: %v", typ, name, e.Interface())
			}
		}
	}
	if n < 40 {
		t.Errorf("%d fields the walk builds: the walk knows too few types", n)
	}
}

// TestRefAfterBuiltValuesCostsAsTheLibrary: a chain of schemas, each with
// its $ref written after the next, costs the walk about what it costs the
// library (which stops at the outermost $ref), where building each level
// before finding its $ref, and the library reading it again, cost the
// cube of the depth (400 levels, 23 kB: 91 s). Not parallel: it counts
// allocations.
func TestRefAfterBuiltValuesCostsAsTheLibrary(t *testing.T) {
	schema := `{"type":"string"}`
	for range 60 {
		schema = `{"type":"array","items":` + schema + `,"$ref":"#/components/schemas/B"}`
	}
	data := []byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":` + schema + `,"B":{"type":"string"}}}}`)
	library := testing.AllocsPerRun(1, func() {
		if _, err := newLoader(false).LoadFromData(data); err != nil {
			t.Fatal(err)
		}
	})
	walk := testing.AllocsPerRun(1, func() {
		if _, err := readDirect(data, newLoader(false)); err != nil {
			t.Fatal(err)
		}
	})
	if walk > 2*library {
		t.Errorf("the walk made %.0f allocations, the library %.0f: want at most twice", walk, library)
	}
}
