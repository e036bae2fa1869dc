package openapi

import (
	"errors"
	"testing"
)

// TestTrailingCommaPlace: a comma before a closing bracket is named for
// what it is, at the comma, whatever blanks stand between the two.
func TestTrailingCommaPlace(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in        string
		line, col int32
	}{
		{`{"openapi":"3.0.0","a":[1,]}`, 1, 26},
		{`{"openapi":"3.0.0","a":[1, ]}`, 1, 26},
		{`{"openapi":"3.0.0","a":{"b":1 , }}`, 1, 31},
		{"{\"openapi\":\"3.0.0\",\"a\":[1,\n\t\r\n  ]}", 1, 26},
		{"{\"openapi\":\"3.0.0\",\n\"a\":1,\n}", 2, 6},
	}
	for _, tc := range cases {
		_, err := Parse("s.json", []byte(tc.in))
		var le *LoadError
		if !errors.As(err, &le) || le.Msg != "invalid JSON: a trailing comma before a closing } or ]: JSON allows none, remove it" || le.Pos.Line != tc.line || le.Pos.Col != tc.col {
			t.Errorf("%q: %v, want the trailing comma at %d:%d", tc.in, err, tc.line, tc.col)
		}
	}
}
