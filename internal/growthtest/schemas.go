package growthtest

import (
	"fmt"
	"strings"
)

// The shapes of schemas whose comparison the library does in time that
// grows faster than their text (apidiff's estimate.go), as the JSON of a
// description's components.schemas: a test's and the benchmark harness's.

// Spec is an OpenAPI description, as JSON, of ops operations (paths /x0,
// /x1, …), each answering with the schema L0, and whose components.schemas
// members are schemas.
func Spec(ops int, schemas string) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range ops {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/x%d":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/L0"}}}}}}}`, i)
	}
	fmt.Fprintf(&b, `},"components":{"schemas":{%s}}}`, schemas)
	return b.String()
}

// RefChain is n schemas L0 to Ln-1, each with a property that is a $ref
// to the next, and Ln of type leaf.
func RefChain(n int, leaf string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"L%d":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/L%d"}}},`, i, i+1)
	}
	fmt.Fprintf(&b, `"L%d":{"type":%q}`, n, leaf)
	return b.String()
}

// Nested is one schema, L0, n properties deep, the deepest of type leaf.
func Nested(n int, leaf string) string {
	return `"L0":` + strings.Repeat(`{"type":"object","properties":{"a":`, n) + fmt.Sprintf(`{"type":%q}`, leaf) + strings.Repeat(`}}`, n)
}

// Cycle is n schemas, each with a property that is a $ref to the next,
// the last to the first, L0; the last with a description when marked.
func Cycle(n int, marked bool) string {
	var b strings.Builder
	for i := range n {
		d := ""
		if marked && i == n-1 {
			d = `"description":"x",`
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"L%d":{%s"type":"object","properties":{"a":{"$ref":"#/components/schemas/L%d"}}}`, i, d, (i+1)%n)
	}
	return b.String()
}

// Branches is one schema, L0, of n inline oneOf branches, each a property
// of type leaf.
func Branches(n int, leaf string) string {
	var b strings.Builder
	b.WriteString(`"L0":{"oneOf":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"type":"object","properties":{"p%d":{"type":%q}}}`, i, leaf)
	}
	b.WriteString(`]}`)
	return b.String()
}

// Wide is one schema, L0, of n properties of type leaf.
func Wide(n int, leaf string) string {
	var b strings.Builder
	b.WriteString(`"L0":{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{"type":%q}`, i, leaf)
	}
	b.WriteString(`}}`)
	return b.String()
}
