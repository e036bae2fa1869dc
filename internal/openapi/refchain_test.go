package openapi

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestRefSiblingsKeptAlongChains: the keywords written beside a $ref
// (description, and summary in OpenAPI 3.1) are the author's word where the
// $ref stands, and none may be lost at any hop of a chain of $refs: across
// files, inside one, through a bare $ref, inlined, lifted, or in the single
// pass. Following the chain in the upload from where the first $ref stood,
// the keyword's values met are those written, nearest first; where a target
// is inlined, the nearest sibling takes the place of those it stands for.
func TestRefSiblingsKeptAlongChains(t *testing.T) {
	t.Parallel()
	const v30 = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\n"
	const v31 = "openapi: 3.1.0\ninfo: {title: T, version: \"1\"}\n"
	ok := "      responses: {'200': {description: ok}}\n"
	cases := []struct {
		name  string
		files map[string]string
		use   string // JSON pointer to where the first $ref stood
		key   string
		want  []string
	}{
		{"parameters across three files", map[string]string{
			"openapi.yaml": v30 + "paths:\n  /a:\n    get:\n      parameters:\n        - {$ref: 'a.yaml#/P', description: D0}\n" + ok,
			"a.yaml":       "P: {$ref: 'b.yaml#/P', description: D1}\n",
			"b.yaml":       "P: {name: q, in: query, description: D2, schema: {type: string}}\n",
		}, "/paths/~1a/get/parameters/0", "description", []string{"D0", "D1", "D2"}},
		{"a schema chain inside a referenced file, 3.1", map[string]string{
			"openapi.yaml": v31 + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: 'a.yaml#/S', description: D0}\n",
			"a.yaml":       "S: {$ref: '#/T', description: D1}\nT: {type: string, description: D2}\n",
		}, "/paths/~1a/get/responses/200/content/application~1json/schema", "description", []string{"D0", "D1", "D2"}},
		{"a bare $ref in the middle", map[string]string{
			"openapi.yaml": v30 + "paths:\n  /a:\n    get:\n      parameters:\n        - {$ref: 'a.yaml#/P', description: D0}\n" + ok,
			"a.yaml":       "P: {$ref: 'b.yaml#/P'}\n",
			"b.yaml":       "P: {name: q, in: query, description: D2, schema: {type: string}}\n",
		}, "/paths/~1a/get/parameters/0", "description", []string{"D0", "D2"}},
		{"summaries of path items, 3.1", map[string]string{
			"openapi.yaml": v31 + "paths:\n  /a: {$ref: 'p.yaml#/A', summary: S0}\n",
			"p.yaml":       "A: {$ref: '#/B', summary: S1}\nB:\n  summary: S2\n  get:\n    responses: {'200': {description: ok}}\n",
		}, "/paths/~1a", "summary", []string{"S0", "S1", "S2"}},
		{"a response summary and description, 3.1", map[string]string{
			"openapi.yaml": v31 + "paths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: 'r.yaml#/R', summary: S0}\n",
			"r.yaml":       "R: {$ref: '#/Q', summary: S1}\nQ: {description: ok}\n",
		}, "/paths/~1a/get/responses/200", "summary", []string{"S0", "S1"}},
		{"a Swagger 2.0 header, inlined", map[string]string{
			"swagger.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        200:\n          description: ok\n          headers:\n            X-Rate: {$ref: 'h.yaml#/H', description: D0}\n",
			"h.yaml":       "H: {$ref: '#/H2', description: D1}\nH2: {type: integer, description: D2}\n",
		}, "/paths/~1a/get/responses/200/headers/X-Rate", "description", []string{"D0"}},
		{"a component that is a $ref with a sibling", map[string]string{
			"openapi.yaml": v30 + "paths:\n  /a:\n    get:\n      parameters:\n        - {$ref: '#/components/parameters/P', description: D0}\n" + ok +
				"components:\n  parameters:\n    P: {$ref: 'a.yaml#/P', description: D1}\n",
			"a.yaml": "P: {name: q, in: query, description: D2, schema: {type: string}}\n",
		}, "/paths/~1a/get/parameters/0", "description", []string{"D0", "D1", "D2"}},
		{"one JSON file, the single pass", map[string]string{
			"openapi.json": `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/A","description":"D0"}}}}}}}},` +
				`"components":{"schemas":{"A":{"$ref":"#/components/schemas/B","description":"D1"},"B":{"type":"string","description":"D2"}}}}`,
		}, "/paths/~1a/get/responses/200/content/application~1json/schema", "description", []string{"D0", "D1", "D2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var main string
			for name := range tc.files {
				if strings.HasPrefix(name, "openapi") || strings.HasPrefix(name, "swagger") {
					main = name
				}
			}
			p := prepareWith(t, mapFS(tc.files), main, PrepareOptions{Bundle: true})
			if p.err != "" {
				t.Fatal(p.err)
			}
			var doc any
			if err := json.Unmarshal(p.body, &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			at := tc.use
			for hop := 0; hop < 10; hop++ {
				v, ok := resolveJSON(doc, at)
				obj, isObj := v.(map[string]any)
				if !ok || !isObj {
					t.Fatalf("%s leads to nothing in the upload:\n%s", at, p.body)
				}
				if s, ok := obj[tc.key].(string); ok {
					got = append(got, s)
				}
				ref, ok := obj["$ref"].(string)
				if !ok {
					break
				}
				at = strings.TrimPrefix(ref, "#")
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s met along the chain: %q, want %q\n%s", tc.key, got, tc.want, p.body)
			}
		})
	}
}

