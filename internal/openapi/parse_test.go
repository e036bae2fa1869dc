package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestParseConvertsToJSON(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, in, want string
	}{
		{"key order kept", "a.yaml", "openapi: 3.0.0\nzeta: 1\nalpha: 2\nmid: {b: 1, a: 2}\n",
			`{"openapi":"3.0.0","zeta":1,"alpha":2,"mid":{"b":1,"a":2}}`},
		{"status keys become strings", "a.yaml", "swagger: '2.0'\nresponses:\n  200: {description: ok}\n  404: {description: no}\n",
			`{"swagger":"2.0","responses":{"200":{"description":"ok"},"404":{"description":"no"}}}`},
		{"YAML 1.1 look-alikes stay strings", "a.yaml", "openapi: 3.0.0\na: yes\nb: no\nc: on\nd: off\ne: 2024-05-01\nf: 2001-12-14t21:59:43.10-05:00\n",
			`{"openapi":"3.0.0","a":"yes","b":"no","c":"on","d":"off","e":"2024-05-01","f":"2001-12-14t21:59:43.10-05:00"}`},
		{"float literal kept", "a.yaml", "openapi: 3.0.0\na: 1.0\nb: 12.50\nc: 1e3\nd: .5\ne: -2.\n",
			`{"openapi":"3.0.0","a":1.0,"b":12.50,"c":1e3,"d":0.5,"e":-2.0}`},
		{"integers exact at any size", "a.yaml", "openapi: 3.0.0\na: 9007199254740993\nb: 123456789012345678901234567890\nc: 0x1F\nd: 0o17\ne: +5\nf: 1_000\n",
			`{"openapi":"3.0.0","a":9007199254740993,"b":123456789012345678901234567890,"c":31,"d":15,"e":5,"f":"1_000"}`},
		{"booleans and nulls", "a.yaml", "openapi: 3.0.0\na: true\nb: False\nc: ~\nd: null\ne:\n",
			`{"openapi":"3.0.0","a":true,"b":false,"c":null,"d":null,"e":null}`},
		{"quoted numbers stay strings", "a.yaml", "openapi: \"3.0.0\"\na: \"200\"\nb: '1.0'\n",
			`{"openapi":"3.0.0","a":"200","b":"1.0"}`},
		{"anchors, aliases and merge keys expanded", "a.yaml", "openapi: 3.0.0\nbase: &b {x: 1, y: 2}\nuse: *b\nmerged:\n  <<: *b\n  y: 3\n  z: 4\n",
			`{"openapi":"3.0.0","base":{"x":1,"y":2},"use":{"x":1,"y":2},"merged":{"y":3,"z":4,"x":1}}`},
		{"aliases to values converted before, nested and in lists", "a.yaml", "openapi: 3.0.0\nbase: &b\n  inner:\n    deep: &d [1, {k: v}]\n  more: *d\ncopy: *b\nlist:\n  - &i {a: 1, b: [2, 3]}\n  - *i\n  - {<<: *i, c: 4}\nagain: *d\n",
			`{"openapi":"3.0.0","base":{"inner":{"deep":[1,{"k":"v"}]},"more":[1,{"k":"v"}]},"copy":{"inner":{"deep":[1,{"k":"v"}]},"more":[1,{"k":"v"}]},"list":[{"a":1,"b":[2,3]},{"a":1,"b":[2,3]},{"c":4,"a":1,"b":[2,3]}],"again":[1,{"k":"v"}]}`},
		{"escapes and unicode", "a.yaml", "openapi: 3.0.0\ns: \"tab\\there \\\"q\\\" <b> & é \\u0001\"\n",
			`{"openapi":"3.0.0","s":"tab\there \"q\" <b> & é \u0001"}`},
		{"YAML-only forms of tagged numbers", "a.yaml", "openapi: 3.0.0\nx: [!!float .5, !!float 1., !!float -.5e3, !!float +2.5, !!float 1_000.5, !!float 7, !!bool yes, !!bool TRUE]\nx-b: &k name\nx-c:\n  *k : 1\n",
			`{"openapi":"3.0.0","x":[0.5,1.0,-0.5e3,2.5,1000.5,7,"yes",true],"x-b":"name","x-c":{"name":1}}`},
		{"JSON kept as written", "a.json", `{"swagger": "2.0", "z": 1.50, "a": [1, 2e10, -0.0], "big": 123456789012345678901234567890}`,
			`{"swagger":"2.0","z":1.50,"a":[1,2e10,-0.0],"big":123456789012345678901234567890}`},
		{"JSON-looking YAML falls back to YAML", "a.yaml", "{openapi: 3.0.0, a: yes}",
			`{"openapi":"3.0.0","a":"yes"}`},
		{"byte order mark ignored", "a.json", "\xef\xbb\xbf{\"openapi\":\"3.1.0\"}", `{"openapi":"3.1.0"}`},
		{"a tab starting a block scalar is text", "a.yaml", "openapi: 3.0.0\nx-code:\n  - lang: go\n    source: |\n      \tfmt.Println()\n      }\n  - source: >-\n      \tone\n      two\n",
			`{"openapi":"3.0.0","x-code":[{"lang":"go","source":"\tfmt.Println()\n}\n"},{"source":"\tone\ntwo"}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n, err := Parse(tc.file, []byte(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := string(n.AppendJSON(nil))
			if got != tc.want {
				t.Errorf("JSON mismatch\n got: %s\nwant: %s", got, tc.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("output is not valid JSON: %s", got)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, in string
		line           int
		wantMsg        string
	}{
		{"duplicate YAML key", "d.yaml", "openapi: 3.0.0\npaths: {}\npaths: {}\n", 3, `duplicate key "paths"`},
		{"duplicate JSON key", "d.json", "{\"openapi\": \"3.0.0\",\n \"a\": 1,\n \"a\": 2}", 3, `duplicate key "a"`},
		{"duplicate JSON path, named whole", "d.json", "{\"openapi\": \"3.0.0\", \"paths\": {\n \"/user/{id}\": {},\n \"/user/{id}\": {}}}", 3, `duplicate key "/user/{id}"`},
		{"infinity", "i.yaml", "openapi: 3.0.0\nmax: .inf\n", 2, ".inf is a number JSON cannot hold"},
		{"not a number", "i.yaml", "openapi: 3.0.0\nx: .NaN\n", 2, "JSON cannot hold"},
		{"a number beyond float64", "i.yaml", "openapi: 3.0.0\nx: 1e400\n", 2, "1e400 is too large for the service's numbers"},
		{"a JSON number beyond float64", "i.json", "{\"openapi\": \"3.0.0\",\n \"x\": -1E400}", 2, "-1E400 is too large for the service's numbers"},
		{"a JSON number of 400 digits", "i.json", "{\"openapi\": \"3.0.0\",\n \"x\": 1" + strings.Repeat("0", 399) + "}", 2, "is too large for the service's numbers"},
		{"a tagged number beyond float64", "i.yaml", "openapi: 3.0.0\nx: !!float -1e400\n", 2, "too large"},
		{"keys that read as the same text", "k.yaml", "openapi: 3.0.0\n+1: a\n1.0: b\n", 3, `key 1.0 reads as "1", as does the key +1 at line 2`},
		{"a key twice, the first a few keys above", "k.yaml", "openapi: 3.0.0\nx:\n  a: 1\n  b: 2\n  a: 3\n", 5, `duplicate key "a" (first at line 3)`},
		{"quoted keys that read as the same text", "k.yaml", "openapi: 3.0.0\nx:\n  'it''s': 1\n  \"it's\": 2\n", 4, `key "it's" reads as "it's", as does the key 'it''s' at line 3`},
		{"a tagged float that is no number", "f.yaml", "openapi: 3.0.0\nx: !!float 1.2.3\n", 2, "1.2.3 is not a number JSON can hold: quote it to keep it as text"},
		{"a tab as indentation", "t.yaml", "openapi: 3.0.0\nx: |\n\tcode\n", 2, "tab character"},
		{"a tab after spaces in a line's indentation", "t.yaml", "openapi: 3.0.0\nx:\n  a: 1\n  \tb: 2\n", 4, "t.yaml:4:3: invalid YAML: the line is indented with a tab"},
		{"an unclosed list before a last line of blanks", "u.yaml", "openapi: 3.0.0\nx: [a,\n   ", 0, "u.yaml:"},
		{"recursive alias", "r.yaml", "openapi: 3.0.0\na: &x {b: *x}\n", 2, "inside its own anchor"},
		{"unknown alias", "a.yaml", "openapi: 3.0.0\nx: *nowhere\n", 2, "refers to no anchor"},
		{"unknown alias at a line's start", "a.yaml", "openapi: 3.0.0\n*nowhere : 1\n", 2, "refers to no anchor"},
		{"unknown alias after blank lines", "a.yaml", "\nopenapi: 3.0.0\n\n\nx: *nowhere\n", 5, "refers to no anchor"},
		{"invalid JSON", "b.json", "{\"openapi\": \"3.0.0\",\n \"a\": }", 2, "invalid JSON"},
		{"a trailing comma in an object", "c.json", "{\"openapi\": \"3.0.0\",\n \"a\": 1,\n}", 2, "a trailing comma before a closing } or ]"},
		{"a trailing comma in a list", "c.json", "{\"openapi\": \"3.0.0\",\n \"a\": [1, 2 ,  ]}", 2, "a trailing comma"},
		{"a tab in the indentation of a mapping", "t.yaml", "openapi: 3.0.0\ninfo:\n\ttitle: x\n", 3, "indented with a tab: YAML indents with spaces only"},
		{"a tab after spaces in the indentation", "t.yaml", "openapi: 3.0.0\ninfo:\n  \ttitle: x\n", 3, "indented with a tab"},
		{"a tab below a plain value", "t.yaml", "openapi: 3.0.0\ninfo:\n  title: t\n\tversion: '1'\n", 4, "indented with a tab"},
		{"a tab below a plain value's continuation lines", "t.yaml", "openapi: 3.0.0\ninfo:\n  title: a\n   long\n\n   text\n\t version: '1'\n", 7, "indented with a tab"},
		{"JSON-looking, neither JSON nor YAML: JSON's error", "b.yaml", "{openapi: 3.0.0,\n a: [1, }", 1, "invalid JSON: invalid character 'o' at start of value"},
		{"truncated JSON", "b.json", "{\"openapi\": \"3.0.0\",\n \"a\": [1,", 2, "invalid JSON: the file ends before the JSON does"},
		{"invalid YAML", "b.yaml", "openapi: 3.0.0\n  bad: [\n", 0, "invalid YAML"},
		{"plain text", "notes.txt", "just some notes, not a description\n", 1, "neither a YAML nor a JSON"},
		{"list at top", "l.yaml", "- a\n- b\n", 1, "neither a YAML nor a JSON"},
		{"no swagger or openapi key", "m.yaml", "title: x\n", 1, "no swagger: or openapi: key"},
		{"empty", "e.yaml", "", 0, "is empty"},
		{"two documents", "t.yaml", "openapi: 3.0.0\n---\nopenapi: 3.0.0\n", 2, "more than one YAML document"},
		{"complex key", "c.yaml", "openapi: 3.0.0\n? [a, b]\n: 1\n", 2, "mapping key must be a plain value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.file, []byte(tc.in))
			var se *LoadError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error = %v, want a *LoadError", err)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q does not say %q", err, tc.wantMsg)
			}
			if se.File != tc.file {
				t.Errorf("error names file %q, want %q", se.File, tc.file)
			}
			if tc.line != 0 && int(se.Pos.Line) != tc.line {
				t.Errorf("error at line %d, want %d (%v)", se.Pos.Line, tc.line, err)
			}
		})
	}
}

// TestNotADescription: a description that is none (empty, without a
// swagger: or openapi: key, not a mapping) has ErrNotDescription as its
// cause, for the caller to say what to do; a file a $ref names that holds
// nothing is not held to being a description.
func TestNotADescription(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"empty", "", "is empty"},
		{"only a comment", "# to do\n", "is empty"},
		{"no swagger or openapi key", "title: x\n", "has no swagger: or openapi: key"},
		{"a list", "- a\n", "its top level is an array"},
		{"a string", "hello\n", "its top level is a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("d.yaml", []byte(tc.in))
			var le *LoadError
			if !errors.Is(err, ErrNotDescription) || !errors.As(err, &le) || !strings.Contains(le.Msg, tc.want) {
				t.Fatalf("error %v: want a *LoadError saying %q, caused by ErrNotDescription", err, tc.want)
			}
		})
	}
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-logo: {$ref: ./logo.yaml}\n")},
		"logo.yaml":    {Data: nil},
	}
	root, err := Load(context.Background(), fsys, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Bundle(context.Background(), root, BundleOptions{FS: fsys})
	if err == nil || errors.Is(err, ErrNotDescription) || !strings.Contains(err.Error(), "logo.yaml: is empty") {
		t.Errorf("error %v: want logo.yaml's emptiness, not ErrNotDescription", err)
	}
}

func TestAliasBombIsRefused(t *testing.T) {
	testenv.Long(t) // expands aliases to a million values
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	_, err := Parse("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("Parse of an alias bomb = %v, want an error about aliases", err)
	}
}

func TestPositions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, in string }{
		{"p.yaml", "openapi: 3.0.0\ninfo:\n  title: T\npaths:\n  /a:\n    get: {}\n"},
		{"p.json", "{\n\"openapi\": \"3.0.0\",\n\"info\": {\n  \"title\": \"T\"},\n\"paths\": {\n  \"/a\": {\n    \"get\": {}}}}"},
	} {
		n, err := Parse(tc.file, []byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		paths := n.Get("paths")
		get := paths.Get("/a").Get("get")
		if paths.Fields()[0].KeyPos.Line != 6-boolInt(tc.file == "p.yaml") || get.Pos.Line != 7-boolInt(tc.file == "p.yaml") {
			t.Errorf("%s: /a key at %v, get at %v", tc.file, paths.Fields()[0].KeyPos, get.Pos)
		}
	}
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// TestSamplesGolden converts each sample in testdata/specs and compares the
// JSON with its golden file; YAML and JSON forms of a sample must agree on
// everything but number literals python rewrote in the JSON copies.
func TestSamplesGolden(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../testdata/specs/*")
	if len(files) == 0 {
		t.Fatal("no samples in testdata/specs")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			n, err := Load(context.Background(), os.DirFS(filepath.Dir(f)), filepath.Base(f), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			var pretty bytes.Buffer
			json.Indent(&pretty, n.AppendJSON(nil), "", "  ")
			pretty.WriteByte('\n')
			golden := filepath.Join("testdata", "golden", filepath.Base(f)+".json")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/openapi -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), pretty.String()); diff != "" {
				t.Errorf("%s differs from golden (-want +got):\n%s", f, diff)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	t.Parallel()
	_, err := Load(context.Background(), os.DirFS(t.TempDir()), "specs/nope.yaml", DefaultLimits)
	if err == nil || !strings.Contains(err.Error(), "specs/nope.yaml: does not exist") {
		t.Fatalf("Load of a missing file = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/specs/*")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(filepath.Ext(file), data)
	}
	f.Add(".yaml", []byte("openapi: 3.0.0\na: &x {b: *x}\n"))
	f.Add(".yaml", []byte("openapi: 3.0.0\na:\n- b: |+ # code\n    \tx\n  c: |\n   \t\ty\n"))
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		n, err := Parse("f"+ext, data)
		if err != nil {
			return
		}
		out := n.AppendJSON(nil)
		if !json.Valid(out) {
			t.Fatalf("valid parse produced invalid JSON: %s", out)
		}
		// What we write must read back to the same JSON.
		again, err := Parse("again.json", out)
		if err != nil {
			t.Fatalf("re-parse of own output: %v\n%s", err, out)
		}
		if got := again.AppendJSON(nil); !bytes.Equal(got, out) {
			t.Fatalf("round trip changed the document:\n%s\n%s", out, got)
		}
	})
}

// TestSlashEscape: YAML 1.2's \/ in a double-quoted scalar reads as /;
// elsewhere a \/ is text and stays; positions after it are as written.
func TestSlashEscape(t *testing.T) {
	t.Parallel()
	doc := "openapi: 3.0.0\n" +
		"a: \"x\\/y\" # a comment with \\/ in it\n" +
		"b: 'single \\/ stays'\n" +
		"c: plain \\/ stays \"and this\\/ too\"\n" +
		"d: |\n  block \"\\/\" stays\n" +
		"e: [\"one\\/two\", \"three\\/\"]\n" +
		"f: \"multi\n  line \\/ too\"\n" +
		"g: {k: \"\\/\\/\", n: 7}\n"
	n, err := Parse("s.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"openapi":"3.0.0","a":"x/y","b":"single \\/ stays","c":"plain \\/ stays \"and this\\/ too\"","d":"block \"\\/\" stays\n","e":["one/two","three/"],"f":"multi line / too","g":{"k":"//","n":7}}`
	if got := string(n.AppendJSON(nil)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if p := n.Get("g").Get("n").Pos; p.Line != 10 || p.Col != 19 {
		t.Errorf("g.n at %v, want 10:19 as written", p)
	}
}
