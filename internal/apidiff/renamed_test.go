package apidiff

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRenamedPathParams: paths that differ from the other side's only in
// the names of their path parameters are the same path, as the library
// reads them: left out of what it is given when nothing else differs (a
// pair the index must not give the library, whose cost for many grows as
// their number squared), and given to it otherwise; the report is the
// whole documents' either way.
func TestRenamedPathParams(t *testing.T) {
	t.Parallel()
	const v2, v3 = `"swagger":"2.0"`, `"openapi":"3.0.3"`
	param := func(version, name, typ string) string {
		if version == v2 {
			return fmt.Sprintf(`{"name":%q,"in":"path","required":true,"type":%q}`, name, typ)
		}
		return fmt.Sprintf(`{"name":%q,"in":"path","required":true,"schema":{"type":%q}}`, name, typ)
	}
	// doc is a description with paths, each "template|params" where params
	// are the operation's, and "/other", the same on both sides.
	doc := func(version string, paths ...string) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, `{%s,"info":{"title":"t","version":"1"},"paths":{"/other":{"get":{"responses":{"200":{"description":"ok"}}}}`, version)
		for _, p := range paths {
			key, params, _ := strings.Cut(p, "|")
			fmt.Fprintf(&b, `,%q:{"get":{"parameters":[%s],"responses":{"200":{"description":"ok"}}}}`, key, params)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	for _, version := range []string{v2, v3} {
		p := func(name, typ string) string { return param(version, name, typ) }
		cases := []struct {
			name       string
			base, head []byte
			same       bool // nothing to give the library
		}{
			{"renamed", doc(version, "/a/{id}|"+p("id", "string")), doc(version, "/a/{key}|"+p("key", "string")), true},
			{"renamed, two", doc(version, "/a/{x}/b/{y}|"+p("x", "string")+","+p("y", "integer")),
				doc(version, "/a/{p}/b/{q}|"+p("p", "string")+","+p("q", "integer")), true},
			{"names swapped", doc(version, "/a/{x}/b/{y}|"+p("x", "string")+","+p("y", "integer")),
				doc(version, "/a/{y}/b/{x}|"+p("y", "string")+","+p("x", "integer")), true},
			{"renamed, type changed", doc(version, "/a/{id}|"+p("id", "string")), doc(version, "/a/{key}|"+p("key", "integer")), false},
			{"renamed in the path only", doc(version, "/a/{id}|"+p("id", "string")), doc(version, "/a/{key}|"+p("id", "string")), false},
			{"types swapped", doc(version, "/a/{x}/b/{y}|"+p("x", "string")+","+p("y", "integer")),
				doc(version, "/a/{y}/b/{x}|"+p("x", "string")+","+p("y", "integer")), false},
			{"beside a path both have", doc(version, "/a/{id}|"+p("id", "string"), "/a/{z}/c|"+p("z", "string")),
				doc(version, "/a/{key}|"+p("key", "string"), "/a/{z}/c|"+p("z", "string")), true},
			{"beside a path changed", doc(version, "/a/{id}|"+p("id", "string"), "/a/{z}/c|"+p("z", "string")),
				doc(version, "/a/{key}|"+p("key", "string"), "/a/{z}/c|"+p("z", "integer")), false},
		}
		// A parameter given by a $ref, which names the path's parameter
		// where the path item does not show it: the library reads it.
		ref := `{"$ref":"#/components/parameters/P"}`
		shared := func(doc []byte) []byte {
			return []byte(strings.TrimSuffix(string(doc), "}") + `,"components":{"parameters":{"P":` + p("id", "string") + `}}}`)
		}
		if version == v2 {
			ref = `{"$ref":"#/parameters/P"}`
			shared = func(doc []byte) []byte {
				return []byte(strings.TrimSuffix(string(doc), "}") + `,"parameters":{"P":` + p("id", "string") + `}}`)
			}
		}
		cases = append(cases, []struct {
			name       string
			base, head []byte
			same       bool
		}{
			{"parameter by $ref", shared(doc(version, "/a/{key}|"+ref)), shared(doc(version, "/a/{id}|"+ref)), false},
			{"parameter by $ref, renamed", shared(doc(version, "/a/{id}|"+ref)), shared(doc(version, "/a/{key}|"+ref)), false},
			{"parameter undeclared", doc(version, "/a/{id}|"), doc(version, "/a/{key}|"), true},
		}...)
		if version == v3 {
			// A link to the renamed path, from a path both have.
			linked := func(name string) []byte {
				out := string(doc(version, "/a/{"+name+"}|"+p(name, "string")))
				return []byte(strings.Replace(out, `"description":"ok"}}}}`,
					`"description":"ok","links":{"l":{"operationRef":"#/paths/~1a~1{`+name+`}/get"}}}}}}`, 1))
			}
			cases = append(cases, struct {
				name       string
				base, head []byte
				same       bool
			}{"linked to", linked("id"), linked("key"), false})
			// A path item given by a $ref, whose parameters the library reads.
			itemRef := func(path string) []byte {
				return []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"` + path + `":{"$ref":"#/components/pathItems/X"}},` +
					`"components":{"pathItems":{"X":{"get":{"parameters":[` + p("id", "string") + `],"responses":{"200":{"description":"ok"}}}}}}}`)
			}
			cases = append(cases, struct {
				name       string
				base, head []byte
				same       bool
			}{"path item by $ref", itemRef("/a/{key}"), itemRef("/a/{id}"), false})
		}
		for _, tc := range cases {
			t.Run(version+" "+tc.name, func(t *testing.T) {
				t.Parallel()
				b, err := index(tc.base)
				if err != nil {
					t.Fatal(err)
				}
				h, err := index(tc.head)
				if err != nil {
					t.Fatal(err)
				}
				if got := prune(b, h).same; got != tc.same {
					t.Errorf("nothing to compare: %t, want %t", got, tc.same)
				}
				whole, err := compareWhole(context.Background(), tc.base, tc.head, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Compare(tc.base, tc.head)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(comparable(whole), comparable(got)); d != "" {
					t.Errorf("the report differs from the whole's (-whole +got):\n%s", d)
				}
				if tc.same && len(whole.Changes) > 0 {
					t.Errorf("the whole documents have changes: %v", comparable(whole))
				}
			})
		}
	}
}

// renamedPair is the pair of a Swagger 2.0 description of n paths
// /x<i>/{id} and the same with each parameter renamed {key}: no change to
// the API.
func renamedPair(n int) (base, head []byte) {
	doc := func(param string) []byte {
		var b strings.Builder
		b.WriteString(`{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"/x%d/{%s}":{"get":{"parameters":[{"name":%q,"in":"path","required":true,"type":"string"}],"responses":{"200":{"description":"ok"}}}}`, i, param, param)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	return doc("id"), doc("key")
}

// BenchmarkCompareRenamedParams: 4,000 paths whose parameter is renamed,
// which the library, given them, compares in time that grows as their
// number squared in a part (6 s on a shared 2-core machine, where 0.2 s
// once the index knows them for the same paths).
func BenchmarkCompareRenamedParams(b *testing.B) {
	base, head := renamedPair(4000)
	for b.Loop() {
		rep, err := Compare(base, head)
		if err != nil || rep.Total() != 0 {
			b.Fatalf("%d changes, error %v: want none", rep.Total(), err)
		}
	}
}
