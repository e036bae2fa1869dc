package apidiff

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChangesArePlaced: a change the library places is given the JSON
// pointer of its place, in the side it is written in.
func TestChangesArePlaced(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "apidiff", "removed-operation")
	rep, err := Compare(bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Changes {
		if c.ID == "api-removed-without-deprecation" {
			if !strings.HasPrefix(c.BasePointer, "/paths/~1books~1{bookId}") {
				t.Errorf("the removed operation is placed at %q in the base", c.BasePointer)
			}
			return
		}
	}
	t.Fatalf("no removed operation among %+v", rep.Changes)
}

// TestOnlySeriousChangesAreAgreed: an ignore file agrees to breaking
// changes and warnings; an other change it names stays among the changes.
func TestOnlySeriousChangesAreAgreed(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "apidiff", "new-optional-parameter")
	rep, err := Compare(bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head")))
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Accept(strings.NewReader("GET /books added the new optional `query` request parameter `limit`\n")); err != nil {
		t.Fatal(err)
	}
	if len(rep.Accepted) != 0 || len(rep.Changes) != 1 {
		t.Errorf("accepted %+v, changes %+v: want the other change kept", rep.Accepted, rep.Changes)
	}
}

// TestOnlyBreakingChangesArePlaced: the changes are found without places,
// and the breaking changes (what annotations show) are placed by comparing
// their paths again, up to a bound of text: those beyond keep no place,
// and the report is otherwise the same.
func TestOnlyBreakingChangesArePlaced(t *testing.T) {
	t.Parallel()
	// Every parameter made required, every type changed; the same
	// components, so that the paths alone change.
	base := operations(40, false)
	head := bytes.Replace(operations(40, true), []byte(`"securitySchemes":{"key":{"type":"apiKey","in":"header","name":"X-Key"}}`), []byte(`"schemas":{"Old":{"type":"string"}}`), 1)
	// And an operation added: a change that is not breaking.
	head = bytes.Replace(head, []byte(`"paths":{`), []byte(`"paths":{"/new":{"get":{"responses":{"200":{"description":"ok"}}}},`), 1)
	b, _ := index(base)
	h, _ := index(head)
	p := prune(b, h)
	for _, tc := range []struct {
		name     string
		most     int
		allPlace bool
	}{{"ample", 1 << 30, true}, {"one part's worth", 4 << 10, false}} {
		rep, _, err := compareParts(context.Background(), b, h, p.keep, p.drop, nil, cutting{most: maxPartText})
		if err != nil {
			t.Fatal(err)
		}
		before := text(rep)
		place(context.Background(), rep, b, h, p.keep, p.drop, tc.most, 4<<10)
		if d := cmp.Diff(before, text(rep)); d != "" {
			t.Errorf("%s: placing changed the report:\n%s", tc.name, d)
		}
		placed, breaking := 0, 0
		for _, c := range rep.Changes {
			at := c.HeadPointer + c.BasePointer
			switch {
			case c.Level != Breaking && at != "":
				t.Errorf("%s: %s (%s) is placed at %q: only breaking changes are", tc.name, c.ID, c.Level, at)
			case c.Level == Breaking:
				breaking++
				if at != "" {
					placed++
				}
			}
		}
		if breaking == 0 || (placed == breaking) != tc.allPlace || placed == 0 {
			t.Errorf("%s: %d of %d breaking changes placed", tc.name, placed, breaking)
		}
	}
}

// TestPlacedInPathItemRefs: a change inside a path item given by $ref to
// components/pathItems (as a bundle lifts a path item from a file of its
// own), which the library reads again from an untyped value and places
// nowhere, is placed where the component writes it; a parameter that
// path item refers to keeps its own component's place.
func TestPlacedInPathItemRefs(t *testing.T) {
	t.Parallel()
	doc := func(values, required string) []byte {
		return []byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},` +
			`"paths":{"/users":{"$ref":"#/components/pathItems/us~1ers"}},` +
			`"components":{"pathItems":{"us/ers":{"get":{"parameters":[{"$ref":"#/components/parameters/Limit"},` +
			`{"name":"status","in":"query","schema":{"type":"string","enum":[` + values + `]}}],` +
			`"responses":{"200":{"description":"ok"}}}}},` +
			`"parameters":{"Limit":{"name":"limit","in":"query","required":` + required + `,"schema":{"type":"integer"}}}}}`)
	}
	for _, tc := range []struct {
		name       string
		base, head []byte
		id, want   string
	}{
		{"a value removed from the path item", doc(`"a","b"`, "false"), doc(`"a"`, "false"),
			"request-parameter-enum-value-removed", "/components/pathItems/us~1ers/get/parameters/1/schema/enum/1"},
		{"a parameter it refers to", doc(`"a"`, "false"), doc(`"a"`, "true"),
			"request-parameter-became-required", "/components/parameters/Limit/required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep, err := Compare(tc.base, tc.head)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Changes) != 1 || rep.Changes[0].ID != tc.id || rep.Changes[0].BasePointer != tc.want {
				t.Errorf("changes %+v, want one %s placed at %s in the base", rep.Changes, tc.id, tc.want)
			}
		})
	}
}
