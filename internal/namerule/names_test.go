package namerule

import (
	"errors"
	"strings"
	"testing"
)

// TestHidden: a segment that starts with a dot is hidden, but for . and ..
// which name folders; the first hidden segment is the one named.
func TestHidden(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		"a/.git/config": ".git", ".netrc": ".netrc", "a/b.yaml": "", "a/../b": "", "./a": "", "a/.": "", ".x/.y": ".x",
		"..foo": "..foo", "a/...": "...", "x..y/z.": "", "": "", "a//b": "",
	} {
		if got := Hidden(p); got != want {
			t.Errorf("Hidden(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestControl: the edges of each refused range are refused, the
// characters just outside them are not.
func TestControl(t *testing.T) {
	t.Parallel()
	for r, want := range map[rune]bool{
		0x00: true, 0x0a: true, 0x1f: true, 0x20: false, 0x7e: false, 0x7f: true, 0x80: true, 0x9f: true, 0xa0: false,
		0x061b: false, 0x061c: true, 0x061d: false,
		0x200d: false, 0x200e: true, 0x200f: true, 0x2010: false,
		0x2027: false, 0x2028: true, 0x2029: true, 0x202a: true, 0x202e: true, 0x202f: false,
		0x2065: false, 0x2066: true, 0x2069: true, 0x206a: false,
		'é': false, '日': false, 0xfffd: false,
	} {
		if got := Control(r); got != want {
			t.Errorf("Control(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestCheckText: text is refused for bytes that are not UTF-8, or for its
// first control, named by its code point and never quoted.
func TestCheckText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text, err string
	}{
		{"index.html", ""},
		{"café/日本.html", ""},
		{"a\u202eb\nc", "text holding the control character U+202E"},
		{"a\x00", "text holding the control character U+0000"},
		{"a\xffb", "not valid UTF-8"},
		{"a\u2029\xff", "not valid UTF-8"},
	} {
		err := CheckText(tc.text)
		var te *TextError
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CheckText(%q) = %v, want nil", tc.text, err)
		case tc.err != "" && (!errors.As(err, &te) || err.Error() != tc.err):
			t.Errorf("CheckText(%q) = %v, want a *TextError %q", tc.text, err, tc.err)
		}
	}
}

// TestEditsApart: the letters inserted, deleted, changed or swapped with
// the next that take one text to another, up to a limit.
func TestEditsApart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"query", "query", 2, 0},
		{"qeury", "query", 2, 1}, // a swap is one
		{"strng", "string", 2, 1},
		{"dowload", "download", 2, 1},
		{"formdta", "formdata", 2, 1},
		{"ab", "ba", 1, 1},
		{"abc", "xyz", 3, 3},
		{"path", "paths", 1, 1}, // lengths as far apart as the limit: counted
		{"paths", "path", 1, 1},
		{"pathh", "path", 0, 1},                     // lengths further apart than the limit: limit+1
		{strings.Repeat("x", 1<<20), "query", 2, 3}, // the lengths alone say so
	} {
		if got := EditsApart(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("EditsApart(%.20q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}
