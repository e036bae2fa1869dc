package openapi

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestYAMLSyntaxErrorsPointAtTheCharacter: the library's syntax errors
// are reported at the character the user must look at (an unclosed
// bracket or quote, the ': ' or character that cannot be where it is),
// saying what to do; where that place is not certain, at the line the
// library means (a parser error's line is 0-based), never past the end.
func TestYAMLSyntaxErrorsPointAtTheCharacter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in  string
		line, col int32
		msg       string
	}{
		{"an unclosed [ on the first line", "a: [1, 2\n", 1, 4, "the [ at 1:4 is not closed: close it with ]"},
		{"an unclosed [ on the second line", "openapi: 3.0.0\ninfo: [\n  title: x\n", 2, 7, "the [ at 2:7 is not closed"},
		{"an unclosed [ further down", "openapi: 3.0.0\ninfo:\n  title: x\n  version: [1\npaths: {}\n", 4, 12, "quote a value that holds brackets"},
		{"an unclosed {", "a: 1\nb: {x: 1\nc: 2\n", 2, 4, "the { at 2:4 is not closed: close it with }"},
		{"an unclosed { on the first line", "a: {x: 1\n", 1, 4, "the { at 1:4"},
		{"an outer [ unclosed, the inner closed", "a: 1\nb: [1, [2, 3]\nc: 2\n", 2, 4, "the [ at 2:4"},
		{"both unclosed", "a: 1\nb: [1, [2, 3\nc: 2\n", 2, 4, "the [ at 2:4"},
		{"a [ closed by a }", "a: 1\nb: {c: [1, 2}\n", 2, 8, "the [ at 2:8"},
		{"a ] in quotes", "a: 1\nb: ['x]', \"]\", 2\nc: 2\n", 2, 4, "the [ at 2:4"},
		{"brackets in comments", "a: 1 # [\nb: [1, 2 # ]\nc: 2\n", 2, 4, "the [ at 2:4"},
		{"brackets in words and a block scalar", "a: x[1]\nd: |\n  [ x\nb: [1,\n  2,\n  3\n", 4, 4, "the [ at 4:4"},
		{"a [ on a plain scalar's next line", "a: x\n  [y\nb: [1\n", 3, 4, "the [ at 3:4"},
		{"a '' and a [ in a quoted item", "a: ['it''s [x']\nb: [1\n", 2, 4, "the [ at 2:4"},
		{"a \\\" and a [ in a quoted item", "a: [\"say \\\"[\\\"\"]\nb: [1\n", 2, 4, "the [ at 2:4"},
		{"a quote in a block scalar", "d: | # note\n  'x\nb: 'y\n", 3, 4, "the quote ' at 3:4"},
		{"a quote on a plain scalar's next line", "a: x\n  'y\nb: 'z\n", 3, 4, "the quote ' at 3:4"},
		{"an unclosed '", "a: 1\nb: 'x\nc: 2\n", 2, 4, "the quote ' at 2:4 is not closed: end the value with ', and write a ' inside it as ''"},
		{"an unclosed \"", "openapi: 3.0.0\ninfo:\n  title: \"x\npaths: {}\n", 3, 10, `the quote " at 3:10 is not closed: end the value with ", and write a " inside it as \"`},
		{"an unclosed ' on the first line", "a: 'x\n", 1, 4, "the quote ' at 1:4"},
		{"an unclosed ' after quotes with '' and \\\"", "a: 'it''s'\nb: \"say \\\"hi\\\"\"\nc: it's\nd: 'x\n", 4, 4, "the quote ' at 4:4"},
		{"a second ': '", "a: 1\nb: c: d\n", 2, 5, `quote a value that holds ": "`},
		{"a second ': ' on the first line", "a: b: c\n", 1, 5, "mapping values are not allowed"},
		{"a key indented below a value", "a: 1\n  b: 2\n", 2, 4, "check this line's indentation"},
		{"a key without ':'", "a: 1\nb\nc: 2\n", 2, 1, "write a key as key: value"},
		{"an indented key without ':'", "a:\n  b: 1\n  c\n  d: 2\n", 3, 3, "could not find expected ':'"},
		{"a backtick", "a: 1\nb: `x`\n", 2, 4, "quote the value"},
		{"a backtick on the first line", "a: `x`\n", 1, 4, "cannot start any token"},
		{"an @", "a: 1\nb: @x\n", 2, 4, "quote the value"},
		{"a %", "a: 1\nb: %x\n", 2, 4, "quote the value"},
		{"an @ after a ': ' in the value", "a: 1\nb: x:y @z\nc: @w\n", 3, 4, "quote the value"},
		{"a - after a key", "a: 1\nb: - c\n", 2, 4, "put the - item on a line of its own"},
		{"a - after a key on the first line", "a: - c\n", 1, 4, "block sequence entries are not allowed"},
		{"a comma too many", "a: 1\nb: [1, ,]\n", 2, 8, "remove the extra comma or bracket"},
		{"a [ and nothing after it", "openapi: [\n", 1, 10, "the [ at 1:10 is not closed"},
		{"a [ and nothing after it, no line break", "a: 1\nb: {c: [", 2, 4, "the { at 2:4 is not closed"},
		{"a [ with a comma and nothing after it", "a: 1\nb: [1,\n", 2, 4, "the [ at 2:4 is not closed"},
		{"a ] with no [", "a: 1\nb: ]\n", 2, 4, "did not find expected node content"},
		{"an unknown escape", "a: 1\nb: \"x\\q\"\n", 2, 6, `write \\ for a backslash`},
		{"an alias without a name", "a: 1\nb: *\n", 2, 4, "needs a name"},
		{"a control character", "a: 1\nb: x\x01y\n", 2, 5, "remove the character U+0001"},
		{"a DEL", "a: 1\nb: 'x\x7f'\n", 2, 6, "U+007F"},
		{"a byte that is not UTF-8", "a: 1\nb: \xe9t\xe9\n", 2, 4, "save it as UTF-8"},
		{"a ': ' after a colon in a word", "openapi: 3.0.0\ninfo:\n  title: x\n  description: see https://example.com: more\n", 4, 39, `quote a value that holds ": "`},
		{"a ': ' after a time", "info:\n  title: time 10:30: x\n", 2, 20, `quote a value that holds ": "`},
		{"a character after \\/ escapes, as written", "openapi: 3.0.0\ninfo:\n  title: \"a\\/b \\/c\" @x\n", 3, 21, "cannot start"},
		{"an unknown escape after \\/ escapes, as written", "openapi: 3.0.0\ninfo:\n  title: \"a\\/b \\/c \\q\"\n", 3, 20, "found unknown escape character"},
		{"an unclosed [ after \\/ escapes, as written", "a: 1\n\"\\/\\/\": [1\n", 2, 9, "the [ at 2:9"},
		// Not placed: the line the library means, at its first column.
		{"brackets that balance", "a: 1\nb: [c: d: e]\n", 2, 1, "did not find expected ',' or ']'"},
		{"an unclosed [ at the end, no line past it", "a: [1, 2", 1, 4, "the [ at 1:4"},
		{"a quote left open by a \\ at its line's end", "a: \"x\\\n", 1, 4, `the quote " at 1:4`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("e.yaml", []byte(tc.in))
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a *LoadError", err)
			}
			if le.Pos != (Pos{Line: tc.line, Col: tc.col}) || !strings.Contains(le.Msg, tc.msg) {
				t.Errorf("%v\nwant %d:%d, saying %q", err, tc.line, tc.col, tc.msg)
			}
		})
	}
}

