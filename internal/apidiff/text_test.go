package apidiff

import "testing"

func TestQuotedTextEscapesWhatYAMLWouldNotKeep(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"plain a~/", `"plain a~/"`},
		{`say "hi" \ now`, `"say \"hi\" \\ now"`},
		{"a\nb\tc", `"a\nb\tc"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{" ~", `" ~"`},
		{"\x7f\u0080\u009f", `"\u007f\u0080\u009f"`},
		{"\u00a0é\u2027\u202a", "\"\u00a0é\u2027\u202a\""},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"\ufeff\ufffe\uffff", `"\ufeff\ufffe\uffff"`},
		{"\ufefe\ufffd\U00010000", "\"\ufefe\\ufffd\U00010000\""},
		{"bad\xffbyte", `"bad\ufffdbyte"`},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			if got := string(appendString(nil, tc.in)); got != tc.want {
				t.Errorf("appendString(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestFindingPlaceIsTheJSONPointerOfItsLine(t *testing.T) {
	t.Parallel()
	// Line 1 is the document, lines 2 to 4 a path down it, line 5 a
	// comment about nothing.
	ls := &lines{
		parent: []int32{-1, 0, 1, 2, 3, -1},
		tok:    []string{"", "", "paths", "/a/b", "get~x", ""},
	}
	cases := []struct {
		line int
		want string
		ok   bool
	}{
		{0, "", false},
		{1, "", true},
		{2, "/paths", true},
		{4, "/paths/~1a~1b/get~0x", true},
		{5, "", false},
		{6, "", false},
		{-1, "", false},
	}
	for _, tc := range cases {
		got, ok := ls.pointer(tc.line)
		if got != tc.want || ok != tc.ok {
			t.Errorf("line %d: got %q %v, want %q %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := (*lines)(nil).pointer(1); ok {
		t.Error("no lines gave a place")
	}
}
