package apidiff

import (
	"fmt"
	"strings"
	"testing"
)

// TestLeanLeavesOutWhatNoCheckReads: a unit is given without the
// descriptions, summaries, examples and external docs of its objects, and
// with everything else as written: a member that is a name (a property, a
// header, a parameter called "description"), an extension, a default, and
// the lists of subschemas, which the library matches by their content.
func TestLeanLeavesOutWhatNoCheckReads(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		shape     shape
		in, want  string
		unchanged bool // want is in
	}{
		{"a schema's fields", schemaShape,
			`{"type":"object","description":"d","title":"T","example":{"a":1},"examples":[1],"externalDocs":{"url":"u"},"default":{"description":"kept"}}`,
			`{"type":"object","title":"T","default":{"description":"kept"}}`, false},
		{"properties are names", schemaShape,
			`{"properties":{"description":{"type":"string","description":"x"},"example":{"items":{"example":1}}}}`,
			`{"properties":{"description":{"type":"string"},"example":{"items":{}}}}`, false},
		{"nested schemas", schemaShape,
			`{"items":{"additionalProperties":{"not":{"description":"n"}},"description":"i"},"prefixItems":[{"description":"p"}]}`,
			`{"items":{"additionalProperties":{"not":{}}},"prefixItems":[{}]}`, false},
		{"subschemas as written", schemaShape,
			`{"oneOf":[{"type":"object","description":"x"}],"allOf":[{"description":"y"}],"anyOf":[{"example":1}],"description":"d"}`,
			`{"oneOf":[{"type":"object","description":"x"}],"allOf":[{"description":"y"}],"anyOf":[{"example":1}]}`, false},
		{"extensions as written", schemaShape,
			`{"x-foo":{"description":"d"},"description":"d"}`, `{"x-foo":{"description":"d"}}`, false},
		{"a path item", pathItemShape,
			`{"summary":"s","description":"d","parameters":[{"name":"description","in":"query","description":"d","example":1,"examples":{"a":{"value":1}},"schema":{"type":"string","example":"e"}}],` +
				`"get":{"summary":"s","description":"d","externalDocs":{"url":"u"},"operationId":"o","tags":["description"],` +
				`"requestBody":{"description":"b","content":{"application/json":{"example":{},"schema":{"description":"s"},"encoding":{"description":{"headers":{"description":{"description":"h"}}}}}}},` +
				`"responses":{"200":{"description":"ok","headers":{"description":{"description":"h","schema":{"type":"integer","description":"i"}}},` +
				`"content":{"application/json":{"examples":{"a":{"value":1}},"schema":{"$ref":"#/components/schemas/A","description":"y"}}},"links":{"l":{"description":"kept"}}}},` +
				`"callbacks":{"c":{"{$url}":{"post":{"description":"d","responses":{"200":{"description":"ok"}}}}}}}}`,
			`{"parameters":[{"name":"description","in":"query","schema":{"type":"string"}}],` +
				`"get":{"operationId":"o","tags":["description"],` +
				`"requestBody":{"content":{"application/json":{"schema":{},"encoding":{"description":{"headers":{"description":{}}}}}}},` +
				`"responses":{"200":{"headers":{"description":{"schema":{"type":"integer"}}},` +
				`"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}},"links":{"l":{"description":"kept"}}}},` +
				`"callbacks":{"c":{"{$url}":{"post":{"responses":{"200":{}}}}}}}}`, false},
		{"extensions of responses and callbacks as written", operationShape,
			`{"responses":{"x-r":{"description":"d"},"200":{"description":"ok"}},"callbacks":{"c":{"x-c":{"summary":"s"},"{$url}":{"summary":"s"}}}}`,
			`{"responses":{"x-r":{"description":"d"},"200":{}},"callbacks":{"c":{"x-c":{"summary":"s"},"{$url}":{}}}}`, false},
		{"a parameter that is a reference", parameterShape, `{"$ref":"#/components/parameters/P"}`, "", true},
		{"not an object", schemaShape, `true`, "", true},
		{"not JSON the walk reads", schemaShape, `{"description":"d",`, "", true},
		{"as written", asIs, `{"description":"d"}`, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := tc.want
			if tc.unchanged {
				want = tc.in
			}
			if got := string(lean([]byte("prefix,"), []byte(tc.in), tc.shape)); got != "prefix,"+want {
				t.Errorf("got  %s\nwant prefix,%s", got, want)
			}
		})
	}
}

// TestLeanComparesAsTheWhole: the library matches subschemas written
// inline by their whole content, descriptions too, and what they refer to
// with it: a description changed there, or in a schema a subschema refers
// to, is a different subschema, as the whole documents say. Elsewhere a
// changed description changes nothing.
func TestLeanComparesAsTheWhole(t *testing.T) {
	t.Parallel()
	doc := func(first, second, a, other string) []byte {
		return []byte(fmt.Sprintf(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/x":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"oneOf":[%s,%s]}}}}}}},
"/y":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/B"}}}}}}}},
"components":{"schemas":{"A":{"type":"string","description":%q},"B":{"type":"object","description":%q,"properties":{"n":{"type":"integer"}}}}}}`,
			first, second, a, other))
	}
	plain := `{"type":"object","properties":{"q":{"type":"string"}}}`
	other := `{"type":"object","properties":{"r":{"type":"string"}}}`
	cases := []struct {
		name       string
		base, head []byte
	}{
		{"a description in a subschema",
			doc(`{"type":"object","description":"one","properties":{"p":{"type":"string"}}}`, plain, "a", "b"),
			doc(`{"type":"object","description":"two","properties":{"p":{"type":"string"}}}`, other, "a", "b")},
		{"a description in what a subschema refers to",
			doc(`{"type":"object","properties":{"p":{"$ref":"#/components/schemas/A"}}}`, plain, "one", "b"),
			doc(`{"type":"object","properties":{"p":{"$ref":"#/components/schemas/A"}}}`, other, "two", "b")},
		{"a description elsewhere",
			doc(plain, other, "a", "one"),
			doc(plain, other, "a", "two")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !samePruned(t, tc.name, compact(tc.base), compact(tc.head)) {
				t.Errorf("not compared in parts: the test shows nothing")
			}
		})
	}
	// The library is given the units without the descriptions no check
	// reads, and with those a subschema reaches.
	for _, tc := range cases[1:] {
		b, errB := index(compact(tc.base))
		h, errH := index(compact(tc.head))
		if errB != nil || errH != nil {
			t.Fatal(errB, errH)
		}
		all := map[unitKey]bool{}
		for k := range h.units {
			all[k] = true
		}
		b.verbatim = verbatimUnits(all, b, h)
		h.verbatim = b.verbatim
		for _, placed := range []bool{false, true} {
			text, _, err := h.text(all, nil, placed)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == cases[1].name && !strings.Contains(string(text), `"two"`) {
				t.Errorf("%s: A's description left out, but a subschema reaches it: %s", tc.name, text)
			}
			if tc.name == cases[2].name && strings.Contains(string(text), `"two"`) {
				t.Errorf("%s: B's description given, which no check reads: %s", tc.name, text)
			}
		}
	}
	// The first two find that the subschemas changed, each its own way.
	for _, tc := range cases[:2] {
		r, err := Compare(compact(tc.base), compact(tc.head))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range r.Changes {
			ids = append(ids, c.ID)
		}
		if !strings.Contains(strings.Join(ids, " "), "one-of") {
			t.Errorf("%s: %v, want a change to the oneOf list", tc.name, ids)
		}
	}
}
