package openapi

import (
	"fmt"
	"testing"
)

// TestKeyTable: every key of the set finds its value, keys that crowd the
// same slots (same length, first and last bytes) included, and a key not
// in the set, alike in those bytes or not, finds none.
func TestKeyTable(t *testing.T) {
	t.Parallel()
	m := map[string]int{}
	for i := range 40 {
		m[fmt.Sprintf("k%02dz", i)] = i + 1 // all of length 4, from k to z: one slot for all
	}
	for i, k := range []string{"$ref", "schema", "a", "items", "properties"} {
		m[k] = 100 + i
	}
	tab := newKeyTable(m)
	for k, want := range m {
		if got, ok := tab.get(k); !ok || got != want {
			t.Errorf("get(%q) = %d, %v; want %d", k, got, ok, want)
		}
	}
	for _, k := range []string{"", "k40z", "kxxz", "$rex", "schemas", "b", "item", "Properties"} {
		if got, ok := tab.get(k); ok {
			t.Errorf("get(%q) = %d, found in a set without it", k, got)
		}
	}
	var none *keyTable[int]
	if _, ok := none.get("a"); ok {
		t.Error("a nil table found a key")
	}
}
