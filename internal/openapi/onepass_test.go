package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// prepared is what one way of preparing a description gave.
type prepared struct {
	body     []byte
	findings []Finding
	err      string
	onePass  bool
	root     *Node
}

// prepareWith runs Prepare into a file, as a run does.
func prepareWith(t *testing.T, fsys iofs.FS, name string, opts PrepareOptions) prepared {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	p, err := Prepare(context.Background(), fsys, name, opts, out)
	if err != nil {
		return prepared{err: err.Error()}
	}
	defer p.Release()
	body, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(body)) != p.Size {
		t.Errorf("%s: Prepare says it wrote %d bytes, the file holds %d", name, p.Size, len(body))
	}
	return prepared{body: body, findings: p.Findings, onePass: p.OnePass, root: p.Root}
}

// agree prepares a description through the tree and as a run would, with
// and without bundling, and reports any difference: the upload byte for
// byte, the findings (order, places, messages), the error, and where each
// operation's method is written. It returns whether the single pass did the
// work.
func agree(t *testing.T, fsys iofs.FS, name string, lim Limits) bool {
	t.Helper()
	onePass := false
	for _, bundle := range []bool{true, false} {
		tree := prepareWith(t, fsys, name, PrepareOptions{Bundle: bundle, Limits: lim, TreeOnly: true})
		run := prepareWith(t, fsys, name, PrepareOptions{Bundle: bundle, Limits: lim})
		onePass = onePass || run.onePass
		if tree.err != run.err {
			t.Errorf("%s (bundle %v): error\n%s\nthrough the tree, but\n%s", name, bundle, tree.err, run.err)
			continue
		}
		if !bytes.Equal(tree.body, run.body) {
			t.Errorf("%s (bundle %v, one pass %v): the upload differs from the tree's: %s", name, bundle, run.onePass, firstByteDiff(tree.body, run.body))
		}
		if d := cmp.Diff(tree.findings, run.findings); d != "" {
			t.Errorf("%s (bundle %v, one pass %v): findings differ (-tree +run):\n%s", name, bundle, run.onePass, d)
		}
		if run.onePass {
			// Read again, as validation would find it: validation
			// unpacks what it reads.
			_, root, _, err := passKept(context.Background(), fsys, name, lim.withDefaults(), io.Discard, nil)
			if err != nil {
				t.Fatalf("%s: the single pass, read again: %v", name, err)
			}
			if at := packedIn(root); at != nil {
				t.Errorf("%s: the single pass kept a packed list, at %v: validation reads what the pass kept on two goroutines at once (validateKept), and reading a packed list unpacks it", name, at.Pos)
			}
		}
		if tree.root != nil {
			if d := cmp.Diff(operationPlaces(tree.root, tree.root), operationPlaces(tree.root, run.root)); d != "" {
				t.Errorf("%s (bundle %v, one pass %v): operations' places differ (-tree +run):\n%s", name, bundle, run.onePass, d)
			}
		}
	}
	return onePass
}

// packedIn is the first packed list in n, or nil.
func packedIn(n *Node) *Node {
	if n == nil || n.packed {
		return n
	}
	for _, f := range n.Fields() {
		if p := packedIn(f.Value); p != nil {
			return p
		}
	}
	for _, it := range n.Items() {
		if p := packedIn(it); p != nil {
			return p
		}
	}
	return nil
}

// operationPlaces is where Operation finds each method of whole's paths in
// doc: the methods a comparison may name.
func operationPlaces(whole, doc *Node) []string {
	var out []string
	for _, pf := range fieldsOf(whole.Get("paths")) {
		item := (&validator{root: whole, ix: index{}}).deref(pf.Value)
		var ms []string
		for _, f := range fieldsOf(item) {
			if slices.Contains(methods, f.Key) || f.Key == "query" {
				ms = append(ms, f.Key)
			}
		}
		for _, f := range fieldsOf(item.Get("additionalOperations")) {
			ms = append(ms, f.Key)
		}
		for _, m := range ms {
			op := Operation(doc, pf.Key, m)
			if op == nil {
				out = append(out, pf.Key+" "+m+": none")
				continue
			}
			out = append(out, pf.Key+" "+m+": "+op.Value.Src.Name+":"+op.KeyPos.String())
		}
	}
	return out
}

func firstByteDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	return "at byte " + strconv.Itoa(i) + ": tree …" + string(a[lo:min(len(a), i+40)]) + "… run …" + string(b[lo:min(len(b), i+40)]) + "…"
}

// fieldsOf is an Object's members, or none.
func fieldsOf(n *Node) []Field {
	if n == nil || n.Kind != Object {
		return nil
	}
	return n.Fields()
}

// TestOnePassAgreesOnTestdata: every description and file under testdata/
// comes out of a run as it comes out of the tree, and the single pass does
// the work for the JSON descriptions that name no other file.
func TestOnePassAgreesOnTestdata(t *testing.T) {
	testenv.Long(t) // a sweep over every file under testdata
	t.Parallel()
	fsys := os.DirFS("../../testdata")
	var names []string
	iofs.WalkDir(fsys, ".", func(p string, d iofs.DirEntry, err error) error {
		switch path.Ext(p) {
		case ".json", ".yaml", ".yml":
			names = append(names, p)
		}
		return err
	})
	if len(names) < 50 {
		t.Fatalf("found %d files under testdata, want the fixtures", len(names))
	}
	var onePass atomic.Int32
	t.Run("files", func(t *testing.T) {
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				if agree(t, fsys, name, Limits{}) {
					onePass.Add(1)
				}
			})
		}
	})
	if onePass.Load() < 10 {
		t.Errorf("the single pass did the work for %d files, want the single-file JSON descriptions", onePass.Load())
	}
}

