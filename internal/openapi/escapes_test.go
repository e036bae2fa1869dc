package openapi

import "testing"

// TestSlashEscapeWhere: \/ reads as / in a double-quoted scalar wherever
// one starts, and stays text in a block scalar, however its lines look; a
// position before a \/ on its line is as written.
func TestSlashEscapeWhere(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc, want string }{
		{"a document indented from its first line",
			"  x: \"a\\/b\"\n  openapi: 3.0.0\n",
			`{"x":"a/b","openapi":"3.0.0"}`},
		{"a block scalar whose line looks like a quoted item",
			"openapi: 3.0.0\nd: |\n  - \"a\\/b\"\n",
			`{"openapi":"3.0.0","d":"- \"a\\/b\"\n"}`},
		{"a folded scalar whose line looks like a quoted value",
			"openapi: 3.0.0\nd: >-\n  k: \"a\\/b\"\n",
			`{"openapi":"3.0.0","d":"k: \"a\\/b\""}`},
		{"block scalars with chomping and indentation indicators",
			"openapi: 3.0.0\na: |-\n  - \"a\\/b\"\nb: >+\n  k: \"a\\/b\"\nc: |2\n   - \"a\\/b\"\nd: >-1 # a comment\n  - \"a\\/b\"\n",
			`{"openapi":"3.0.0","a":"- \"a\\/b\"","b":"k: \"a\\/b\"\n","c":" - \"a\\/b\"\n","d":" - \"a\\/b\""}`},
		{"a key after a block scalar, at the block's key's indentation",
			"openapi: 3.0.0\nd: |\n  text\ne: \"a\\/b\"\n",
			`{"openapi":"3.0.0","d":"text\n","e":"a/b"}`},
		{"an indented key after a block scalar has ended",
			"openapi: 3.0.0\nx: |\n  text\nm:\n  e: \"a\\/b\"\n",
			`{"openapi":"3.0.0","x":"text\n","m":{"e":"a/b"}}`},
		{"a block scalar's last line, with no newline after it",
			"openapi: 3.0.0\nx: |\n  - \"a\\/b\"",
			`{"openapi":"3.0.0","x":"- \"a\\/b\""}`},
		{"a single-quoted scalar that holds what looks like a double-quoted one",
			"openapi: 3.0.0\nx: 'k: \"a\\/b\"'\n",
			`{"openapi":"3.0.0","x":"k: \"a\\/b\""}`},
		{"a single-quoted scalar with an escaped quote before what looks like a value",
			"openapi: 3.0.0\nx: 'a'': \"b\\/c\"'\n",
			`{"openapi":"3.0.0","x":"a': \"b\\/c\""}`},
		{"a double-quoted scalar with other escapes",
			"openapi: 3.0.0\nx: \"a\\\"b\\/c\\\\\"\n",
			`{"openapi":"3.0.0","x":"a\"b/c\\"}`},
		{"a plain scalar with a colon before a quote",
			"openapi: 3.0.0\nx: a:\"b\\/c\"\n",
			`{"openapi":"3.0.0","x":"a:\"b\\/c\""}`},
		{"a colon as the text's last byte",
			"openapi: 3.0.0\nx: \"\\/\"\ny:",
			`{"openapi":"3.0.0","x":"/","y":null}`},
		{"a block scalar with the largest indentation indicator",
			"openapi: 3.0.0\nd: |9\n           - \"a\\/b\"\n",
			`{"openapi":"3.0.0","d":"  - \"a\\/b\"\n"}`},
		{"a comment on its own line holding a quote that is never closed",
			"openapi: 3.0.0\n#- 'q\ny: \"a\\/b\"\n",
			`{"openapi":"3.0.0","y":"a/b"}`},
		{"a comment after a blank holding a quote that is never closed",
			"openapi: 3.0.0\nx: 1 # - 'q\ny: \"a\\/b\"\n",
			`{"openapi":"3.0.0","x":1,"y":"a/b"}`},
		{"a comment after a tab holding a quote that is never closed",
			"openapi: 3.0.0\nx: 1\t# - 'q\ny: \"a\\/b\"\n",
			`{"openapi":"3.0.0","x":1,"y":"a/b"}`},
		{"a single-quoted scalar closed at the text's end",
			"openapi: 3.0.0\nx: \"\\/\"\ny: 'a'",
			`{"openapi":"3.0.0","x":"/","y":"a"}`},
		{"a nested key after a block scalar",
			"openapi: 3.0.0\nm:\n  d: |\n    text\n  e: \"a\\/b\"\n",
			`{"openapi":"3.0.0","m":{"d":"text\n","e":"a/b"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n, err := Parse("s.yaml", []byte(tc.doc))
			if err != nil {
				t.Fatalf("%v\n%s", err, tc.doc)
			}
			if got := string(n.AppendJSON(nil)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestSlashEscapePositions: a value before a \/ on its line keeps its
// column; one after it is placed as written.
func TestSlashEscapePositions(t *testing.T) {
	t.Parallel()
	n, err := Parse("s.yaml", []byte("openapi: 3.0.0\ng: {n: 7, k: \"\\/\\/\", m: 8}\n"))
	if err != nil {
		t.Fatal(err)
	}
	g := n.Get("g")
	for key, col := range map[string]int32{"n": 8, "m": 25} {
		if p := g.Get(key).Pos; p.Line != 2 || p.Col != col {
			t.Errorf("g.%s at %d:%d, want 2:%d as written", key, p.Line, p.Col, col)
		}
	}
}

// TestSlashEscapeStrayBackslash: a double-quoted scalar cut off after a
// backslash, at the very end of the text, is refused as YAML, whether or
// not a \/ came before it.
func TestSlashEscapeStrayBackslash(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{"openapi: 3.0.0\nx: \"a\\/b\\", "openapi: 3.0.0\nx: \"\\/\"\ny: \"a\\"} {
		if _, err := Parse("s.yaml", []byte(doc)); err == nil {
			t.Errorf("%q: taken, want a YAML error", doc)
		}
	}
}
