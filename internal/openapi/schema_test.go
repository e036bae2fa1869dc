package openapi

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSchemaFaultsInEveryFile: a description split over two files with a
// fault of each kind in each: every fault is an error at its file, line
// and column, all of them in one run; what another version of OpenAPI
// allows (a boolean schema before 3.1, a list of types) is a warning.
func TestSchemaFaultsInEveryFile(t *testing.T) {
	t.Parallel()
	want := []string{
		"openapi.yaml:9:44: error: maximum must be a number, not a string",
		"openapi.yaml:16:63: error: multipleOf must be a number greater than 0, not a number (0)",
		"openapi.yaml:20:23: error: type \"arry\" is not one of string, number, integer, boolean, array, object (did you mean array?)",
		"openapi.yaml:28:25: error: required inside a schema lists the names of the properties that must be present",
		"openapi.yaml:30:49: error: maxLength must be a whole number, 0 or more, not a string",
		"openapi.yaml:31:29: error: type \"strng\" is not one of",
		"openapi.yaml:31:47: error: minLength must be a whole number, 0 or more, not a number (-1)",
		"openapi.yaml:37:13: error: type \"objekt\" is not one of string, number, integer, boolean, array, object (did you mean object?)",
		"openapi.yaml:38:19: error: properties must be a mapping of names to schemas, not an array",
		"openapi.yaml:39:54: error: maxItems must be a whole number, 0 or more, not a number (2.5)",
		"openapi.yaml:41:13: error: enum lists no value",
		"openapi.yaml:42:17: error: nullable must be true or false, not a number (1)",
		"openapi.yaml:43:14: error: anyOf must be a list of schemas, not an object",
		"shared.yaml:4:32: error: enum must be a list of the allowed values",
		"shared.yaml:7:20: error: required lists property names, which are strings, not a number (7)",
		"shared.yaml:9:32: error: enum lists no value",
		"shared.yaml:11:14: error: oneOf lists no schema",
		"shared.yaml:13:14: error: allOf must be a list of schemas, not an object",
		"shared.yaml:14:36: error: nullable must be true or false, not a string",
		"shared.yaml:18:11: warning: true and false are schemas from OpenAPI 3.1 on: before, write {} for any value, not true",
		"shared.yaml:21:14: warning: items is one schema, for every item of the array, not a list",
		"shared.yaml:22:22: warning: type is a single type name before OpenAPI 3.1, not a list",
		"shared.yaml:23:46: warning: exclusiveMinimum is true or false before OpenAPI 3.1 (it makes minimum exclusive), not a number (0): write minimum: 10 and exclusiveMinimum: true in place of exclusiveMinimum: 10",
		"shared.yaml:24:10: error: a schema must be a mapping of keywords, such as {type: string}, not a number",
		"shared.yaml:25:15: error: type \"objekt\" is not one of",
		"shared.yaml:26:24: error: properties must be a mapping of names to schemas, not a number (5)",
		"shared.yaml:26:37: error: minItems must be a whole number, 0 or more, not a string",
	}
	got := prepareWith(t, os.DirFS("testdata/schemas/faults"), "openapi.yaml", PrepareOptions{Bundle: true})
	if got.err != "" {
		t.Fatal(got.err)
	}
	var errs []string
	for _, f := range got.findings {
		errs = append(errs, f.String())
	}
	for _, w := range want {
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, w) }) {
			t.Errorf("no finding %s", w)
		}
	}
	if len(errs) != len(want) {
		t.Errorf("%d findings, want %d:\n%s", len(errs), len(want), strings.Join(errs, "\n"))
	}
}

// TestSchemaKeywordsEachVersionAllows: descriptions that use the schema
// keywords of OpenAPI 3.0 and of 3.1 (JSON Schema 2020-12: type lists with
// null, const, prefixItems, $defs, examples lists, unevaluatedProperties,
// boolean schemas) pass, read as YAML and, written as JSON, in the single
// pass.
func TestSchemaKeywordsEachVersionAllows(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ok30.yaml", "ok31.yaml"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile("testdata/schemas/" + name)
			if err != nil {
				t.Fatal(err)
			}
			root, err := Parse(name, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range Validate(root) {
				t.Errorf("finding in a valid description: %s", f)
			}
			// ok31's $ref into $defs leads where the single pass keeps
			// nothing: the tree does the work, and agree says both agree.
			fsys := fstest.MapFS{"a.json": {Data: root.AppendJSON(nil)}}
			agree(t, fsys, "a.json", Limits{})
			if run := prepareWith(t, fsys, "a.json", PrepareOptions{}); len(run.findings) > 0 {
				t.Errorf("findings in the single pass: %v", run.findings)
			}
		})
	}
}

