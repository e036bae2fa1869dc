package openapi

import (
	"fmt"
	"strings"
	"testing"
)

// TestResolveInALargeObject: Resolve finds the members of an object large
// enough to be looked up through an index, and reports one it lacks.
func TestResolveInALargeObject(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\nx:\n")
	for i := range indexFrom + 8 {
		fmt.Fprintf(&b, "  k%d: %d\n", i, i)
	}
	root, err := Parse("a.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, indexFrom, indexFrom + 7} {
		n, err := Resolve(root, fmt.Sprintf("/x/k%d", i))
		if err != nil || n.Scalar != fmt.Sprint(i) {
			t.Errorf("/x/k%d: %v %v, want %d", i, n, err, i)
		}
	}
	if n, err := Resolve(root, "/x/none"); err == nil {
		t.Errorf("/x/none: %v, want an error", n)
	}
}
