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
