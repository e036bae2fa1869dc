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
