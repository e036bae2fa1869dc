package openapi

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestManySmallFilesLoadInBoundedMemory: 20,000 one-line files, each named
// by a $ref, in YAML and in JSON, and 20,000 tiny ones (an empty object
// each, read as text), cost memory in proportion to their number,
// not a large block of nodes each (which came to 360 KB a file, 7 GB in
// all; a block of eight nodes for a file of three, 1 KB a file), nor
// records of the bundler's larger than their tree (a Go map from path to
// tree, a Source of its own and an entry of the targets lifted took some
// 150 bytes a file, a file and its line being 67). The heap held while the
// bundler still holds its records, which is the peak the collector's limit
// must give room for, the heap the bundled description holds, and all that
// loading it allocated, are measured. Not parallel: other tests would
// count in the measure.
func TestManySmallFilesLoadInBoundedMemory(t *testing.T) {
	testenv.Long(t) // loads 20,000 files
	const files = 20_000
	// A file and its line in the description are 67 bytes (YAML) or 58
	// (JSON). Held while bundling: 537 and 552 bytes, where 562 and 579
	// before each file's record was found by its position, a Source was
	// two words and a pointer and the tables' slots three quarters full
	// (652 and more before the bundler's records were cut; nodes cut from
	// one slab for all the files saved 5 more, see slab); held after: 523
	// and 540 (534 and 551: a file's record, which holds its Source,
	// outlives the bundler); allocated 1.47 and 1.89 KB (1.64 and 1.97).
	// A tiny file and its line are some 30 bytes; held: 357 while bundling,
	// 345 after, allocated 1.24 KB. What a file holds whatever its size
	// (its record, its nodes and members, its $ref's local text and its
	// name in the components) is then 12 bytes a byte of its text.
	cases := []struct {
		name                                           string
		shape                                          fileShape
		bundlingPerFile, heldPerFile, allocatedPerFile int64
	}{
		{"YAML", smallYAML, 539, 527, 1500},
		{"JSON", smallJSON, 556, 544, 2000},
		{"tiny", tiny, 361, 349, 1300},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys, main := tc.shape.files(files), tc.shape.main
			lim := Limits{Files: files + 1}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			root, err := Load(context.Background(), fsys, main, lim)
			var b *bundler
			if err == nil {
				root, b, err = bundle(context.Background(), root, BundleOptions{FS: fsys, Limits: lim})
			}
			if err != nil {
				t.Fatal(err)
			}
			bundling := heapHeld() - int64(before.HeapAlloc)
			runtime.KeepAlive(b)
			runtime.GC()
			runtime.ReadMemStats(&after)
			held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			allocated := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("%d files: %d KB held while bundling, %d KB held, %d KB allocated (%d and %d bytes held a file, %d allocated)", files, bundling>>10, held>>10, allocated>>10, bundling/files, held/files, allocated/files)
			runtime.KeepAlive(root)
			runtime.KeepAlive(fsys) // the files' text, held before: not counted, let go or not
			if got := len(root.Get("components").Get("schemas").Fields()); got != files+1 {
				t.Fatalf("%d schemas, want %d", got, files+1)
			}
			if bundling > files*tc.bundlingPerFile {
				t.Errorf("bundling holds %d KB, more than %d bytes a file", bundling>>10, tc.bundlingPerFile)
			}
			if held > files*tc.heldPerFile {
				t.Errorf("the loaded description holds %d KB, more than %d bytes a file", held>>10, tc.heldPerFile)
			}
			if allocated > files*tc.allocatedPerFile {
				t.Errorf("loading allocated %d KB, more than %d bytes a file", allocated>>10, tc.allocatedPerFile)
			}
		})
	}
}

// fileShape is a description whose properties each refer to a file of
// their own: its main file, its text before the properties and after
// them, the name of file i, the line that refers to it (given i and the
// name), the separator between two lines, and every file's text.
type fileShape struct {
	main, head, tail, name, line, sep, body string
}

const yamlHead = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    S:\n      type: object\n      properties:\n"

