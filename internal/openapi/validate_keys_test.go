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
		// Findings about a value stay at the value.
		{"a Swagger 2.0 header's type", map[string]string{"a.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nresponses:\n  R:\n    description: r\n    headers:\n      X-Id:\n        description: x\n        type: strng\n"}, "header X-Id needs a type", "a.yaml", 10, 15},
		{"where a parameter is", map[string]string{"a.yaml": head3 + "paths:\n  /x:\n    get:\n      parameters:\n        - name: q\n          in: qeury\n      responses: {\"200\": {description: ok}}\n"}, "in must be one of", "a.yaml", 8, 15},
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
				if onePass := !treeOnly && main == "a.json"; p.onePass != onePass {
					t.Errorf("tree only %v: the single pass did the work: %v, want %v", treeOnly, p.onePass, onePass)
				}
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

// TestNearestNameSuggested: every finding that says a value is not one of a
// fixed set of names names the nearest, when one is near: in a schema, a
// parameter's schema, a Swagger 2.0 parameter or header, and where a
// parameter is; through the tree and through the single pass alike.
func TestNearestNameSuggested(t *testing.T) {
	t.Parallel()
	const head3 = `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {"/x": {"get": {`
	const head2 = `{"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {"/x": {"get": {`
	const ok = `"responses": {"200": {"description": "ok"}}}}}`
	param3 := func(p string) string { return head3 + `"parameters": [` + p + `], ` + ok + "}" }
	param2 := func(p string) string { return head2 + `"parameters": [` + p + `], ` + ok + "}" }
	cases := []struct {
		name, doc, msg, near string // near "": no suggestion
	}{
		{"a schema's type", head3 + ok + `, "components": {"schemas": {"s": {"type": "objekt"}}}}`, `type "objekt" is not one of`, "object"},
		{"a parameter's schema's type", param3(`{"name": "q", "in": "query", "schema": {"type": "integr"}}`), `parameter q: type "integr" is not one of`, "integer"},
		{"a parameter's schema's type, letters swapped", param3(`{"name": "q", "in": "query", "schema": {"type": "stirng"}}`), `parameter q: type "stirng" is not one of`, "string"},
		{"where a parameter is", param3(`{"name": "q", "in": "qeury", "schema": {"type": "string"}}`), "parameter q: in must be one of path, query, header, cookie", "query"},
		{"where a parameter is, in another case", param3(`{"name": "q", "in": "Header", "schema": {"type": "string"}}`), "parameter q: in must be one of", "header"},
		{"where a Swagger 2.0 parameter is", param2(`{"name": "q", "in": "fromData", "type": "string"}`), "parameter q: in must be one of path, query, header, body, formData", "formData"},
		{"a Swagger 2.0 parameter's type", param2(`{"name": "q", "in": "query", "type": "numbr"}`), `parameter q: type "numbr" is not one of`, "number"},
		{"a Swagger 2.0 header's type", head2 + `"responses": {"200": {"description": "ok", "headers": {"X-Id": {"type": "strng"}}}}}}}}`, "header X-Id needs a type", "string"},
		{"where a parameter is: nothing near", param3(`{"name": "q", "in": "elsewhere", "schema": {"type": "string"}}`), "parameter q: in must be one of", ""},
		{"a parameter's schema's type: nothing near", param3(`{"name": "q", "in": "query", "schema": {"type": "text"}}`), `parameter q: type "text" is not one of`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{"a.json": {Data: []byte(tc.doc)}}
			for _, treeOnly := range []bool{true, false} {
				p := prepareWith(t, fsys, "a.json", PrepareOptions{TreeOnly: treeOnly})
				if p.onePass == treeOnly {
					t.Errorf("tree only %v: the single pass did the work: %v", treeOnly, p.onePass)
				}
				var got []string
				for _, f := range p.findings {
					if strings.Contains(f.Msg, tc.msg) {
						got = append(got, f.Msg)
					}
				}
				want := "(did you mean " + tc.near + "?)"
				switch {
				case len(got) != 1:
					t.Errorf("tree only %v: %d findings saying %q, want 1; got %v (%s)", treeOnly, len(got), tc.msg, p.findings, p.err)
				case tc.near == "" && strings.Contains(got[0], "did you mean"):
					t.Errorf("tree only %v: %q suggests a name, want none", treeOnly, got[0])
				case tc.near != "" && !strings.HasSuffix(got[0], want):
					t.Errorf("tree only %v: %q, want it to end %q", treeOnly, got[0], want)
				}
			}
		})
	}
}
