package apidiff

import (
	"fmt"
	"testing"

	"github.com/docs-publish/docs-publish/internal/growthtest"
)

// TestAcceptLinearInChangesAndLines: n breaking changes, each to a path of
// its own (in capitals, as a path may be), against n ignore lines, each
// about another path, cost in proportion to n, not n times n: a change to
// a path is matched against the lines about that path only. A pull request
// writes both the description and the ignore file. Not parallel: it counts
// allocations.
func TestAcceptLinearInChangesAndLines(t *testing.T) {
	growthtest.Linear(t, "ignore lines against changes", 500, func(n int) {
		r := &Report{}
		text := make([]string, n)
		for i := range n {
			r.Changes = append(r.Changes, Change{ID: "api-removed-without-deprecation", Level: Breaking, Operation: "GET", Path: fmt.Sprintf("/Books%d", i), Text: "api removed without deprecation"})
			r.scopes = append(r.scopes, "")
			text[i] = fmt.Sprintf("GET /authors%d api removed without deprecation", i)
		}
		r.accept(newIgnores(text))
		if len(r.Changes) != n {
			t.Fatalf("%d changes left, want %d", len(r.Changes), n)
		}
	})
}

// TestAcceptReadsEachLineOnce: n breaking changes to components (as a
// description that removes n schemas makes), or to one operation, against
// n ignore lines that each may agree to any of them, read the lines in
// proportion to n, not n times n: the changes' texts are looked for in
// each line at once. Not parallel: it reads a counter the package shares.
func TestAcceptReadsEachLineOnce(t *testing.T) {
	cases := []struct {
		name   string
		change func(i int) (Change, string)
		line   string // given i
	}{
		{
			"components",
			func(i int) (Change, string) {
				return Change{ID: "schema-removed", Level: Breaking, Text: fmt.Sprintf("removed the schema 'Pet%d'", i)}, "components"
			},
			"components removed the schema 'Owner%d'",
		},
		{
			"one operation",
			func(i int) (Change, string) {
				return Change{ID: "response-property-removed", Level: Breaking, Operation: "GET", Path: "/pets", Text: fmt.Sprintf("removed the property 'a%d'", i)}, ""
			},
			"GET /pets removed the property 'b%d'",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			growthtest.LinearCount(t, tc.name, "bytes of lines read", 500, func(n int) uint64 {
				r := &Report{}
				text := make([]string, n)
				for i := range n {
					c, scope := tc.change(i)
					r.Changes, r.scopes = append(r.Changes, c), append(r.scopes, scope)
					text[i] = fmt.Sprintf(tc.line, i)
				}
				before := lineBytesRead.Load()
				r.accept(newIgnores(text))
				if len(r.Changes) != n {
					t.Fatalf("%d changes left, want %d", len(r.Changes), n)
				}
				return uint64(lineBytesRead.Load() - before)
			})
		})
	}
}

// BenchmarkAcceptComponents: 8,000 schemas removed against 8,000 ignore
// lines about components, none of which agrees.
func BenchmarkAcceptComponents(b *testing.B) {
	const n = 8000
	text := make([]string, n)
	for i := range n {
		text[i] = fmt.Sprintf("components removed the schema 'Owner%d'", i)
	}
	for b.Loop() {
		r := &Report{}
		for i := range n {
			r.Changes = append(r.Changes, Change{ID: "schema-removed", Level: Breaking, Text: fmt.Sprintf("removed the schema 'Pet%d'", i)})
			r.scopes = append(r.scopes, "components")
		}
		r.accept(newIgnores(text))
	}
}
