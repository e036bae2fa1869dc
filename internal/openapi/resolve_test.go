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
		if err != nil || n.Scalar() != fmt.Sprint(i) {
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

// TestStringsAsJSON: text is written as JSON: quotes, backslashes and
// control characters escaped, other characters as they are (U+FFFD too),
// and a byte that is not UTF-8 replaced by \ufffd, so the upload is always
// valid JSON. A value made by hand, with no source file, is written too.
func TestStringsAsJSON(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"q\"b\\n\nr\rt\t", `"q\"b\\n\nr\rt\t"`},
		{"\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`},
		{"é€😀\u2028", `"é€😀` + "\u2028" + `"`},
		{"\ufffd", `"` + "\ufffd" + `"`},
		{"a\x80b\xffc", `"a\ufffdb\ufffdc"`},
		{"\xe2\x82", `"\ufffd\ufffd"`},
	}
	for _, tc := range cases {
		got, err := Encode(NewScalar(String, tc.in), Limits{})
		if err != nil || string(got) != tc.want {
			t.Errorf("%q: %s %v, want %s", tc.in, got, err, tc.want)
		}
	}
}
