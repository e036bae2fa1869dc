package openapi

import (
	"errors"
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

// TestDocumentBound: a document may be exactly DocumentBytes as the limits
// reckon it (see TestJSONSizes), not a byte more; the refusal names the
// description at its top.
func TestDocumentBound(t *testing.T) {
	t.Parallel()
	root, err := Parse("openapi.yaml", []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx: [a, {b: c}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	size := jsonSize(root, nil)
	if _, err := Encode(root, Limits{DocumentBytes: size}); err != nil {
		t.Errorf("DocumentBytes %d, the document's size: %v", size, err)
	}
	_, err = Encode(root, Limits{DocumentBytes: size - 1})
	var le *LoadError
	if !errors.As(err, &le) || !errors.Is(err, ErrLimit) || le.File != "openapi.yaml" || le.Pos.Line != 1 || le.Pos.Col != 1 {
		t.Errorf("DocumentBytes %d: %v, want ErrLimit for openapi.yaml at 1:1", size-1, err)
	}
}
