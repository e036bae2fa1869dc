package publish

import (
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
)

// TestRemovalsPlacedInHeadOrBase: a removal is annotated in the head at the
// deepest place the head still has, but no higher than its path item or
// component; when the head has nothing left of that, where base-file wrote
// it, or, for a base commit, whose lines are not the head's, at the head's
// nearest place (its paths, its components' section) saying where the base
// had it. A pointer into a list reaches its first item, and one past its
// end stops at the list.
func TestRemovalsPlacedInHeadOrBase(t *testing.T) {
	t.Parallel()
	head := parseTree(t, "api/openapi.json", `{
  "openapi": "3.0.3",
  "paths": {
    "/books": {
      "get": {
        "parameters": [
          {"name": "a", "in": "query"},
          {"name": "b", "in": "query"}
        ]
      }
    }
  },
  "components": {
    "schemas": {
      "Book": {"type": "object"}
    }
  }
}`)
	baseDoc := parseTree(t, "api/openapi.json", `{
  "openapi": "3.0.3",
  "paths": {
    "/books": {
      "get": {
        "parameters": [
          {"name": "a", "in": "query"},
          {"name": "b", "in": "query"},
          {"name": "c", "in": "query"}
        ]
      }
    },
    "/shelves": {
      "get": {"summary": "gone"}
    }
  },
  "components": {
    "schemas": {
      "Book": {"type": "object", "properties": {"title": {"type": "string"}}},
      "Shelf": {
        "type": "object",
        "properties": {"name": {"type": "string"}}
      }
    }
  }
}`)
	inHead := func(w report.Where) map[bool]report.Where { return map[bool]report.Where{true: w, false: w} }
	cases := []struct {
		name   string
		change apidiff.Change
		want   map[bool]report.Where // by whether the base is base-file
		note   string                // for a base commit
	}{
		{"a removed property of a component the head has: at the component",
			apidiff.Change{BasePointer: "/components/schemas/Book/properties/title"},
			inHead(report.Where{File: "api/openapi.json", Line: 15, Col: 7}), ""},
		{"a removed component: in base-file where it wrote it, else at the head's nearest place",
			apidiff.Change{BasePointer: "/components/schemas/Shelf/properties/name"},
			map[bool]report.Where{true: {File: "api/openapi.json", Line: 22, Col: 24}, false: {File: "api/openapi.json", Line: 14, Col: 5}},
			"removed: the base has it at line 22 of api/openapi.json"},
		{"a removed path: in base-file where it wrote it, else at the head's paths",
			apidiff.Change{BasePointer: "/paths/~1shelves/get"},
			map[bool]report.Where{true: {File: "api/openapi.json", Line: 14, Col: 7}, false: {File: "api/openapi.json", Line: 3, Col: 3}},
			"removed: the base has it at line 14 of api/openapi.json"},
		{"the last item of a list removed: at the list",
			apidiff.Change{BasePointer: "/paths/~1books/get/parameters/2"},
			inHead(report.Where{File: "api/openapi.json", Line: 6, Col: 9}), ""},
		{"the head's form of the change, past the end of a list: at the list",
			apidiff.Change{HeadPointer: "/paths/~1books/get/parameters/2", BasePointer: "/paths/~1books/get/parameters/2"},
			inHead(report.Where{File: "api/openapi.json", Line: 6, Col: 9}), ""},
		{"a change in the first item of a list: at the item",
			apidiff.Change{HeadPointer: "/paths/~1books/get/parameters/0/in"},
			inHead(report.Where{File: "api/openapi.json", Line: 7, Col: 25}), ""},
		{"nowhere in either",
			apidiff.Change{BasePointer: "/paths/~1authors/get"},
			nil, ""},
	}
	for _, baseFile := range []bool{true, false} {
		p := &placer{f: &flow{head: &described{doc: head, bundled: true}}, b: &base{ownFile: baseFile}, baseDoc: func() *openapi.Node { return baseDoc }}
		for _, tc := range cases {
			want, note := tc.want[baseFile], tc.note
			if baseFile {
				note = ""
			}
			got, gotNote, settled := p.where(tc.change)
			if got != want || gotNote != note || settled != (tc.want != nil) {
				t.Errorf("%s (base-file %v): %+v %q, %v; want %+v %q, %v", tc.name, baseFile, got, gotNote, settled, want, note, tc.want != nil)
			}
		}
	}
}

// TestNoTreeNoPlace: a head or base that has no tree (a description not
// read, as when the base is the head byte for byte) places no change, so
// that it is annotated at its operation rather than at no line.
func TestNoTreeNoPlace(t *testing.T) {
	t.Parallel()
	p := &placer{f: &flow{head: &described{bundled: true}}, b: &base{}}
	for _, ch := range []apidiff.Change{
		{HeadPointer: "/info"},
		{BasePointer: "/info"},
		{HeadPointer: "/paths/~1books", BasePointer: "/paths/~1books"},
	} {
		if w, _, settled := p.where(ch); settled {
			t.Errorf("%+v placed at %+v without a tree", ch, w)
		}
	}
}

func parseTree(t *testing.T, name, text string) *openapi.Node {
	t.Helper()
	n, err := openapi.Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
