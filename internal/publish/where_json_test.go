package publish

import "testing"

// TestPlaceInJSONFromTheTop: a text that is a list is read down as an
// object is; a text that is a single value, or no pointer at all, places
// nothing.
func TestPlaceInJSONFromTheTop(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text      string
		toks            []string
		line, col, deep int
	}{
		{"into a list", "[\n  1,\n  {\"x\": 2}\n]", []string{"1", "x"}, 3, 4, 2},
		{"a list's first item", "[\n  1,\n  {\"x\": 2}\n]", []string{"0"}, 2, 3, 1},
		{"a single value", "42", []string{"0"}, 0, 0, 0},
		{"no pointer", "{\"a\": 1}", nil, 0, 0, 0},
	}
	for _, tc := range cases {
		line, col, deep := placeInJSON([]byte(tc.text), tc.toks)
		if line != tc.line || col != tc.col || deep != tc.deep {
			t.Errorf("%s: %d:%d, %d deep; want %d:%d, %d deep", tc.name, line, col, deep, tc.line, tc.col, tc.deep)
		}
	}
}
