package openapi

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestFindingsAboutAKeyAreAtTheKey: a finding about a key (a path that
// does not start with /, a shared component's name) is at the key's own
// line and column, in the file the key is written in, however far below it
// the value starts; through the tree and through the single pass alike.
func TestFindingsAboutAKeyAreAtTheKey(t *testing.T) {
	t.Parallel()
	const head3 = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\n"
	const json3 = `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},` + "\n"
	const get = "{get: {responses: {\"200\": {description: ok}}}}"
	cases := []struct {
		name  string
		files map[string]string // the first is a.yaml or a.json
		msg   string
		file  string
		line  int32
		col   int32
	}{
		{"a path in flow style", map[string]string{"a.yaml": head3 + "paths:\n  b: " + get + "\n"}, `path "b" must start with /`, "a.yaml", 4, 3},
		{"a path whose value is blank lines below", map[string]string{"a.yaml": head3 + "paths:\n  c:\n\n\n    get: {responses: {\"200\": {description: ok}}}\n"}, `path "c" must start with /`, "a.yaml", 4, 3},
		{"a path in JSON, its value on the next line", map[string]string{"a.json": json3 + "\"paths\": {\n  \"b\":\n   {\"get\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}}\n}}\n"}, `path "b" must start with /`, "a.json", 3, 3},
		{"an unused shared response", map[string]string{"a.yaml": head3 + "paths: {}\ncomponents:\n  responses:\n    Gone:\n      description: gone\n"}, "shared response Gone is not used", "a.yaml", 6, 5},
		{"an unused shared parameter in JSON", map[string]string{"a.json": json3 + "\"paths\": {}, \"components\": {\"parameters\": {\n  \"limit\":\n    {\"name\": \"limit\", \"in\": \"query\", \"schema\": {\"type\": \"integer\"}}}}}\n"}, "shared parameter limit is not used", "a.json", 3, 3},
		{"an unused shared parameter read from another file", map[string]string{
			"a.yaml": head3 + "paths: {}\ncomponents:\n  parameters:\n    limit:\n      $ref: p.yaml\n",
			"p.yaml": "name: limit\nin: query\nschema: {type: integer}\n",
		}, "shared parameter limit is not used", "a.yaml", 6, 5},
		{"look-alike shared parameters", map[string]string{"a.yaml": head3 + "paths:\n  /x:\n    get:\n      parameters: [$ref: '#/components/parameters/a', $ref: '#/components/parameters/b']\n      responses: {\"200\": {description: ok}}\ncomponents:\n  parameters:\n    a: {name: q, in: query, schema: {type: string}}\n    b:\n      name: q\n      in: query\n      schema: {type: string}\n"}, "shared parameters a and b are both q in query", "a.yaml", 11, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{}
			main := ""
			for name, data := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
				if strings.HasPrefix(name, "a.") {
					main = name
				}
			}
			for _, treeOnly := range []bool{true, false} {
				p := prepareWith(t, fsys, main, PrepareOptions{Bundle: true, TreeOnly: treeOnly})
				found := false
				for _, f := range p.findings {
					if strings.Contains(f.Msg, tc.msg) {
						found = true
						if f.File != tc.file || f.Pos != (Pos{tc.line, tc.col}) {
							t.Errorf("tree only %v: %q at %s:%v, want %s:%d:%d", treeOnly, f.Msg, f.File, f.Pos, tc.file, tc.line, tc.col)
						}
					}
				}
				if !found {
					t.Errorf("tree only %v: no finding saying %q; got %v (%s)", treeOnly, tc.msg, p.findings, p.err)
				}
			}
		})
	}
}
