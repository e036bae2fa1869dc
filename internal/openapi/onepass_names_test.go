package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOnePassLargeObjectsAlike: two objects of more keys than are looked
// through one by one, at the same depth and with the same keys (two
// schemas' properties), are each checked for keys written twice afresh:
// the single pass does the work, and agrees with the tree.
func TestOnePassLargeObjectsAlike(t *testing.T) {
	t.Parallel()
	var props strings.Builder
	for i := range 40 {
		if i > 0 {
			props.WriteString(",")
		}
		fmt.Fprintf(&props, `"p%d":{"type":"string"}`, i)
	}
	doc := fmt.Sprintf(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{`+
		`"A":{"type":"object","properties":{%[1]s}},"B":{"type":"object","properties":{%[1]s}}}}}`, props.String())
	fsys := fstest.MapFS{"a.json": {Data: []byte(doc)}}
	if !agree(t, fsys, "a.json", Limits{}) {
		t.Error("the single pass did not do the work")
	}
}

// TestKeySetKeptSmall: the set of keys kept for the next object at a depth
// is dropped once an object there held more than maxKeptNames keys, for
// clearing a map costs its room: an object of a million keys, then 80,000
// of 33 at its depth, took 7.7 times as long for 4 times the input.
func TestKeySetKeptSmall(t *testing.T) {
	t.Parallel()
	var p pass
	ns := p.keysAt(1)
	for h := range uint64(4 * maxKeptNames) {
		ns.add(h)
	}
	if ns = p.keysAt(1); len(ns.set) > maxKeptNames {
		t.Errorf("the set kept for the next object holds %d keys, want at most %d", len(ns.set), maxKeptNames)
	}
	for h := range uint64(40) {
		if !ns.add(h) {
			t.Fatalf("key %d: a duplicate in a fresh object", h)
		}
	}
	if ns.add(7) {
		t.Error("key 7 written twice: not found")
	}
}
