package apidiff

import (
	"path/filepath"
	"strings"
	"testing"
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