// TestErrorAt: the 1-based line the library means: a parser error's line
// is 0-based, a scanner error's 1-based, and neither is past the text.
func TestErrorAt(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, msg    string
		line, want int
	}{
		{"a: 1\nb: [c: d: e]\n", "did not find expected ',' or ']'", 1, 2},
		{"a: [1, 2\n", "did not find expected ',' or ']'", 1, 1},
		{"a: 1\nb: `x`\n", "found character that cannot start any token", 2, 2},
		{"a: 'x\n", "found unexpected end of stream", 2, 1},
		{"a: 'x", "found unexpected end of stream", 0, 1},
		{"", "found unexpected end of stream", 1, 1},
	}
	for _, tc := range cases {
		if got := errorAt([]byte(tc.in), tc.line, tc.msg); got != tc.want {
			t.Errorf("errorAt(%q, %d, %q) = %d, want %d", tc.in, tc.line, tc.msg, got, tc.want)
		}
	}
}

// FuzzYAMLErrorPlace: whatever the text, a YAML error is placed within it:
// on one of its lines, at most one column past that line's end.
func FuzzYAMLErrorPlace(f *testing.F) {
	for _, in := range []string{
		"a: [1, 2\n", "a: 1\nb: {c: [1, 2}\n", "d: | # note\n  'x\n\nb: 'y\n",
		"a: x\n  'y\nb: 'z\n", "a: 1\nb: c: d\n", "a: 1\nb: `x`\n", "a: 1\nb: [1, ,]\n",
		"a: \"x\\\n", "a: 1\nb\n",
	} {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("f.yaml", data)
		var le *LoadError
		if !errors.As(err, &le) || le.Pos.Line == 0 || !strings.HasPrefix(le.Msg, "invalid YAML") {
			return
		}
		lines := bytes.Split(data, []byte{'\n'})
		if int(le.Pos.Line) > len(lines) || int(le.Pos.Col) > len(lines[le.Pos.Line-1])+1 || le.Pos.Col < 1 {
			t.Fatalf("%v: past the text %q", err, data)
		}
	})
}