var (
	// smallYAML is one small schema a file.
	smallYAML = fileShape{main: "openapi.yaml", head: yamlHead, name: "f/%05d.yaml", line: "        p%d: {$ref: '%s'}\n", body: "{type: string, maxLength: 9}\n"}
	// smallJSON is smallYAML in JSON.
	smallJSON = fileShape{
		main: "openapi.json",
		head: `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"S":{"type":"object","properties":{`, tail: "}}}}}",
		name: "f/%05d.json", line: `"p%d":{"$ref":"%s"}`, sep: ",", body: `{"type":"string","maxLength":9}`,
	}
	// tiny is the least text a file and its line can be: an empty object
	// in a file whose name is a few letters without an extension, so that
	// it is read as text (BENCHMARKS.md §8, many tiny files).
	tiny = fileShape{main: "openapi.yaml", head: yamlHead, name: "f/%x", line: "        p%x: {$ref: %s}\n", body: "{}"}
)

// files is the description of n files of the shape.
func (sh fileShape) files(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	var main strings.Builder
	main.WriteString(sh.head)
	for i := range n {
		name := fmt.Sprintf(sh.name, i)
		if i > 0 {
			main.WriteString(sh.sep)
		}
		fmt.Fprintf(&main, sh.line, i, name)
		fsys[name] = &fstest.MapFile{Data: []byte(sh.body)}
	}
	main.WriteString(sh.tail)
	fsys[sh.main] = &fstest.MapFile{Data: []byte(main.String())}
	return fsys
}

// TestManySmallFilesCostLinear: n files, each named by a $ref and lifted
// into the components, cost allocations in proportion to n, prepared
// whole, in each shape of BENCHMARKS.md §8's many files. Not parallel: it
// counts allocations.
func TestManySmallFilesCostLinear(t *testing.T) {
	testenv.Long(t)
	prepare := preparer(t, false)
	for _, tc := range []struct {
		name  string
		shape fileShape
	}{
		{"small YAML files", smallYAML},
		{"small JSON files", smallJSON},
		{"tiny files", tiny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			growthtest.Linear(t, tc.name, 500, func(n int) {
				p := prepare(tc.shape.files(n), tc.shape.main)
				defer p.Release()
				if got := len(p.Root.Get("components").Get("schemas").Fields()); got != n+1 {
					t.Fatalf("%d schemas, want %d", got, n+1)
				}
			})
		})
	}
}

// TestFlowStyleYAMLFileParsedOnce: a small YAML file written in flow style
// ({type: string}), as many a file a $ref names is, is read as YAML
// without JSON's parser tried first, whose state and error cost more than
// the file's tree (19 allocations more than YAML's alone), nor checked
// whole as JSON (a syntax error built, two or three allocations): its
// first key, not quoted, says it is not JSON. JSON in a file not named
// .json, its first key quoted after any of JSON's white space, is still
// read as JSON alone, never by YAML first. Not parallel: it counts
// allocations.
func TestFlowStyleYAMLFileParsedOnce(t *testing.T) {
	cases := []struct {
		name, data string
		alone      func(*Source, []byte) (*Node, error) // the parse it costs no more than
		// slack: the check that the text is JSON allocates nothing, but
		// under the race detector, which empties sync.Pools at random, a
		// few (YAML read first costs some 35 more).
		slack float64
	}{
		{"flow-style YAML", "{type: string, maxLength: 9}\n", parseYAML, 0},
		{"flow-style YAML, spaces first", " \n{ type: string, maxLength: 9}\n", parseYAML, 0},
		{"JSON", `{"type":"string","maxLength":9}`, parseJSON, 4},
		{"JSON, white space before its first key", "{ \r\n\t\"type\": \"string\", \"maxLength\": 9}\n", parseJSON, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			parse := func(read func(*Source, []byte) (*Node, error)) float64 {
				t.Helper()
				return testing.AllocsPerRun(100, func() {
					if _, err := read(&Source{Name: "a.yaml", budget: newBudget(t.Context(), DefaultLimits)}, data); err != nil {
						t.Fatal(err)
					}
				})
			}
			alone, any := parse(tc.alone), parse(parseAny)
			if any > alone+tc.slack {
				t.Errorf("%q costs %v allocations, its parser's alone %v: want at most %v more", tc.data, any, alone, tc.slack)
			}
		})
	}
}
