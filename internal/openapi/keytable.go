package openapi

import "math/bits"

// keyTable is a fixed set of keys, each with a value, looked up by the
// key's length and its first and last bytes, then one comparison or a few:
// the single pass asks about every key of a description, where a map,
// which hashes the whole key, took twice as long a lookup (some 4% of the
// pass's CPU time on GitHub's description). Half its slots
// at least stay empty, so that a key not in the set, whatever its bytes,
// ends its search within the few slots its set's keys crowd.
type keyTable[V any] struct {
	keys []string // "" where no key is
	vals []V
	mask uint
}

// newKeyTable holds the keys of m, none of them "".
func newKeyTable[V any](m map[string]V) *keyTable[V] {
	size := 1 << bits.Len(uint(2*len(m)))
	t := &keyTable[V]{keys: make([]string, size), vals: make([]V, size), mask: uint(size - 1)}
	for k, v := range m {
		if k == "" {
			panic("keyTable: an empty key")
		}
		i := t.slot(k)
		for t.keys[i] != "" {
			i = (i + 1) & t.mask
		}
		t.keys[i], t.vals[i] = k, v
	}
	return t
}

func (t *keyTable[V]) slot(k string) uint {
	return (uint(len(k))*31 + uint(k[0])*7 + uint(k[len(k)-1])) & t.mask
}

// get is k's value, and whether k is in the set.
func (t *keyTable[V]) get(k string) (V, bool) {
	if t == nil || k == "" {
		var zero V
		return zero, false
	}
	for i := t.slot(k); ; i = (i + 1) & t.mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case "":
			var zero V
			return zero, false
		}
	}
}
