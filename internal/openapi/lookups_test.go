package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
)

// manyDefinitions is a Swagger 2.0 description whose one schema has n
// properties, each a $ref to its own definition in defs.json.
func manyDefinitions(n int) fstest.MapFS {
	var defs, props strings.Builder
	defs.WriteString("{")
	props.WriteString("{")
	for i := range n {
		if i > 0 {
			defs.WriteString(",")
			props.WriteString(",")
		}
		fmt.Fprintf(&defs, `"D%d":{"type":"string"}`, i)
		fmt.Fprintf(&props, `"p%d":{"$ref":"defs.json#/D%d"}`, i, i)
	}
	defs.WriteString("}")
	props.WriteString("}")
	doc := `{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{},"definitions":{"Big":{"type":"object","properties":` + props.String() + `}}}`
	return fstest.MapFS{
		"openapi.json": &fstest.MapFile{Data: []byte(doc)},
		"defs.json":    &fstest.MapFile{Data: []byte(defs.String())},
	}
}

// TestManyDefinitionsLookupsLinear: n definitions in another file, each
// referred to once, are bundled, validated and encoded with lookups whose
// work grows in proportion to n. An unindexed lookup made it n² (about 25 s
// at 100,000 definitions, where it takes under one), a cost in time that
// allocates nothing, so the lookups count the members they go through.
// Not parallel: the count is the package's.
func TestManyDefinitionsLookupsLinear(t *testing.T) {
	growthtest.LinearCount(t, "definitions each referred to once", "members gone through in lookups", 2000, func(n int) uint64 {
		before := scanned.Load()
		root, err := loadBundle(t, manyDefinitions(n), "openapi.json", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if f := Validate(root); len(f) != 0 {
			t.Fatalf("findings: %v", f)
		}
		out, err := Encode(root, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		last := fmt.Sprintf(`"D%d":{"type":"string"}`, n-1)
		ref := fmt.Sprintf(`"p%d":{"$ref":"#/definitions/D%d"}`, n-1, n-1)
		if !strings.Contains(string(out), last) || !strings.Contains(string(out), ref) {
			t.Fatalf("the bundle does not hold the lifted definitions: %.300s…", out)
		}
		return uint64(scanned.Load() - before)
	})
}