// TestOnePassAgreesOnEdges: inputs at the edges of what the single pass
// decides, each written as JSON: the same upload, findings and errors as
// the tree's, and the pass does the work only where it can tell.
func TestOnePassAgreesOnEdges(t *testing.T) {
	t.Parallel()
	const ok = `"info":{"title":"t","version":"1"},"paths":{}`
	// params are n parameters q0… in "in", past the sixteen an operation's
	// parameters are looked through rather than indexed, each after a comma.
	params := func(n int, in, schema string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `,{"name":"q%d","in":%q,%s}`, i, in, schema)
		}
		return b.String()
	}
	const str3, str2 = `"schema":{"type":"string"}`, `"type":"string"`
	manyParams3 := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{` +
		`"/x/{id}":{"parameters":[{"name":"p","in":"path","required":true,` + str3 + `}` + params(18, "query", str3) + `,{"name":"q1","in":"cookie",` + str3 + `}],` +
		`"get":{"parameters":[{"name":"id","in":"path","required":true,` + str3 + `}` + params(20, "query", str3) + `,{"name":"q3","in":"query",` + str3 + `},{"name":"q3","in":"header",` + str3 + `},{"name":"other","in":"path","required":true,` + str3 + `},` +
		`{"$ref":"#/components/parameters/a~1b"},{"$ref":"#/components/parameters/a~0c"},{"$ref":"#/components/parameters/a%7Ed"},{"$ref":"#/components/parameters/missing~1x"},{"$ref":"#/components/parameters/a%2Fb"}],` +
		`"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/No%20pe"}}}}}},` +
		`"post":{"parameters":[{"name":"p","in":"path","required":true,` + str3 + `},{"name":"q1","in":"query",` + str3 + `}],"responses":{"200":{"description":"ok"}}}},` +
		`"/y":{"get":{"parameters":[{"name":"p","in":"path","required":true,` + str3 + `},{"name":"p","in":"path","required":true,` + str3 + `}],"responses":{"200":{"description":"ok"}}}},"/z/{a}":{"$ref":"#/paths/~1y"}},` +
		`"components":{"parameters":{"a/b":{"name":"ab","in":"query",` + str3 + `},"a~c":{"name":"ac","in":"query",` + str3 + `},"a~d":{"name":"ab","in":"query",` + str3 + `},"unused":{"name":"u","in":"query",` + str3 + `}},` +
		`"schemas":{"s":{"$ref":"#/components/schemas/t~2"},"No pe":{"type":"object"}}}}`
	manyParams2 := `{"swagger":"2.0","info":{"title":"t","version":"1"},"parameters":{"a/b":{"name":"n","in":"query",` + str2 + `},"x":{"name":"n","in":"query",` + str2 + `}},"paths":{` +
		`"/x/{id}":{"parameters":[{"name":"f","in":"formData",` + str2 + `}` + params(17, "query", str2) + `],` +
		`"get":{"parameters":[{"name":"id","in":"path","required":true,` + str2 + `}` + params(17, "query", str2) + `,{"name":"q16","in":"query",` + str2 + `},{"name":"q2","in":"header",` + str2 + `},{"$ref":"#/parameters/a~1b"},{"$ref":"#/parameters/nope~0"}],` +
		`"responses":{"200":{"description":"ok","schema":{"$ref":"#/definitions/missing"}}}}}},"definitions":{}}`
	cases := []struct {
		name, file, data string
		lim              Limits
		onePass          bool
	}{
		{"plain", "a.json", `{"openapi":"3.0.3",` + ok + `}`, Limits{}, true},
		{"escapes written as the tree writes them", "a.json", `{"openapi":"3.0.3","info":{"title":"a\/b \u00e9 \"q\" \u2028 <&>","version":"1"},"paths":{},"x-\u0041":"\ud83d\ude00"}`, Limits{}, true},
		{"commas and colons around empty and nested values", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-a":{},"x-b":[],"x-c":[[],{},[{}],{"k":[]},[[1]]],"x-d":{"k":["a","b"],"l":"c","m":{"n":{}},"o":[]},"x-e":[1,true,null,"s",{"a":"b"},[]]}`, Limits{}, true},
		{"keys escaped, or like what goes between values", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-\u0066":{"\u003a":",","{":"}","a\"b":"[","\\":"\\",";":":"},"x-g":["\u003a",":"]}`, Limits{}, true},
		{"whitespace and lines", "a.json", "\ufeff\r\n{\r\n\t\"openapi\" : \"3.0.3\" ,\n\n  " + ok + "\n}\n", Limits{}, true},
		{"escaped text the pass reads", "a.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a/{\u0069d}":{"get":{"parameters":[{"name":"\u0069d","in":"pa\u0074h","required":true,"schema":{"type":"str\u0069ng","maxLength":"\u0031"}},{"name":"q\u00e9","in":"p\u0061th","schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}}},"components":{"schemas":{"s\u0031":{"type":"strin\u0067s"}}},"x-r":[{"$ref":"#/components/schemas/s\u0031"},{"$ref":"#/components/schemas/s\u0032"}]}`, Limits{}, true},
		{"long lists of scalars validation reads", "a.json", `{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"consumes":[` + strings.Repeat(`"text/plain",`, 300) + `"a/b"],"parameters":[{"name":"q","in":"query","type":"string","default":"z","enum":[` + strings.Repeat(`"a",`, 300) + `"b"]}],"responses":{"200":{"description":"ok"}}}}}}`, Limits{}, true},
		{"parameters past sixteen: listed twice, overridden, in differing; $refs escaped and dangling", "a.json", manyParams3, Limits{}, true},
		{"Swagger parameters past sixteen, and $refs escaped and dangling", "a.json", manyParams2, Limits{}, true},
		{"numbers kept as written", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-n":[1.50,-0,1e5,2E-3,12345678901234567890]}`, Limits{}, true},
		{"swagger key after the paths", "a.json", `{"info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[{"name":"p","in":"query","type":"string","default":5,"examples":{"$ref":"#/nope"}}],"responses":{"200":{"description":"ok"}}}}},"swagger":"2.0"}`, Limits{}, true},
		{"openapi key after the components", "a.json", `{"components":{"parameters":{"p":{"name":"p","in":"query","schema":{"type":"string","minLength":3,"maxLength":1,"default":"x"},"examples":{"e":{"$ref":"#/components/examples/missing"}}}}},"info":{"title":"t","version":"1"},"openapi":"3.0.3","paths":{"/a/{id}":{"get":{"parameters":[{"$ref":"#/components/parameters/p"},{"name":"id","in":"path"}],"responses":{}}}}}`, Limits{}, true},
		{"refs that do not resolve", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"a":{"$ref":"#/components/schemas/b"},"s":{"type":"string"},"arr":{"type":"array","required":["x"]}}},"x-r":[{"$ref":"#/components/schemas/s/type/x"},{"$ref":"#/components/schemas/arr/required/7"},{"$ref":"#/components/schemas/arr/required/1"},{"$ref":"#/components/schemas/arr/required/0"},{"$ref":"#/info/title"},{"$ref":"#"},{"$ref":"#/paths"}]}`, Limits{}, true},
		{"a ref into what the pass does not keep", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"s":{"properties":{"a":{"type":"string"}}}}},"x-r":{"$ref":"#/components/schemas/s/properties/a"}}`, Limits{}, false},
		{"a ref into a list the pass does not keep", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-list":[{"a":1},{"b":2}],"x-r":{"$ref":"#/x-list/1"}}`, Limits{}, false},
		{"a parameter ref into what the pass does not keep", "a.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[{"$ref":"#/x-params/p"}],"responses":{"200":{"description":"ok"}}}}},"x-params":{"p":{"name":"p","in":"path"}}}`, Limits{}, false},
		{"a ref to another file", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-r":{"$ref":"b.json#/x"}}`, Limits{}, false},
		{"a ref that is not a pointer", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-r":{"$ref":"#x"}}`, Limits{}, false},
		{"a remote ref", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-r":{"$ref":"https://example.com/s.json#/x"}}`, Limits{}, true},
		{"an object's $ref after refs inside it", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-r":{"a":{"$ref":"#/nope1"},"b":{"c":{"$ref":"#/nope2"}},"$ref":"#/nope3"}}`, Limits{}, true},
		{"a 2.0 parameter's examples are data", "a.json", `{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[{"name":"p","in":"query","type":"string","examples":{"default":{"$ref":"#/nope"}}}],"responses":{"200":{"description":"ok"}}}}}}`, Limits{}, true},
		{"a 3.x parameter's examples are Example objects", "a.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[{"name":"p","in":"query","schema":{"type":"string"},"examples":{"default":{"$ref":"#/nope"}}}],"responses":{"200":{"description":"ok"}}}}}}`, Limits{}, true},
		{"a 3.x header's examples are Example objects", "a.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","headers":{"h":{"schema":{"type":"string"},"examples":{"default":{"$ref":"#/nope"}}}}}}}}}}`, Limits{}, true},
		{"a schema's lists longer than a block of scratch nodes", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"s":{"properties":{"p":{"type":"object","required":[` + strings.Repeat(`"a",`, 2500) + `7],"enum":[` + strings.Repeat(`{},`, 2500) + `[]]}}},"t":{"type":"strng"}}}}`, Limits{}, true},
		{"a ref in an example", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"s":{"example":{"$ref":"#/nope"}}}}}`, Limits{}, true},
		{"a mapping to another file", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"s":{"discriminator":{"propertyName":"k","mapping":{"a":"a.json"}}}}}}`, Limits{}, false},
		{"a mapping to a schema that is not there", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"s":{"discriminator":{"propertyName":"k","mapping":{"a":"#/components/schemas/nope"}}}}}}`, Limits{}, true},
		{"a mapping by name", "a.json", `{"openapi":"3.0.3",` + ok + `,"components":{"schemas":{"s":{"discriminator":{"propertyName":"k","mapping":{"a":"A","b":"#/components/schemas/s"}}}}}}`, Limits{}, true},
		{"unused and look-alike shared parameters", "a.json", `{"swagger":"2.0",` + ok + `,"parameters":{"a":{"name":"n","in":"query","type":"string"},"b":{"name":"n","in":"query","type":"strin"}},"responses":{"r":{"headers":{"h":{}}}}}`, Limits{}, true},
		{"a trailing comma", "a.json", `{"openapi":"3.0.3",` + ok + `,}`, Limits{}, false},
		{"a key twice", "a.json", `{"openapi":"3.0.3",` + ok + `,"paths":{}}`, Limits{}, false},
		{"a key twice, once escaped", "a.json", `{"openapi":"3.0.3",` + ok + `,"x-a":1,"x-\u0061":2}`, Limits{}, false},
		{"a number out of range", "a.json", `{"openapi":"3.0.3",` + ok + `,"x":1e400}`, Limits{}, false},
		{"a long number out of range without an exponent", "a.json", `{"openapi":"3.0.3",` + ok + `,"x":1` + strings.Repeat("0", 400) + `}`, Limits{}, false},
		{"a long number in range", "a.json", `{"openapi":"3.0.3",` + ok + `,"x":1` + strings.Repeat("0", 305) + `}`, Limits{}, true},
		{"two documents", "a.json", `{"openapi":"3.0.3",` + ok + `} {}`, Limits{}, false},
		{"not a description", "a.json", `{"info":{}}`, Limits{}, false},
		{"an array", "a.json", `[1]`, Limits{}, false},
		{"YAML in a JSON-looking file", "a.yaml", "{openapi: 3.0.3, info: {title: t, version: '1'}, paths: {}}", Limits{}, false},
		{"too deep", "a.json", `{"openapi":"3.0.3",` + ok + `,"x":[[[[[[1]]]]]]}`, Limits{Depth: 4}, false},
		{"too deep through a $ref's text", "a.json", `{"openapi":"3.0.3",` + ok + `,"x":{"y":{"$ref":"#/info"}}}`, Limits{Depth: 2}, false},
		{"too many values", "a.json", `{"openapi":"3.0.3",` + ok + `,"x":[1,2,3,4,5,6]}`, Limits{Values: 8}, false},
		{"too large a file", "a.json", `{"openapi":"3.0.3",` + ok + `}`, Limits{FileBytes: 20}, false},
		{"too large a document", "a.json", `{"openapi":"3.0.3",` + ok + `}`, Limits{DocumentBytes: 20}, false},
		{"invalid UTF-8", "a.json", "{\"openapi\":\"3.0.3\"," + ok + ",\"x\":\"\xff\"}", Limits{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{tc.file: {Data: []byte(tc.data)}}
			if got := agree(t, fsys, tc.file, tc.lim); got != tc.onePass {
				t.Errorf("the single pass did the work: %v, want %v", got, tc.onePass)
			}
		})
	}
}

// TestOnePassStopsWhenCancelled: a cancelled run ends the pass with the
// context's error, not the tree's work.
func TestOnePassStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x":[`)
	for i := 0; i < 200_000; i++ {
		b.WriteString("1,")
	}
	b.WriteString("1]}")
	fsys := fstest.MapFS{"a.json": {Data: []byte(b.String())}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	_, err = Prepare(ctx, fsys, "a.json", PrepareOptions{Bundle: true}, out)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the context's", err)
	}
	var g *giveWay
	if errors.As(err, &g) {
		t.Errorf("a cancelled pass gave way to the tree: %v", err)
	}
}

