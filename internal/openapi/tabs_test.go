package openapi

import (
	"strings"
	"testing"
)

// TestTabStartingABlockScalar: a block scalar whose first line starts with
// a tab after its indentation is read as YAML reads it, the tab as text,
// wherever its header is and however far it is indented (an indentation
// indicator says 1 to 9 spaces: farther is the library's error).
func TestTabStartingABlockScalar(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string // want "": the library's error stays
	}{
		{"header on the first line", "x-a: |\n  \tcode\nopenapi: 3.0.0\n", `{"x-a":"\tcode\n","openapi":"3.0.0"}`},
		{"the tab's line last, with no line end", "openapi: 3.0.0\nx-a: |\n  \tcode", `{"openapi":"3.0.0","x-a":"\tcode"}`},
		{"blank lines after a header on the first line", "x-a: |\n\n  \tcode\nopenapi: 3.0.0\n", `{"x-a":"\n\tcode\n","openapi":"3.0.0"}`},
		{"blank lines after a header below the first line", "openapi: 3.0.0\nx-a: >-\n\n\n   \tcode\n", `{"openapi":"3.0.0","x-a":"\n\n\tcode"}`},
		{"indented one space", "openapi: 3.0.0\nx-a: |\n \tcode\n", `{"openapi":"3.0.0","x-a":"\tcode\n"}`},
		{"indented nine spaces", "openapi: 3.0.0\nx-a: |\n         \tcode\n", `{"openapi":"3.0.0","x-a":"\tcode\n"}`},
		{"indented ten spaces", "openapi: 3.0.0\nx-a: |\n          \tcode\n", ""},
		{"a header alone on its line, its parent on a line above", "openapi: 3.0.0\nx-a:\n  |\n    \tcode\n", ""},
		{"in a sequence", "openapi: 3.0.0\nx-a:\n- |\n  \tcode\n", `{"openapi":"3.0.0","x-a":["\tcode\n"]}`},
	} {
		root, err := Parse("a.yaml", []byte(tc.in))
		switch {
		case tc.want == "" && (err == nil || !strings.Contains(err.Error(), "tab")):
			t.Errorf("%s: %v, want the library's error about a tab", tc.name, err)
		case tc.want != "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "":
			if got := string(root.AppendJSON(nil)); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
			}
		}
	}
}

// TestTabbedBlockLines: the line the library names may be the last, and
// the header may be the first.
func TestTabbedBlockLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		line int
		want string
	}{
		{"x-a: |\n  \tcode", 1, "x-a: |2\n  \tcode"},
		{"x-a: |\n  \tcode", 2, "x-a: |2\n  \tcode"},
		{"x-a: |\n  \tcode", 3, ""},
		{"x-a: |\n  \tcode", 0, ""},
	} {
		got, ok := indentTabbedBlock([]byte(tc.in), tc.line)
		if string(got) != tc.want || ok != (tc.want != "") {
			t.Errorf("indentTabbedBlock(%q, %d) = %q, %v; want %q", tc.in, tc.line, got, ok, tc.want)
		}
	}
}
