package publish

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
)

// TestWhereChangedWithoutAPlace: a change the comparison gives no place
// for is annotated where its operation is written, in the head; one the
// change removed, in base-file, or, for a base commit's, whose lines are
// not the head's, at its path in the head saying where the base had it
// (at the head's `paths:` when the path went too, on the main file when
// the head has no `paths:`); else on the description's main file.
func TestWhereChangedWithoutAPlace(t *testing.T) {
	t.Parallel()
	load := func(name, doc string) *openapi.Node {
		t.Helper()
		root, err := openapi.Load(context.Background(), fstest.MapFS{name: {Data: []byte(doc)}}, name, openapi.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return root
	}
	head := load("api/openapi.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /books:\n    get:\n      responses: {'200': {description: ok}}\n")
	noPaths := load("api/openapi.yaml", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n")
	baseDoc := load("base/openapi.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /books:\n    get:\n      responses: {'200': {description: ok}}\n\n    delete:\n      responses: {'204': {description: gone}}\n  /authors:\n    delete:\n      responses: {'204': {description: gone}}\n")
	removed := apidiff.Change{Operation: "DELETE", Path: "/books"}
	const note = "removed: the base has it at line 8 of base/openapi.yaml"
	for _, tc := range []struct {
		name     string
		ch       apidiff.Change
		head     *openapi.Node
		baseFile bool
		want     report.Where
		note     string
	}{
		{"an operation in the head", apidiff.Change{Operation: "GET", Path: "/books"}, head, false, report.Where{File: "api/openapi.yaml", Line: 5, Col: 5}, ""},
		{"an operation removed, base-file", removed, head, true, report.Where{File: "base/openapi.yaml", Line: 8, Col: 5}, ""},
		{"an operation removed, a base commit", removed, head, false, report.Where{File: "api/openapi.yaml", Line: 4, Col: 3}, note},
		{"an operation and its path removed, a base commit", apidiff.Change{Operation: "DELETE", Path: "/authors"}, head, false, report.Where{File: "api/openapi.yaml", Line: 3, Col: 1}, "removed: the base has it at line 11 of base/openapi.yaml"},
		{"an operation removed, a base commit, a head with no paths", removed, noPaths, false, report.Where{File: "api/openapi.yaml"}, note},
		{"an operation in neither", apidiff.Change{Operation: "PUT", Path: "/books"}, head, false, report.Where{File: "api/openapi.yaml"}, ""},
		{"a change to no one operation", apidiff.Change{}, head, false, report.Where{File: "api/openapi.yaml"}, ""},
	} {
		p := &placer{f: &flow{plan: &Plan{File: "api/openapi.yaml"}, head: &described{doc: tc.head}}, b: &base{ownFile: tc.baseFile}, baseDoc: func() *openapi.Node { return baseDoc }}
		if got, note := p.atOperation(tc.ch); got != tc.want || note != tc.note {
			t.Errorf("%s: %+v %q, want %+v %q", tc.name, got, note, tc.want, tc.note)
		}
	}
}

// TestBaseNotReadAgain: the base's tree is let go while comparing and read
// again, for its tree alone, for a change the head has no place for; a
// base that cannot be read again (gone since) costs the change its place
// in the base only: it is annotated on the main file, and the log says why.
func TestBaseNotReadAgain(t *testing.T) {
	t.Parallel()
	doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /books:\n    get:\n      responses: {'200': {description: ok}}\n"
	fsys := fstest.MapFS{"base/openapi.yaml": {Data: []byte(doc + "    delete:\n      responses: {'204': {description: gone}}\n")}}
	head, err := openapi.Load(context.Background(), fstest.MapFS{"api/openapi.yaml": {Data: []byte(doc)}}, "api/openapi.yaml", openapi.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	removed := apidiff.Change{Operation: "DELETE", Path: "/books"}
	for _, tc := range []struct {
		name string
		gone bool
		want report.Where
	}{
		{"read again", false, report.Where{File: "base/openapi.yaml", Line: 7, Col: 5}},
		{"gone since", true, report.Where{File: "api/openapi.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := &recorder{}
			f := &flow{plan: &Plan{File: "api/openapi.yaml"}, head: &described{doc: head}, rep: rep}
			b := &base{fsys: fsys, name: "base/openapi.yaml", label: "base-file base/openapi.yaml", ownFile: true}
			if tc.gone {
				b.fsys = fstest.MapFS{}
			}
			again := f.letBaseGo(context.Background(), b, nil)
			defer again.drop()
			p := &placer{f: f, b: b, baseDoc: again.doc}
			if got, _ := p.atOperation(removed); got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
			if said := strings.Contains(rep.log(), "base-file base/openapi.yaml cannot be read again"); said != tc.gone {
				t.Errorf("the log says the base cannot be read again: %v, want %v\n%s", said, tc.gone, rep.log())
			}
			// Placing needs the tree alone: the base's JSON is not kept.
			if d := again.desc; d != nil && (d.held != nil || d.body != nil) {
				t.Errorf("the base read again keeps its JSON (%d bytes held)", len(d.held))
			}
		})
	}
}