// TestPathParametersMustBeRequired: a path parameter is always required,
// so one with required: false, without required, or with required as a
// string is an error, wherever it is written (the operation, the path
// item, a shared parameter behind a $ref) and whichever way the
// description is read (the tree, the single pass).
func TestPathParametersMustBeRequired(t *testing.T) {
	t.Parallel()
	variants := []struct {
		name, required string // the parameter's required member, as JSON
		wantError      bool
	}{
		{"required: true", `,"required":true`, false},
		{"required: false", `,"required":false`, true},
		{"without required", ``, true},
		{"required: \"true\", a string", `,"required":"true"`, true},
	}
	places := []struct {
		name string
		doc  func(param string) string
	}{
		{"in the operation", func(p string) string {
			return `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a/{id}":{"get":{"parameters":[` + p + `],"responses":{"200":{"description":"ok"}}}}}}`
		}},
		{"in the path item", func(p string) string {
			return `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a/{id}":{"parameters":[` + p + `],"get":{"responses":{"200":{"description":"ok"}}}}}}`
		}},
		{"shared, behind a $ref", func(p string) string {
			return `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a/{id}":{"get":{"parameters":[{"$ref":"#/components/parameters/Id"}],"responses":{"200":{"description":"ok"}}}}},"components":{"parameters":{"Id":` + p + `}}}`
		}},
		{"Swagger 2.0", func(p string) string {
			p = strings.Replace(p, `"schema":{"type":"string"}`, `"type":"string"`, 1)
			return `{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{"/a/{id}":{"get":{"parameters":[` + p + `],"responses":{"200":{"description":"ok"}}}}}}`
		}},
	}
	for _, pl := range places {
		for _, v := range variants {
			param := `{"name":"id","in":"path"` + v.required + `,"schema":{"type":"string"}}`
			doc := pl.doc(param)
			for _, treeOnly := range []bool{false, true} { // the single pass, and the tree
				t.Run(pl.name+"/"+v.name+"/"+map[bool]string{false: "single pass", true: "tree"}[treeOnly], func(t *testing.T) {
					t.Parallel()
					p := prepareWith(t, mapFS(map[string]string{"openapi.json": doc}), "openapi.json", PrepareOptions{Bundle: true, TreeOnly: treeOnly})
					if p.err != "" {
						t.Fatal(p.err)
					}
					if p.onePass == treeOnly {
						t.Errorf("single pass: %v, want %v", p.onePass, !treeOnly)
					}
					n := 0
					for _, f := range p.findings {
						if f.Severity == Error && strings.Contains(f.Msg, "is in path, so it must have required: true") {
							n++
						}
					}
					if want := map[bool]int{true: 1, false: 0}[v.wantError]; n != want {
						t.Errorf("%d errors for required, want %d: %v", n, want, p.findings)
					}
				})
			}
		}
	}
}
