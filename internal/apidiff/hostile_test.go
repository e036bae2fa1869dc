package apidiff

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// valid2 and valid3 are descriptions that each hostile case spoils in one
// place: every kind of value the library reads into an object.
const valid2 = `{"swagger":"2.0","info":{"title":"T","version":"1"},
"paths":{
 "/a":{"get":{"parameters":[{"name":"q","in":"query","type":"string"}],
  "responses":{"200":{"description":"ok","headers":{"X":{"type":"string"}},"schema":{"$ref":"#/definitions/S"}}}}},
 "/b":{"post":{"parameters":[{"name":"body","in":"body","schema":{"type":"object","properties":{"p":{"type":"string"}}}}],
  "responses":{"200":{"description":"ok"}}}}},
"definitions":{"S":{"type":"object","properties":{"p":{"type":"string"}}}},
"parameters":{"P":{"name":"p","in":"query","type":"string"}},
"responses":{"R":{"description":"r"}}}`

const valid3 = `{"openapi":"3.0.3","info":{"title":"T","version":"1"},
"paths":{
 "/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"string"}}],
  "responses":{"200":{"description":"ok","headers":{"X":{"schema":{"type":"string"}}},
   "content":{"application/json":{"schema":{"$ref":"#/components/schemas/S"}}}}}}},
 "/b":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"p":{"type":"string"}}}}}},
  "responses":{"200":{"description":"ok"}}}}},
"components":{"schemas":{"S":{"type":"object","properties":{"p":{"type":"string"}}}},
 "parameters":{"P":{"name":"p","in":"query","schema":{"type":"string"}}},
 "headers":{"H":{"schema":{"type":"string"}}},
 "responses":{"R":{"description":"r"}},
 "requestBodies":{"B":{"content":{"application/json":{"schema":{"type":"string"}}}}}}}`

// spoil is doc with the value at path (keys, or indexes of lists) set to
// null.
func spoil(t *testing.T, doc string, path ...any) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	at := v
	for i, p := range path {
		last := i == len(path)-1
		switch k := p.(type) {
		case string:
			m := at.(map[string]any)
			if last {
				m[k] = nil
			} else {
				at = m[k]
			}
		case int:
			l := at.([]any)
			if last {
				l[k] = nil
			} else {
				at = l[k]
			}
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHostileNulls: a null where the library expects an object, in either
// side, in Swagger 2.0 and OpenAPI 3, is compared or is an error of the
// comparison, never a panic (which, in a goroutine of the comparison,
// ends the whole run, and this test's binary).
func TestHostileNulls(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  string
		path []any
	}{
		{"2.0 paths", valid2, []any{"paths"}},
		{"2.0 path item", valid2, []any{"paths", "/a"}},
		{"2.0 operation", valid2, []any{"paths", "/b", "post"}},
		{"2.0 parameter", valid2, []any{"paths", "/a", "get", "parameters", 0}},
		{"2.0 parameters", valid2, []any{"paths", "/a", "get", "parameters"}},
		{"2.0 responses", valid2, []any{"paths", "/a", "get", "responses"}},
		{"2.0 response", valid2, []any{"paths", "/a", "get", "responses", "200"}},
		{"2.0 header", valid2, []any{"paths", "/a", "get", "responses", "200", "headers", "X"}},
		{"2.0 body schema", valid2, []any{"paths", "/b", "post", "parameters", 0, "schema"}},
		{"2.0 property", valid2, []any{"definitions", "S", "properties", "p"}},
		{"2.0 definition", valid2, []any{"definitions", "S"}},
		{"2.0 shared parameter", valid2, []any{"parameters", "P"}},
		{"2.0 shared response", valid2, []any{"responses", "R"}},
		{"3 paths", valid3, []any{"paths"}},
		{"3 path item", valid3, []any{"paths", "/a"}},
		{"3 operation", valid3, []any{"paths", "/b", "post"}},
		{"3 parameter", valid3, []any{"paths", "/a", "get", "parameters", 0}},
		{"3 parameter schema", valid3, []any{"paths", "/a", "get", "parameters", 0, "schema"}},
		{"3 responses", valid3, []any{"paths", "/a", "get", "responses"}},
		{"3 response", valid3, []any{"paths", "/a", "get", "responses", "200"}},
		{"3 header", valid3, []any{"paths", "/a", "get", "responses", "200", "headers", "X"}},
		{"3 media type", valid3, []any{"paths", "/a", "get", "responses", "200", "content", "application/json"}},
		{"3 request body", valid3, []any{"paths", "/b", "post", "requestBody"}},
		{"3 body schema", valid3, []any{"paths", "/b", "post", "requestBody", "content", "application/json", "schema"}},
		{"3 property", valid3, []any{"components", "schemas", "S", "properties", "p"}},
		{"3 schema", valid3, []any{"components", "schemas", "S"}},
		{"3 shared parameter", valid3, []any{"components", "parameters", "P"}},
		{"3 shared header", valid3, []any{"components", "headers", "H"}},
		{"3 shared response", valid3, []any{"components", "responses", "R"}},
		{"3 shared request body", valid3, []any{"components", "requestBodies", "B"}},
		{"3 components", valid3, []any{"components"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bad, good := spoil(t, tc.doc, tc.path...), []byte(tc.doc)
			// A Swagger 2.0 side against an OpenAPI 3 one is compared whole.
			other := []byte(valid3)
			if tc.doc == valid3 {
				other = []byte(valid2)
			}
			for _, pair := range []struct {
				name       string
				base, head []byte
			}{{"base", bad, good}, {"head", good, bad}, {"base, other version", bad, other}, {"head, other version", other, bad}} {
				// A report, or an error (the library's own, or a
				// *PanicError): the test fails by the panic.
				if _, err := Compare(pair.base, pair.head); err != nil {
					t.Logf("%s: %v", pair.name, err)
				}
			}
		})
	}
}

// panicky is a context whose Err panics: a bug in the comparison's own
// code, which asks it first.
type panicky struct{ context.Context }

func (panicky) Err() error { panic("a bug") }

// TestPanicSaysWhose: a panic of the library's over a null says to look for
// nulls; one in the comparison's own code says it is an internal error to
// report, not a fault of the description's. Either is a *PanicError.
func TestPanicSaysWhose(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		compare  func() (*Report, error)
		internal bool
		want     string
	}{
		{"the library's", func() (*Report, error) {
			return Compare(spoil(t, valid2, "paths", "/a"), []byte(valid2))
		}, false, "as it does on a null where an object belongs"},
		{"our own", func() (*Report, error) {
			return CompareAccepting(panicky{context.Background()}, []byte(valid2), []byte(valid3), nil)
		}, true, "the comparison failed with an internal error (a bug): please report it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := tc.compare()
			var pe *PanicError
			if !errors.As(err, &pe) || pe.Internal != tc.internal || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v: want a *PanicError (internal %t) that says %q", err, tc.internal, tc.want)
			}
		})
	}
}
