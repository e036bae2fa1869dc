package publish

import (
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
)

// TestRemovalsPlacedInHeadOrBase: a removal is annotated in the head at the
// deepest place the head still has, but no higher than its path item or
// component; when the head has nothing left of that, where the base wrote
// it, as a workspace path. A pointer into a list reaches its first item,
// and one past its end stops at the list.
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
	p := &placer{f: &flow{head: &described{doc: head, bundled: true}}, b: &base{dir: "checkout"}, baseDoc: func() *openapi.Node { return baseDoc }}
	cases := []struct {
		name    string
		change  apidiff.Change
		want    report.Where
		settled bool // false: left to the change's operation
	}{
		{"a removed property of a component the head has: at the component",
			apidiff.Change{BasePointer: "/components/schemas/Book/properties/title"},
			report.Where{File: "api/openapi.json", Line: 15, Col: 7}, true},
		{"a removed component: where the base wrote it",
			apidiff.Change{BasePointer: "/components/schemas/Shelf/properties/name"},
			report.Where{File: "checkout/api/openapi.json", Line: 22, Col: 24}, true},
		{"a removed path: where the base wrote it",
			apidiff.Change{BasePointer: "/paths/~1shelves/get"},
			report.Where{File: "checkout/api/openapi.json", Line: 14, Col: 7}, true},
		{"the last item of a list removed: at the list",
			apidiff.Change{BasePointer: "/paths/~1books/get/parameters/2"},
			report.Where{File: "api/openapi.json", Line: 6, Col: 9}, true},
		{"the head's form of the change, past the end of a list: at the list",
			apidiff.Change{HeadPointer: "/paths/~1books/get/parameters/2", BasePointer: "/paths/~1books/get/parameters/2"},
			report.Where{File: "api/openapi.json", Line: 6, Col: 9}, true},
		{"a change in the first item of a list: at the item",
			apidiff.Change{HeadPointer: "/paths/~1books/get/parameters/0/in"},
			report.Where{File: "api/openapi.json", Line: 7, Col: 25}, true},
		{"nowhere in either",
			apidiff.Change{BasePointer: "/paths/~1authors/get"},
			report.Where{}, false},
	}
	for _, tc := range cases {
		got, settled := p.where(tc.change)
		if got != tc.want || settled != tc.settled {
			t.Errorf("%s: %+v, %v; want %+v, %v", tc.name, got, settled, tc.want, tc.settled)
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
		if w, settled := p.where(ch); settled {
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
