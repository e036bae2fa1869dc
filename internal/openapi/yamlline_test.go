package openapi

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestYAMLErrorsPointAtTheLine: a line indented wrongly inside a block
// mapping or sequence is reported at that line and its first column, not
// where the library says (the line where the collection starts), so that
// the annotation lands on the line to fix; also when indentation alone
// would point elsewhere (a plain scalar's continuation lines) or a block
// scalar's text is indented unevenly.
func TestYAMLErrorsPointAtTheLine(t *testing.T) {
	t.Parallel()
	var far strings.Builder
	far.WriteString("openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n")
	for i := range 50 {
		if i == 40 {
			far.WriteString("   bad: 1\n") // line 206
		}
		fmt.Fprintf(&far, "  /p%d:\n    get:\n      responses:\n        '200':\n          description: ok\n", i)
	}
	cases := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"a key between two levels", "openapi: 3.0.0\ninfo:\n  title: t\n version: '1'\n", 4, 2, "did not find expected key"},
		{"far below its mapping's start", far.String(), 206, 4, "did not find expected key"},
		{"an item between two levels",
			"openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n        - name: a\n          in: query\n       - name: b\n          in: query\n",
			8, 8, "did not find expected key"},
		{"after a block scalar with deeper lines",
			"openapi: 3.0.0\ninfo:\n  description: |\n    text\n        code\n\n    more\n  title: t\n version: '1'\n",
			9, 2, "did not find expected key"},
		{"after a plain scalar's uneven continuation lines",
			"openapi: 3.0.0\ninfo:\n  description: a long\n      text that goes\n     on here\n  contact:\n    name: n\n   url: u\n",
			8, 4, "did not find expected key"},
		{"an item of a sequence out of line",
			"openapi: 3.0.0\ntags:\n  - name: a\n  - name: b\n x: 1\n",
			5, 2, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("e.yaml", []byte(tc.in))
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a *LoadError", err)
			}
			if int(le.Pos.Line) != tc.line || int(le.Pos.Col) != tc.col || !strings.Contains(le.Msg, tc.msg) {
				t.Errorf("%v: want line %d, column %d, saying %q", err, tc.line, tc.col, tc.msg)
			}
		})
	}
}

// TestOtherYAMLErrorsKeepTheirLine: an error that is not about a block
// collection keeps the line the library gives.
func TestOtherYAMLErrorsKeepTheirLine(t *testing.T) {
	t.Parallel()
	_, err := Parse("e.yaml", []byte("openapi: 3.0.0\ninfo:\n  title: t\n  version: 'x\n"))
	var le *LoadError
	if !errors.As(err, &le) || le.Pos.Line != 4 || !strings.Contains(le.Msg, "invalid YAML") || strings.Contains(le.Msg, "indentation") {
		t.Errorf("error %v: want the library's line 4", err)
	}
}

// TestYAMLErrorLineInALargeFile: in a file too large to search by parsing
// it again up to line after line (17 parses of most of it would pass
// maxLineSearchBytes), the line is still found, by its indentation, and
// checked by two parses.
func TestYAMLErrorLineInALargeFile(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n")
	entry := func(i int) {
		fmt.Fprintf(&b, "  /p%d:\n    get:\n      responses:\n        '200':\n          description: ok\n", i)
	}
	i := 0
	for ; b.Len() < 3<<20; i++ {
		entry(i)
	}
	line := 5 + 5*i + 1
	b.WriteString("   bad: 1\n")
	for range 10 {
		entry(i)
		i++
	}
	if 17*b.Len()*9/10 < maxLineSearchBytes {
		t.Fatalf("%d bytes: small enough to search by parsing", b.Len())
	}
	_, err := Parse("big.yaml", []byte(b.String()))
	var le *LoadError
	if !errors.As(err, &le) || int(le.Pos.Line) != line || le.Pos.Col != 4 {
		t.Errorf("error %v, want line %d, column 4", err, line)
	}
}
