package publish

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
)

// TestWhereChangedWithoutAPlace: a change the comparison gives no place
// for is annotated where its operation is written, in the head, or in the
// base for one the change removed (a workspace path); else on the
// description's main file.
func TestWhereChangedWithoutAPlace(t *testing.T) {
	t.Parallel()
	load := func(doc string) *openapi.Node {
		t.Helper()
		root, err := openapi.Load(context.Background(), fstest.MapFS{"api/openapi.yaml": {Data: []byte(doc)}}, "api/openapi.yaml", openapi.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return root
	}
	head := load("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /books:\n    get:\n      responses: {'200': {description: ok}}\n")
	baseDoc := load("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /books:\n    get:\n      responses: {'200': {description: ok}}\n\n    delete:\n      responses: {'204': {description: gone}}\n")
	f := &flow{plan: &Plan{File: "api/openapi.yaml"}, head: &described{doc: head}}
	b := &base{dir: "checkout-base"}
	for _, tc := range []struct {
		name string
		ch   apidiff.Change
		want report.Where
	}{
		{"an operation in the head", apidiff.Change{Operation: "GET", Path: "/books"}, report.Where{File: "api/openapi.yaml", Line: 5, Col: 5}},
		{"an operation the change removed", apidiff.Change{Operation: "DELETE", Path: "/books"}, report.Where{File: "checkout-base/api/openapi.yaml", Line: 8, Col: 5}},
		{"an operation in neither", apidiff.Change{Operation: "PUT", Path: "/books"}, report.Where{File: "api/openapi.yaml"}},
		{"a change to no one operation", apidiff.Change{}, report.Where{File: "api/openapi.yaml"}},
	} {
		if got := f.whereChanged(tc.ch, b, baseDoc); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
