package openapi

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
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
		{"a quote inside a quoted value",
			"openapi: 3.0.0\ninfo:\n  title: t\n  description: 'it's here'\n  version: '1'\n",
			4, 3, "check the text after this line's closing quote or bracket"},
		{"double quotes inside a double-quoted value",
			"openapi: 3.0.0\ninfo:\n  title: t\n  summary: \"Get \"a\" thing\"\n",
			4, 3, "closing quote or bracket"},
		{"text after a flow sequence",
			"openapi: 3.0.0\ninfo:\n  title: t\n  x: [1, 2] y\n",
			4, 3, "closing quote or bracket"},
		{"text after a quoted item",
			"openapi: 3.0.0\ntags:\n  - 'a' b\n",
			3, 3, "closing quote or bracket"},
		{"on the first line, which the library leaves out",
			"openapi: '3.0.0' x\ninfo:\n  title: t\n",
			1, 1, "closing quote or bracket"},
		{"a key between two levels, said so",
			"openapi: 3.0.0\ninfo:\n  title: t\n version: '1'\n",
			4, 2, "check this line's indentation"},
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
// it again up to line after line (a bisection over its lines, each parse
// of at least half of it, would pass maxLineSearchBytes), the line is still found, by its indentation, and
// checked by two parses; also past a plain scalar whose continuation lines
// are indented unevenly, which open no level.
func TestYAMLErrorLineInALargeFile(t *testing.T) {
	testenv.Long(t) // parses 4 MiB of YAML several times
	t.Parallel()
	cases := []struct{ name, path string }{
		{"plain levels", ""},
		{"past a plain scalar's uneven lines", "  /x:\n    description: a\n           b\n         c\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			b.WriteString("openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n" + tc.path)
			entry := func(i int) {
				fmt.Fprintf(&b, "  /p%d:\n    get:\n      responses:\n        '200':\n          description: ok\n", i)
			}
			i := 0
			for ; b.Len() < 4<<20; i++ {
				entry(i)
			}
			line := strings.Count(b.String(), "\n") + 1
			b.WriteString("   bad: 1\n")
			for range 10 {
				entry(i)
				i++
			}
			if lines := strings.Count(b.String(), "\n"); bits.Len(uint(lines))*b.Len()/2 < maxLineSearchBytes {
				t.Fatalf("%d bytes: small enough to search by parsing", b.Len())
			}
			_, err := Parse("big.yaml", []byte(b.String()))
			var le *LoadError
			if !errors.As(err, &le) || int(le.Pos.Line) != line || le.Pos.Col != 4 {
				t.Errorf("error %v, want line %d, column 4", err, line)
			}
		})
	}
}

// TestUnevenLine: the guess at the line that breaks a block collection
// passes over the continuation lines of any scalar that is not a block
// scalar, however unevenly they are indented, and still finds a line
// between two levels below a key whose value is a collection.
func TestUnevenLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     int
	}{
		{"a plain scalar", "    description: a\n           b\n         c\n", 6},
		{"a quoted scalar", "    description: 'a\n           b\n         c'\n", 6},
		{"a double-quoted scalar", "    description: \"a\n           b\n         c\"\n", 6},
		{"an anchored scalar", "    description: &d a\n           b\n         c\n", 6},
		{"a tagged scalar", "    description: !!str a\n           b\n         c\n", 6},
		{"an item", "    tags:\n      - a\n           b\n         c\n", 7},
		{"a flow sequence", "    tags: [a,\n           b,\n         c]\n", 6},
		{"a block scalar", "    description: |\n           b\n         c\n", 6},
		{"an anchored mapping", "    x: &m\n        a: 1\n      b: 2\n", 5},
		{"a tagged mapping", "    x: !!map\n        a: 1\n      b: 2\n", 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := []byte("info:\n  x:\n" + tc.in + "   bad: 1\n")
			if got := unevenLine(data, lineEnds(data), 1); got != tc.want {
				t.Errorf("line %d, want %d in\n%s", got, tc.want, data)
			}
		})
	}
}

// TestUnevenLineLevels: which line the guess names in whole files: the
// first line indented between two open levels at or after from, none where
// every line returns to a level, and none inside a block scalar's text.
func TestUnevenLineLevels(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in   string
		from, want int
	}{
		{"siblings", "a:\n  b: 1\n  c: 1\n", 1, 0},
		{"back to an open level", "a:\n  b:\n    c: 1\n  d: 1\n", 1, 0},
		{"between two levels", "a:\n  b:\n    c: 1\n   d: 1\n", 1, 4},
		{"between two levels, from that line", "a:\n  b:\n    c: 1\n   d: 1\n", 4, 4},
		{"between two levels, before from", "a:\n  b:\n    c: 1\n   d: 1\n  e: 1\n", 5, 0},
		{"a block scalar's text at the top level", "a: |\n    t\n  u\nb: 1\n", 1, 0},
		{"a key level with a block scalar's key", "a:\n  b: |\n    t\n  c:\n    e: 1\n   f: 2\n", 1, 6},
		{"a document indented", "   a:\n     b: 1\n    c: 1\n", 1, 3},
		{"an item's content is a level", "a:\n  - b: 1\n    c: 1\n   d: 1\n", 1, 4},
		{"an item's content after spaces", "a:\n  -   b: 1\n      c: 1\n     d: 1\n", 1, 4},
		{"an empty item", "a:\n  -\n  - b\n c: 1\n", 1, 4},
		{"a dash that starts a word", "a:\n  -b: 1\n   c: 1\n", 1, 0},
		{"blanks at the end, no line end", "a:\n  b: 1\n  ", 1, 0},
	}
	for _, tc := range cases {
		data := []byte(tc.in)
		if got := unevenLine(data, lineEnds(data), tc.from); got != tc.want {
			t.Errorf("%s: line %d, want %d in\n%s", tc.name, got, tc.want, data)
		}
	}
}

// TestBlockScalarStart: a line's text that ends by starting a block
// scalar, with its indicators and a comment.
func TestBlockScalarStart(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{
		"description: |": true, "- >-": true, "key: |2+": true, "|": true, ">": true,
		"key: | # a comment": true, "key: a|": false, "key: x": false, "": false, "key: |x": false,
	} {
		if got := blockScalarStart([]byte(body)); got != want {
			t.Errorf("blockScalarStart(%q) = %v, want %v", body, got, want)
		}
	}
}

// TestLineEnds: the offsets just past each line, the last one's with or
// without its newline.
func TestLineEnds(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]int{"a\nb\n": {2, 4}, "a\nb": {2, 3}, "": nil, "\n": {1}} {
		if got := lineEnds([]byte(in)); !slices.Equal(got, want) {
			t.Errorf("lineEnds(%q) = %v, want %v", in, got, want)
		}
	}
}
