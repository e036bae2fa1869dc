package openapi

import (
	"errors"
	"testing"
)

// TestUnknownAliasPlace: an alias with no anchor is placed where it is
// written, line and column.
func TestUnknownAliasPlace(t *testing.T) {
	t.Parallel()
	cases := []struct {
		doc       string
		line, col int32
	}{
		{"openapi: 3.0.0\nx: *nowhere\n", 2, 4},
		{"openapi: 3.0.0\n*nowhere : 1\n", 2, 1},
		{"openapi: 3.0.0\nx:\n  y: [1, *nowhere]\n", 3, 10},
		{"*nowhere : 1\nopenapi: 3.0.0\n", 1, 1},
	}
	for _, tc := range cases {
		_, err := Parse("a.yaml", []byte(tc.doc))
		var le *LoadError
		if !errors.As(err, &le) || le.Pos.Line != tc.line || le.Pos.Col != tc.col {
			t.Errorf("%q: %v, want the alias at %d:%d", tc.doc, err, tc.line, tc.col)
		}
	}
}