// TestSchemaRules: each rule, by version, read as YAML (the tree) and as
// JSON (the single pass, which must find the same).
func TestSchemaRules(t *testing.T) {
	t.Parallel()
	const (
		v2  = "swagger: \"2.0\"\n"
		v30 = "openapi: 3.0.3\n"
		v31 = "openapi: 3.1.0\n"
	)
	cases := []struct {
		name, head, schema string
		sev                Severity // "": no finding
		msg                string
	}{
		{"3.0 type names", v30, "{type: integer}", "", ""},
		{"3.0 misspelt type", v30, "{type: Integer}", Error, `type "Integer" is not one of string, number, integer, boolean, array, object (did you mean integer?)`},
		{"3.0 type not a string", v30, "{type: 5}", Error, "type must be a type name, one of string, number, integer, boolean, array, object, not a number (5)"},
		{"3.0 null is 3.1's", v30, "{type: \"null\"}", Warning, `type "null" came with OpenAPI 3.1: before 3.1 write nullable: true`},
		{"3.0 nullable", v30, "{type: string, nullable: true}", "", ""},
		{"3.0 nullable not a boolean", v30, "{type: string, nullable: \"true\"}", Error, "nullable must be true or false, not a string"},
		{"3.0 exclusiveMaximum a boolean", v30, "{maximum: 5, exclusiveMaximum: true}", "", ""},
		{"3.0 exclusiveMaximum a number", v30, "{exclusiveMaximum: 5}", Warning, "exclusiveMaximum is true or false before OpenAPI 3.1 (it makes maximum exclusive), not a number (5): write maximum: 10 and exclusiveMaximum: true in place of exclusiveMaximum: 10"},
		{"3.0 exclusiveMaximum a string", v30, "{exclusiveMaximum: \"5\"}", Error, "exclusiveMaximum is true or false before OpenAPI 3.1 (it makes maximum exclusive), not a string"},
		{"3.0 boolean schema", v30, "{items: false}", Warning, "true and false are schemas from OpenAPI 3.1 on: before, write {} for any value, not false"},
		{"3.0 additionalProperties boolean", v30, "{additionalProperties: true}", "", ""},
		{"3.0 additionalProperties a string", v30, "{additionalProperties: yes}", Error, "a schema must be a mapping of keywords, such as {type: string}, not a string"},
		{"3.0 a schema that is a string", v30, "string", Error, "a schema must be a mapping of keywords"},
		{"3.0 siblings of a $ref are ignored", v30, "{$ref: '#/components/schemas/S', type: objekt}", "", ""},
		{"3.0 not a list", v30, "{not: [{type: string}]}", Warning, "a schema must be a mapping of keywords, such as {type: string}, not an array"},
		{"3.0 a null schema", v30, "{items: null}", Warning, "a schema must be a mapping of keywords, such as {type: string}, not a null"},
		{"3.0 file is 2.0's", v30, "{type: file}", Warning, `type "file" is Swagger 2.0's: from OpenAPI 3.0 on, a file is {type: string, format: binary}`},
		{"3.0 type list", v30, "{type: [string, \"null\"]}", Warning, "type is a single type name before OpenAPI 3.1, not a list"},
		{"3.0 anyOf empty", v30, "{anyOf: []}", Error, "anyOf lists no schema"},
		{"3.0 negative maxProperties", v30, "{maxProperties: -2}", Error, "maxProperties must be a whole number, 0 or more, not a number (-2)"},
		{"3.0 whole number written with a point", v30, "{minItems: 2.0}", "", ""},
		{"3.0 minimum a number", v30, "{minimum: -1.5e3}", "", ""},
		{"3.0 multipleOf negative", v30, "{multipleOf: -1}", Error, "multipleOf must be a number greater than 0"},
		{"3.0 required empty", v30, "{required: []}", "", ""},
		{"3.0 required a string", v30, "{required: id}", Error, "required inside a schema lists the names of the properties that must be present, such as required: [id, name], not a string"},
		{"3.0 required: true in a schema", v30, "{required: true}", Error, "required inside a schema lists the names of the properties that must be present, such as required: [id, name], not a boolean (true): required: true belongs on a parameter or a request body"},
		{"3.0 a number of 40 characters is shown", v30, "{minLength: -123456789012345678901234567890123456789}", Error, "not a number (-123456789012345678901234567890123456789)"},
		{"3.0 a type that starts like none", v30, "{type: sx}", Error, `type "sx" is not one of string, number, integer, boolean, array, object`},
		{"3.0 a type that is the start of one", v30, "{type: obj}", Error, `type "obj" is not one of string, number, integer, boolean, array, object (did you mean object?)`},
		{"3.0 a type that is one and more", v30, "{type: arrays}", Error, `type "arrays" is not one of string, number, integer, boolean, array, object (did you mean array?)`},
		{"3.0 exclusiveMinimum a string", v30, "{exclusiveMinimum: []}", Error, "exclusiveMinimum is true or false before OpenAPI 3.1 (it makes minimum exclusive), not an array"},
		{"3.1 exclusiveMaximum a string", v31, "{exclusiveMaximum: \"5\"}", Error, "exclusiveMaximum is the bound itself from OpenAPI 3.1 on, a number, not a string"},
		{"3.1 file is 2.0's", v31, "{type: file}", Warning, `type "file" is Swagger 2.0's`},
		{"3.1 file in a type list", v31, "{type: [file, string]}", Warning, `type "file" is Swagger 2.0's`},
		{"3.0 file in a type list", v30, "{type: [file]}", Warning, "type is a single type name before OpenAPI 3.1, not a list"},
		{"2.0 nullable not a boolean has no effect either", v2, "{type: string, nullable: 1}", Warning, "nullable has no effect in Swagger 2.0"},
		{"3.1 nullable not a boolean has no effect either", v31, "{type: string, nullable: 1}", Warning, "nullable has no effect from OpenAPI 3.1 on"},
		{"3.0 null unquoted", v30, "{type: null}", Warning, `type names null, not the type name "null": write it quoted, "null"`},
		{"2.0 object", v2, "{type: object}", "", ""},
		{"3.0 enum empty", v30, "{enum: []}", Error, "enum lists no value"},
		{"3.0 enum of one", v30, "{enum: [red]}", "", ""},
		{"3.0 enum a mapping", v30, "{enum: {a: 1}}", Error, "enum must be a list of the allowed values"},
		{"3.0 properties a string", v30, "{properties: name}", Error, "properties must be a mapping of names to schemas, not a string"},
		{"3.0 property that is a number", v30, "{properties: {a: 1}}", Error, "a schema must be a mapping of keywords"},
		{"3.0 JSON Schema keywords it does not define are left alone", v30, "{const: 1, prefixItems: 5, $defs: 3, minContains: -1}", "", ""},
		{"3.0 extensions are left alone", v30, "{x-enum: red, x-type: 5}", "", ""},
		{"3.0 examples are data", v30, "{example: {type: objekt, required: true}}", "", ""},
		{"3.1 null and type lists", v31, "{type: [string, \"null\"]}", "", ""},
		{"3.1 type list with a misspelt name", v31, "{type: [string, nul]}", Error, `type "nul" is not one of string, number, integer, boolean, array, object, null (did you mean null?)`},
		{"3.1 null unquoted in a type list", v31, "{type: [integer, null]}", Warning, `type names null, not the type name "null": write it quoted, "null"`},
		{"3.1 type list empty", v31, "{type: []}", Error, "type lists no type"},
		{"3.1 type list with a name twice", v31, "{type: [string, string]}", Warning, `type lists "string" twice`},
		{"3.1 boolean schemas", v31, "{items: false, properties: {a: true}, not: true}", "", ""},
		{"3.1 a boolean schema at the top", v31, "true", "", ""},
		{"3.1 exclusiveMinimum a number", v31, "{exclusiveMinimum: 0}", "", ""},
		{"3.1 exclusiveMinimum a boolean", v31, "{minimum: 0, exclusiveMinimum: true}", Warning, "exclusiveMinimum is the bound itself from OpenAPI 3.1 on, a number, not a boolean (true): write exclusiveMinimum: 10 in place of minimum: 10 and exclusiveMinimum: true"},
		{"3.1 nullable has no effect", v31, "{type: string, nullable: true}", Warning, `nullable has no effect from OpenAPI 3.1 on: add "null" to type`},
		{"3.1 const, $defs, examples", v31, "{const: 1, $defs: {a: {type: string}}, examples: [1, 2]}", "", ""},
		{"3.1 $defs not a mapping", v31, "{$defs: [1]}", Error, "$defs must be a mapping of names to schemas, not an array"},
		{"3.1 prefixItems empty", v31, "{prefixItems: []}", Error, "prefixItems lists no schema"},
		{"3.1 items a list", v31, "{items: [{type: string}]}", Warning, "items is one schema, for every item of the array, not a list: for a schema for each position, use prefixItems"},
		{"3.1 siblings of a $ref are checked", v31, "{$ref: '#/components/schemas/S', type: objekt}", Error, `type "objekt" is not one of`},
		{"3.1 maxContains a string", v31, "{maxContains: \"2\"}", Error, "maxContains must be a whole number, 0 or more, not a string"},
		{"3.1 unevaluatedProperties a string", v31, "{unevaluatedProperties: no}", Error, "a schema must be a mapping of keywords, such as {type: string}, or true or false, not a string"},
		{"2.0 file", v2, "{type: file}", "", ""},
		{"2.0 null is 3.1's", v2, "{type: \"null\"}", Warning, `type "null" came with OpenAPI 3.1: in Swagger 2.0 write x-nullable: true`},
		{"2.0 misspelt type", v2, "{type: fille}", Error, `type "fille" is not one of string, number, integer, boolean, array, object, file (did you mean file?)`},
		{"2.0 unlike any type", v2, "{type: dict}", Error, `type "dict" is not one of string, number, integer, boolean, array, object, file`},
		{"2.0 type list", v2, "{type: [string]}", Warning, "type is a single type name in Swagger 2.0, not a list"},
		{"2.0 nullable has no effect", v2, "{type: string, nullable: true}", Warning, "nullable has no effect in Swagger 2.0"},
		{"2.0 items a list", v2, "{items: [{type: string}]}", "", ""},
		{"2.0 maxLength a string", v2, "{maxLength: \"80\"}", Error, "maxLength must be a whole number, 0 or more, not a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := tc.head + "info: {title: T, version: \"1\"}\npaths: {}\n"
			if tc.head == v2 {
				doc += "definitions:\n  S: " + tc.schema + "\n"
			} else {
				doc += "components:\n  schemas:\n    S: " + tc.schema + "\n"
			}
			root, err := Parse("d.yaml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var found []Finding
			for _, f := range Validate(root) {
				if f.Pos.Line >= 5 { // the schema's line, not the description's
					found = append(found, f)
				}
			}
			switch {
			case tc.sev == "" && len(found) > 0:
				t.Errorf("findings in a valid schema: %v", found)
			case tc.sev != "" && (len(found) != 1 || found[0].Severity != tc.sev || !strings.Contains(found[0].Msg, tc.msg) || found[0].File != "d.yaml"):
				t.Errorf("findings %v, want one %s: %s", found, tc.sev, tc.msg)
			}
			// The same schema in one line of JSON, in the single pass.
			fsys := fstest.MapFS{"d.json": {Data: root.AppendJSON(nil)}}
			if !agree(t, fsys, "d.json", Limits{}) {
				t.Error("the single pass did not do the work")
			}
		})
	}
}

// TestSchemaRulesInSwagger2Parameters: a Swagger 2.0 parameter or header
// carries its restrictions itself: they are checked, its type and
// required with the parameter.
func TestSchemaRulesInSwagger2Parameters(t *testing.T) {
	t.Parallel()
	doc := op2("        - {name: id, in: path, required: true, type: string, maxLength: \"8\"}\n        - {name: f, in: query, type: array, items: {type: string, enum: []}}\n",
		"responses:\n  R:\n    description: r\n    headers:\n      X-A: {type: integer, minimum: \"1\"}\n")
	root, err := Parse("d.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Validate(root) {
		if f.Severity == Error {
			got = append(got, fmt.Sprintf("%d: %s", f.Pos.Line, f.Msg))
		}
	}
	want := []string{
		"7: maxLength must be a whole number, 0 or more, not a string",
		"8: enum lists no value: list the allowed values, or remove enum",
		"15: minimum must be a number, not a string",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSchemaFaultsThroughAnAlias: a YAML alias puts one schema in several
// places; its fault is reported once, where it is written.
func TestSchemaFaultsThroughAnAlias(t *testing.T) {
	t.Parallel()
	doc := "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A: &a {type: objekt}\n    B: *a\n    C: {items: *a}\n"
	root, err := Parse("d.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Validate(root) {
		got = append(got, f.String())
	}
	want := []string{`d.yaml:6:18: error: type "objekt" is not one of string, number, integer, boolean, array, object (did you mean object?)`}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShownValues: a message shows a number or a boolean as written, up to
// 40 characters, and of a longer one or a string only its kind.
func TestShownValues(t *testing.T) {
	t.Parallel()
	n40 := "-" + strings.Repeat("9", 39)
	for _, tc := range []struct {
		v    Node
		want string
	}{
		{*NewScalar(Number, n40), "a number (" + n40 + ")"},
		{*NewScalar(Number, n40+"9"), "a number"},
		{*NewScalar(Bool, "false"), "a boolean (false)"},
		{*NewScalar(String, "secret"), "a string"},
		{Node{Kind: Array}, "an array"},
	} {
		if got := shown(&tc.v); got != tc.want {
			t.Errorf("shown(%s %q) = %q, want %q", tc.v.Kind, tc.v.Scalar(), got, tc.want)
		}
	}
}

// TestDidYouMean: a name is suggested when two letters or more of its
// start agree, whichever is the longer; else the one a letter or two
// (a name of six letters or more) away, a swap counting one; and a long
// text is read no further than a name goes.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	names := []string{"string", "number", "integer", "object"}
	if got, want := didYouMean("frmdta", []string{"body", "formData"}), " (did you mean formData?)"; got != want {
		t.Errorf("didYouMean(frmdta) = %q, want %q: a name is compared in any case, and named as written", got, want)
	}
	for s, want := range map[string]string{
		"sx":                                  "",
		"x":                                   "",
		"st":                                  " (did you mean string?)",
		"obj":                                 " (did you mean object?)",
		"objects":                             " (did you mean object?)",
		"Integer":                             " (did you mean integer?)",
		"nmber":                               " (did you mean number?)",
		"ojbect":                              " (did you mean object?)",
		"strnig":                              " (did you mean string?)",
		"intgre":                              " (did you mean integer?)",
		"numbre":                              " (did you mean number?)",
		"nmbr":                                " (did you mean number?)",
		"nm":                                  "",
		"text":                                "",
		"":                                    "",
		"q" + strings.Repeat("x", 1<<20):      "",
		"number" + strings.Repeat("s", 1<<20): " (did you mean number?)",
	} {
		if got := didYouMean(s, names); got != want {
			t.Errorf("didYouMean(%.20q) = %q, want %q", s, got, want)
		}
	}
}

// TestArenaReusesItsBlocks: the scratch arena holds n nodes in blocks of
// 1024, and a release lets the next nodes reuse them, emptied.
func TestArenaReusesItsBlocks(t *testing.T) {
	t.Parallel()
	var a arena
	start := a.mark()
	first := a.node()
	first.Kind = Object
	first.SetFields(append(first.Fields(), Field{Key: "k"}))
	for range 2999 {
		a.node()
	}
	if len(a.blocks) != 3 {
		t.Errorf("3000 nodes in %d blocks, want 3", len(a.blocks))
	}
	a.release(start)
	if again := a.node(); again != first || again.Kind != 0 || len(again.Fields()) != 0 {
		t.Errorf("after a release: node %p (%v, %d fields), want %p emptied", again, again.Kind, len(again.Fields()), first)
	}
	for range 2999 {
		a.node()
	}
	if len(a.blocks) != 3 {
		t.Errorf("3000 nodes again in %d blocks, want the same 3", len(a.blocks))
	}
}