// FuzzOnePass: on any input, a run gives what the tree gives: the same
// upload, findings and error, whichever way it took.
func FuzzOnePass(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/specs/*.json")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a/{id}":{"get":{"parameters":[{"$ref":"#/components/parameters/p"}],"responses":{"200":{"$ref":"#/components/responses/r"}}}}},"components":{"parameters":{"p":{"name":"id","in":"path","schema":{"$ref":"#/components/schemas/s"}}},"responses":{"r":{"headers":{"h":{"$ref":"#/nope"}}}},"schemas":{"s":{"type":"integer","default":"x"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, fstest.MapFS{"f.json": {Data: data}}, "f.json", Limits{})
	})
}

// TestPrepareReportsAFailedWrite: a document that cannot be written is an
// error with the write's cause, the single pass's as the tree's.
func TestPrepareReportsAFailedWrite(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, file, data string }{
		{"single pass", "a.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}`},
		{"tree", "a.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			name := filepath.Join(t.TempDir(), "out")
			if err := os.WriteFile(name, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := os.Open(name) // read only: every write fails
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			_, err = Prepare(context.Background(), fstest.MapFS{tc.file: {Data: []byte(tc.data)}}, tc.file, PrepareOptions{Bundle: true}, out)
			var pe *iofs.PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %v (%T), want the write's *fs.PathError as its cause", err, err)
			}
		})
	}
}
