package openapi

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const v2head = "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\n"
const v3head = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\n"

// op2 is a Swagger 2.0 description whose /x GET uses the given parameters.
func op2(params, extra string) string {
	return v2head + "paths:\n  /x/{id}:\n    get:\n      parameters:\n" + params +
		"      responses:\n        200: {description: ok}\n" + extra
}

func TestValidateFindings(t *testing.T) {
	t.Parallel()
	idParam := "        - {name: id, in: path, required: true, type: string}\n"
	// many are twenty query parameters, past the number an operation's
	// parameters are looked through rather than indexed.
	var many, pathMany string
	for i := range 20 {
		many += fmt.Sprintf("        - {name: q%d, in: query, type: string}\n", i)
		pathMany += fmt.Sprintf("      - {name: q%d, in: query, type: string}\n", i)
	}
	overridden := func(pathParams string) string {
		return v2head + "paths:\n  /x:\n    parameters:\n" + pathParams + "      - {name: p, in: path, required: true, type: string}\n    get:\n      parameters:\n        - {name: p, in: path, required: true, type: string}\n      responses:\n        200: {description: ok}\n"
	}
	cases := []struct {
		name string
		doc  string
		sev  Severity
		msg  string
		line int
	}{
		{"swagger version", "swagger: \"3.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\n", Error, `swagger must be "2.0"`, 1},
		{"openapi version", "openapi: 3.2\ninfo: {title: T, version: \"1\"}\npaths: {}\n", Error, "3.0.x, 3.1.x or 3.2.x", 1},
		{"openapi 4", "openapi: 4.0.0\ninfo: {title: T, version: \"1\"}\npaths: {}\n", Error, "3.0.x, 3.1.x or 3.2.x", 1},
		{"no info title", "openapi: 3.0.3\ninfo: {version: \"1\"}\npaths: {}\n", Error, "info.title is missing", 2},
		{"no paths", v3head, Error, "paths is missing", 1},
		{"path without slash", v3head + "paths:\n  x: {}\n", Error, `path "x" must start with /`, 4},
		{"operation without responses", v3head + "paths:\n  /x:\n    get: {summary: s}\n", Error, "GET /x has no responses", 5},
		{"dangling ref", v3head + "paths:\n  /x:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n", Error, "does not resolve", 7},
		{"dangling ref among a 3.x parameter's examples", v3head + "paths:\n  /x:\n    get:\n      parameters:\n        - name: q\n          in: query\n          schema: {type: string}\n          examples:\n            default: {$ref: '#/components/examples/nope'}\n      responses:\n        '200': {description: ok}\n", Error, "does not resolve", 11},
		{"operation's response without description", v3head + "paths:\n  /x:\n    get:\n      responses:\n        '200': {content: {}}\n", Error, "response 200 of GET /x has no description", 7},
		{"ref out of the workspace", v3head + "paths:\n  /x:\n    get:\n      responses:\n        '200': {$ref: '../common/r.yaml#/Ok'}\n", Error, "$ref ../common/r.yaml#/Ok leaves the workspace", 7},
		{"bad in", op2(idParam+"        - {name: q, in: body2, type: string}\n", ""), Error, "in must be one of path, query, header, body, formData", 8},
		{"cookie not in 2.0", op2(idParam+"        - {name: q, in: cookie, type: string}\n", ""), Error, "in must be one of", 8},
		{"no name", op2(idParam+"        - {in: query, type: string}\n", ""), Error, "has no name", 8},
		{"path not required", op2("        - {name: id, in: path, type: string}\n", ""), Error, "must have required: true", 7},
		{"path param not in template", v2head + "paths:\n  /x:\n    get:\n      parameters:\n        - {name: id, in: path, required: true, type: string}\n      responses:\n        200: {description: ok}\n", Error, "not in the path template of GET /x", 7},
		{"bad type", op2(idParam+"        - {name: q, in: query, type: int}\n", ""), Error, `type "int" is not one of`, 8},
		{"no type", op2(idParam+"        - {name: q, in: query}\n", ""), Error, "has no type", 8},
		{"default of wrong type", op2(idParam+"        - {name: limit, in: query, type: integer, default: twenty}\n", ""), Warning, "default \"twenty\" is not of type integer", 8},
		{"default not an integer", op2(idParam+"        - {name: limit, in: query, type: integer, default: 2.5}\n", ""), Warning, "is not of type integer", 8},
		{"minLength above maxLength", op2(idParam+"        - {name: q, in: query, type: string, minLength: 5, maxLength: 2}\n", ""), Error, "minLength 5 is greater than maxLength 2", 8},
		{"minimum above maximum", op2(idParam+"        - {name: q, in: query, type: integer, minimum: 10, maximum: 1}\n", ""), Error, "minimum 10 is greater than maximum 1", 8},
		{"default out of range", op2(idParam+"        - {name: q, in: query, type: integer, minimum: 1, maximum: 100, default: 500}\n", ""), Warning, "outside minimum..maximum", 8},
		{"default too long", op2(idParam+"        - {name: q, in: query, type: string, maxLength: 3, default: abcdef}\n", ""), Warning, "breaks its length limits", 8},
		{"default not in enum", op2(idParam+"        - {name: q, in: query, type: string, enum: [a, b], default: c}\n", ""), Warning, "not one of its enum values", 8},
		{"default does not match pattern", op2(idParam+"        - {name: q, in: query, type: string, pattern: '^[0-9]+$', default: abc}\n", ""), Warning, "does not match pattern", 8},
		{"ECMA-only pattern", op2(idParam+"        - {name: q, in: query, type: string, pattern: '^(?=a)a$', default: a}\n", ""), Warning, "ECMA-262 syntax", 8},
		{"formData without form consumes", op2(idParam+"        - {name: f, in: formData, type: string}\n", ""), Error, "does not consume multipart/form-data", 8},
		{"same parameter twice among many", op2(idParam+many+"        - {name: q3, in: query, type: string}\n", ""), Warning, "lists parameter q3 in query twice", 28},
		{"path param not in template among many", op2(idParam+many+"        - {name: other, in: path, required: true, type: string}\n", ""), Error, "path parameter other is not in the path template of GET /x/{id}", 28},
		{"a path's parameter the operation lists again: the operation's stands", overridden(""), Error, "path parameter p is not in the path template of GET /x", 9},
		{"a path's parameter among many the operation lists again", overridden(pathMany), Error, "path parameter p is not in the path template of GET /x", 29},
		{"same parameter twice", op2(idParam+"        - {name: q, in: query, type: string}\n        - {name: q, in: query, type: string}\n", ""), Warning, "lists parameter q in query twice", 9},
		{"shared response without description", op2(idParam, "responses:\n  Err:\n    schema: {type: string}\n"), Error, "shared response Err has no description", 12},
		{"shared response header without type", op2(idParam, "responses:\n  Err:\n    description: e\n    headers:\n      X-Id: {description: x}\n"), Error, "header X-Id needs a type", 14},
		{"3.x header without schema", v3head + "paths: {}\ncomponents:\n  responses:\n    Err:\n      description: e\n      headers:\n        X-Id: {description: x}\n", Error, "header X-Id needs a schema", 9},
		{"unused shared parameter", op2(idParam, "parameters:\n  limit: {name: limit, in: query, type: integer}\n"), Warning, "shared parameter limit is not used", 11},
		{"unused shared response", op2(idParam, "responses:\n  Err: {description: e}\n"), Warning, "shared response Err is not used", 11},
		{"two shared parameters alike", op2(idParam+"        - $ref: '#/parameters/a'\n        - $ref: '#/parameters/b'\n", "parameters:\n  a: {name: q, in: query, type: string}\n  b: {name: q, in: query, type: string}\n"), Warning, "shared parameters a and b are both q in query", 14},
		{"3.x parameter without schema", v3head + "paths:\n  /x:\n    get:\n      parameters:\n        - {name: q, in: query}\n      responses:\n        '200': {description: ok}\n", Error, "has neither schema nor content", 7},
		{"querystring before OpenAPI 3.2", v3head + "paths:\n  /x:\n    get:\n      parameters:\n        - {name: q, in: querystring, content: {application/json: {}}}\n      responses:\n        '200': {description: ok}\n", Error, "in must be one of path, query, header, cookie", 7},
		{"OpenAPI 3.2 lists querystring", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    get:\n      parameters:\n        - {name: q, in: body, schema: {type: string}}\n      responses:\n        '200': {description: ok}\n", Error, "in must be one of path, query, querystring, header, cookie", 7},
		{"3.x cookie is fine but formData is not", v3head + "paths:\n  /x:\n    get:\n      parameters:\n        - {name: q, in: formData, schema: {type: string}}\n      responses:\n        '200': {description: ok}\n", Error, "in must be one of path, query, header, cookie", 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, err := Parse("d.yaml", []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			findings := Validate(root)
			for _, f := range findings {
				if f.Severity == tc.sev && strings.Contains(f.Msg, tc.msg) {
					if int(f.Pos.Line) != tc.line || f.File != "d.yaml" {
						t.Errorf("finding %s at %s:%d, want line %d", f.Msg, f.File, f.Pos.Line, tc.line)
					}
					return
				}
			}
			t.Errorf("no %s saying %q; got %v", tc.sev, tc.msg, findings)
		})
	}
}

// TestValidateNoFalseAlarms: what other tools accept, and the service
// renders, is no error.
func TestValidateNoFalseAlarms(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc string }{
		{"a 3.1 default that does not fit its schema", "openapi: 3.1.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    get:\n      parameters:\n        - {name: limit, in: query, schema: {type: integer, default: \"20\"}}\n      responses:\n        '200': {description: ok}\n"},
		{"a $ref in a 2.0 parameter's examples, which are data", op2("        - {name: id, in: path, required: true, type: string}\n        - {name: q, in: query, type: string, examples: {default: {$ref: '#/nope'}}}\n", "")},
		{"formData with consumes written as one string", v2head + "paths:\n  /x:\n    post:\n      consumes: ['multipart/form-data, application/json']\n      parameters:\n        - {name: f, in: formData, type: string}\n      responses:\n        200: {description: ok}\n"},
		{"a $ref to another file in the workspace", v3head + "paths:\n  /x:\n    get:\n      responses:\n        '200': {$ref: 'common/r.yaml#/Ok'}\n"},
		{"formData with a vendor multipart type", v2head + "paths:\n  /x:\n    post:\n      consumes: ['multipart/vnd.specific+form-data;version=1.0']\n      parameters:\n        - {name: f, in: formData, type: string}\n      responses:\n        200: {description: ok}\n"},
		{"formData with form-urlencoded and a charset", v2head + "consumes: ['application/x-www-form-urlencoded; charset=utf-8']\npaths:\n  /x:\n    post:\n      parameters:\n        - {name: f, in: formData, type: string}\n      responses:\n        200: {description: ok}\n"},
		{"OpenAPI 3.2 without paths: components only", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\ncomponents:\n  schemas:\n    Pet: {type: object}\n"},
		{"OpenAPI 3.2 with empty responses", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    get:\n      responses: {}\n"},
		{"OpenAPI 3.2 with a type list", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    get:\n      parameters:\n        - {name: q, in: query, schema: {type: [string, \"null\"]}}\n      responses:\n        '200': {description: ok}\n"},
		{"OpenAPI 3.2 with a querystring parameter", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    get:\n      parameters:\n        - name: filter\n          in: querystring\n          content:\n            application/x-www-form-urlencoded: {schema: {type: object}}\n      responses:\n        '200': {description: ok}\n"},
		{"OpenAPI 3.2 with a default that does not fit its schema", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    get:\n      parameters:\n        - {name: limit, in: query, schema: {type: integer, default: \"20\"}}\n      responses:\n        '200': {description: ok}\n"},
		{"OpenAPI 3.2 with a QUERY operation and a media type component", "openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    query:\n      responses:\n        '200': {description: ok}\n    additionalOperations:\n      LINK:\n        responses:\n          '204': {description: linked}\ncomponents:\n  mediaTypes:\n    json: {schema: {type: object}}\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, err := Parse("d.yaml", []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range Validate(root) {
				if f.Severity == Error {
					t.Errorf("error: %s", f)
				}
			}
		})
	}
	// OpenAPI 3.2's QUERY operations are checked like others.
	root, _ := Parse("d.yaml", []byte("openapi: 3.2.0\ninfo: {title: T, version: \"1\"}\npaths:\n  /x:\n    query:\n      parameters:\n        - {in: query, schema: {type: string}}\n"))
	if fs := Validate(root); !slices.ContainsFunc(fs, func(f Finding) bool { return strings.Contains(f.Msg, "has no name") }) {
		t.Errorf("a QUERY operation's parameters were not checked: %v", fs)
	}
}

// TestValidateCleanSamples: the samples and fixtures have no findings, but
// the warning that a $ref to an address is not bundled.
func TestValidateCleanSamples(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../testdata/specs/*")
	for _, c := range bundleCases {
		files = append(files, filepath.Join("../../testdata/bundle", c.dir, c.main))
	}
	for _, f := range files {
		fs := slices.DeleteFunc(Validate(loadAndBundle(t, f)), func(f Finding) bool {
			return f.Severity == Warning && strings.Contains(f.Msg, "is an address, not a file: it is published as written, not bundled")
		})
		if len(fs) > 0 {
			t.Errorf("%s: %v", f, fs)
		}
	}
}

// TestNewcomerFindings: what a first user writes by mistake is placed at
// its own line and says what to do: a version written as a number, a $ref
// to an address (once per address, in the single pass and the tree alike),
// and with bundle false a $ref to a file that is not there.
func TestNewcomerFindings(t *testing.T) {
	t.Parallel()
	remote := "  /a:\n    get:\n      responses:\n        '200': {$ref: 'https://example.com/r.yaml#/OK'}\n  /b:\n    get:\n      responses:\n        '200': {$ref: 'https://example.com/r.yaml#/OK'}\n"
	cases := []struct {
		name, doc string
		bundle    bool
		want      []string // each a finding, as file:line: severity: message
	}{
		{name: "info.version a number", bundle: true,
			doc:  "openapi: 3.0.3\ninfo:\n  title: T\n  version: 2.0\npaths: {}\n",
			want: []string{`d.yaml:4:12: error: info.version must be a string: 2.0 is written without quotes, so it is read as a number; quote it, as in "2.0"`}},
		{name: "info.version a list", bundle: true,
			doc:  "openapi: 3.0.3\ninfo:\n  title: T\n  version:\n    - v2\npaths: {}\n",
			want: []string{`d.yaml:5:5: error: info.version must be a string: it is written as a list; give its text, in quotes`}},
		{name: "info.version missing", bundle: true,
			doc:  "openapi: 3.0.3\ninfo:\n  title: T\npaths: {}\n",
			want: []string{`d.yaml:3:3: error: info.version is missing: add it, as a string`}},
		{name: "openapi a number", bundle: true,
			doc:  "openapi: 3.0\ninfo: {title: T, version: '1'}\npaths: {}\n",
			want: []string{`d.yaml:1:10: error: openapi must be a 3.0.x, 3.1.x or 3.2.x version string, such as "3.0.3": 3.0 is written without quotes, so it is read as a number; quote it, as in "3.0.3"`}},
		{name: "swagger a number", bundle: true,
			doc:  "swagger: 2.0\ninfo: {title: T, version: '1'}\npaths: {}\n",
			want: []string{`d.yaml:1:10: error: swagger must be "2.0" (a string): this is the only Swagger version: 2.0 is written without quotes, so it is read as a number; quote it, as in "2.0"`}},
		{name: "a $ref to an address, YAML", bundle: true,
			doc:  "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n" + remote,
			want: []string{`d.yaml:7:23: warning: $ref https://example.com/r.yaml#/OK is an address, not a file`}},
		{name: "a $ref to an address, JSON in a single pass", bundle: true,
			doc:  `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": {"$ref": "https://example.com/r.yaml#/OK"}}}}, "/b": {"get": {"responses": {"200": {"$ref": "https://example.com/r.yaml#/OK"}}}}}}`,
			want: []string{`d.yaml:1:117: warning: $ref https://example.com/r.yaml#/OK is an address, not a file`}},
		{name: "a $ref to a file that is not there, bundle false",
			doc:  "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: 'gone.yaml#/OK'}\n        '201': {$ref: 'here.yaml#/OK'}\n",
			want: []string{`d.yaml:7:23: error: $ref gone.yaml#/OK: gone.yaml does not exist: add the file, or fix the $ref`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{"d.yaml": {Data: []byte(tc.doc)}, "here.yaml": {Data: []byte("OK: {description: ok}\n")}}
			var out discard
			p, err := Prepare(context.Background(), fsys, "d.yaml", PrepareOptions{Bundle: tc.bundle}, &out)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Release()
			var got []string
			for _, f := range p.Findings {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s: %s", f.File, f.Pos.Line, f.Pos.Col, f.Severity, f.Msg))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("findings %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("finding %q, want %q", got[i], tc.want[i])
				}
			}
		})
	}
}

// TestFindingsPointIntoReferencedFiles: a problem in a shared component
// written in another file is reported there, not in the bundle.
func TestFindingsPointIntoReferencedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "openapi.yaml"), []byte(op2("        - {name: id, in: path, required: true, type: string}\n        - $ref: 'common/params.yaml#/limit'\n", "")), 0o644)
	os.MkdirAll(filepath.Join(dir, "common"), 0o755)
	os.WriteFile(filepath.Join(dir, "common", "params.yaml"), []byte("# paging\nlimit:\n  name: limit\n  in: query\n  type: integer\n  default: many\n"), 0o644)
	b := loadAndBundle(t, filepath.Join(dir, "openapi.yaml"))
	fs := Validate(b)
	if len(fs) != 1 || fs[0].File != "common/params.yaml" || fs[0].Pos.Line != 6 || fs[0].Pos.Col != 12 {
		t.Fatalf("findings %v, want one at common/params.yaml:6:12", fs)
	}
}

func TestOperationIsWhereItWasWritten(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"api/openapi.yaml":     {Data: []byte("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /books:\n    $ref: ./paths/books.yaml\n  /authors:\n    get:\n      responses: {'200': {description: ok}}\n")},
		"api/paths/books.yaml": {Data: []byte("get:\n  responses: {'200': {description: ok}}\npost:\n  responses: {'201': {description: ok}}\n")},
	}
	ctx := context.Background()
	doc, err := Load(ctx, fsys, "api/openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = Bundle(ctx, doc, BundleOptions{FS: fsys}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, method, file string
		line               int32
	}{
		{"/books", "POST", "api/paths/books.yaml", 3},
		{"/books", "get", "api/paths/books.yaml", 1},
		{"/authors", "GET", "api/openapi.yaml", 7},
		{"/authors", "DELETE", "", 0},
		{"/nowhere", "GET", "", 0},
	}
	for _, tc := range cases {
		op := Operation(doc, tc.path, tc.method)
		switch {
		case tc.file == "" && op != nil:
			t.Errorf("%s %s found at %v", tc.method, tc.path, op.KeyPos)
		case tc.file != "" && (op == nil || op.Value.Src == nil || op.Value.Src.Name != tc.file || op.KeyPos.Line != tc.line):
			t.Errorf("%s %s: %+v, want %s:%d", tc.method, tc.path, op, tc.file, tc.line)
		}
	}
}
