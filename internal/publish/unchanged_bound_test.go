package publish

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestSameContentAtTheBound: two files of exactly the bound, the same, are
// the same; two that differ in the bound's last byte are not, nor is a
// file of the bound and one a byte shorter.
func TestSameContentAtTheBound(t *testing.T) {
	t.Parallel()
	const max = 1000
	full := strings.Repeat("x", max)
	cases := []struct {
		name string
		a, b string
		want bool
	}{
		{"the same, of the bound", full, full, true},
		{"the bound's last byte differs", full, full[:max-1] + "y", false},
		{"a byte shorter", full, full[:max-1], false},
		{"a byte shorter, the other way", full[:max-1], full, false},
	}
	for _, tc := range cases {
		if got := sameContent(strings.NewReader(tc.a), strings.NewReader(tc.b), max); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestReadUpToTellsATooLongFile: a file of the bound is read whole, and one
// longer gives a byte more, so that the caller can tell it is too long.
func TestReadUpToTellsATooLongFile(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"fits.json": {Data: []byte("12345")}, "long.json": {Data: []byte("1234567")}}
	for name, want := range map[string]string{"fits.json": "12345", "long.json": "123456"} {
		got, err := readUpTo(fsys, name, 5)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}
