package emulator

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestAnchorsNumberPastIDsInUse: names that slug alike are numbered in
// turn, and a number another name's id holds already is skipped.
func TestAnchorsNumberPastIDsInUse(t *testing.T) {
	t.Parallel()
	var a anchors
	var got []string
	for _, name := range []string{"get /a", "get /a-2", "get /a!", "get /a$", "get /a&", "", ""} {
		got = append(got, a.make("op", name))
	}
	want := "op-get-a op-get-a-2 op-get-a-3 op-get-a-4 op-get-a-5 op op-2"
	if strings.Join(got, " ") != want {
		t.Errorf("ids %q, want %q", strings.Join(got, " "), want)
	}
}

// collidingOperations is a description of n operations whose paths differ
// only in punctuation, so that their anchors all slug to op-get-a.
func collidingOperations(t *testing.T, n int) []byte {
	t.Helper()
	paths := map[string]any{}
	for i := range n {
		paths["/a"+growthtest.Punct(i)] = map[string]any{"get": map[string]any{"responses": map[string]any{"200": map[string]any{"description": "ok"}}}}
	}
	raw, err := json.Marshal(map[string]any{"openapi": "3.0.3", "info": map[string]any{"title": "T", "version": "1"}, "paths": paths})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestCollidingAnchorsCostLinear: operations whose anchors collide cost the
// outline allocations in proportion to their number (numbering each from
// 2 again made it n²: 24 s for 20,000). Not parallel: it counts
// allocations.
func TestCollidingAnchorsCostLinear(t *testing.T) {
	testenv.Long(t) // renders 8,000 operations
	growthtest.Linear(t, "colliding anchors", 2000, func(n int) {
		v, err := decodeOrdered(collidingOperations(t, n))
		if err != nil {
			t.Fatal(err)
		}
		newOutline(v.(*object))
	})
}
