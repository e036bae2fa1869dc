package openapi

import (
	"fmt"
	"slices"
	"testing"
)

// TestPosTableFindsTheLowestPosition: of the entries with one key, find
// gives the one at the lowest position, however they were added (here the
// highest first, so that each key's later entries come first in its
// probes) and however often the table grew since: the first member of a
// key wins, as in Get.
func TestPosTableFindsTheLowestPosition(t *testing.T) {
	t.Parallel()
	keys := make([]string, 200)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i%7)
	}
	keyAt := func(i int) string { return keys[i] }
	var tab posTable
	for pos := len(keys) - 1; pos >= 0; pos-- {
		tab.add(pos, keyAt)
	}
	for k := range 7 {
		key := fmt.Sprint("k", k)
		if got, want := tab.find(key, keyAt), slices.Index(keys, key); got != want {
			t.Errorf("find(%s) = %d, want %d, its first entry", key, got, want)
		}
	}
	if got := tab.find("k7", keyAt); got != -1 {
		t.Errorf("find(k7) = %d, want -1", got)
	}
}
