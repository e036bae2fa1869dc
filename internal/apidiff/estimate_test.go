package apidiff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/growthtest"
)

// The shapes whose comparison the library does in time that grows faster
// than their text (estimate.go), each a description with one operation
// (or n) whose schemas have the shape, base and head differing as the
// shape says. Measured before the walk refused them: a chain of 1,600
// links took 1.3 s, cycles of 80 and 81 schemas 7.7 minutes, 800 branches
// each side 14 s, 2,000 operations naming 1,000 changed properties 65 s.

// spec is a description whose operations (paths /x0, /x1, …) answer with
// the schema L0, and whose schemas are schemas.
func spec(ops int, schemas string) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range ops {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/x%d":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/L0"}}}}}}}`, i)
	}
	fmt.Fprintf(&b, `},"components":{"schemas":{%s}}}`, schemas)
	return []byte(b.String())
}

// refChain is n schemas, each with a property that is a $ref to the next,
// the last of type leaf.
func refChain(n int, leaf string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"L%d":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/L%d"}}},`, i, i+1)
	}
	fmt.Fprintf(&b, `"L%d":{"type":%q}`, n, leaf)
	return b.String()
}

// nested is one schema, n properties deep, the deepest of type leaf.
func nested(n int, leaf string) string {
	return `"L0":` + strings.Repeat(`{"type":"object","properties":{"a":`, n) + fmt.Sprintf(`{"type":%q}`, leaf) + strings.Repeat(`}}`, n)
}

// cycle is n schemas, each with a property that is a $ref to the next,
// the last to the first; the last with a description when marked.
func cycle(n int, marked bool) string {
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

// branches is a schema of n inline oneOf branches, each a property of
// type leaf.
func branches(n int, leaf string) string {
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

// wide is a schema of n properties of type leaf.
func wide(n int, leaf string) string {
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

// costlyShapes are the shapes, each at size n: base, head, and what the
// walk finds too much.
var costlyShapes = []struct {
	name string
	pair func(n int) ([]byte, []byte)
	want func(*PairsError) bool
}{
	{"a chain of $refs", func(n int) ([]byte, []byte) { return spec(1, refChain(n, "string")), spec(1, refChain(n, "integer")) }, depth},
	{"a schema nested inline", func(n int) ([]byte, []byte) { return spec(1, nested(n, "string")), spec(1, nested(n, "integer")) }, depth},
	{"cycles of n and n+1 schemas", func(n int) ([]byte, []byte) { return spec(1, cycle(n/16, false)), spec(1, cycle(n/16+1, true)) }, depthOrPairs},
	{"n oneOf branches each side", func(n int) ([]byte, []byte) { return spec(1, branches(n, "string")), spec(1, branches(n, "integer")) }, pairs},
	{"n operations naming n changed properties", func(n int) ([]byte, []byte) { return spec(n, wide(n, "string")), spec(n, wide(n, "integer")) }, work},
}

func depth(e *PairsError) bool { return e.Depth > e.MostDepth }
func pairs(e *PairsError) bool { return e.Pairs > e.MostPairs }
func work(e *PairsError) bool  { return e.Work > e.MostWork }

// depthOrPairs: cycles of n and n+1 pair into one cycle of n*(n+1) pairs,
// which is as deep.
func depthOrPairs(e *PairsError) bool { return depth(e) || pairs(e) }

// TestCostlyShapesRefused: each shape is refused as too large to compare,
// for what makes it costly, before the library is given it.
func TestCostlyShapesRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range costlyShapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, head := tc.pair(2000)
			_, err := CompareAccepting(context.Background(), base, head, nil)
			var pe *PairsError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTooLarge) {
				t.Fatalf("got %v, want a PairsError that is ErrTooLarge", err)
			}
			if !tc.want(pe) {
				t.Errorf("refused for %+v", *pe)
			}
		})
	}
}

// TestCostlyShapesRefusedInLinearCost: refusing each shape allocates in
// proportion to its text: the walk stops at its bounds. Not parallel: it
// counts allocations.
func TestCostlyShapesRefusedInLinearCost(t *testing.T) {
	for _, tc := range costlyShapes {
		t.Run(tc.name, func(t *testing.T) {
			growthtest.Linear(t, tc.name, 1000, func(n int) {
				base, head := tc.pair(n)
				if _, err := CompareAccepting(context.Background(), base, head, nil); !errors.Is(err, ErrTooLarge) {
					t.Fatalf("size %d: got %v, want ErrTooLarge", n, err)
				}
			})
		})
	}
}

// TestShallowShapesCompared: the same shapes, small, are compared and
// their change found: the bounds are well past what real descriptions
// hold (the walk of two of Stripe's releases does 50 of the 128 steps a
// byte allows, its deepest pair 95 levels of 512).
func TestShallowShapesCompared(t *testing.T) {
	t.Parallel()
	for _, tc := range costlyShapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, head := tc.pair(32)
			rep, err := CompareAccepting(context.Background(), base, head, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Changes) == 0 && !strings.HasPrefix(tc.name, "cycles") {
				t.Error("no change found")
			}
		})
	}
}

// TestUnchangedSchemasCostNoWalk: where a change concerns every operation
// (a global security requirement), the schemas the operations name that
// did not change cost the walk nothing, as they cost the library's checks
// nothing: 2,000 operations naming a chain of 200 schemas, unchanged, are
// compared, where walking the chain once an operation would be refused.
func TestUnchangedSchemasCostNoWalk(t *testing.T) {
	t.Parallel()
	base := spec(2000, refChain(200, "string"))
	head := []byte(strings.Replace(string(base), `"info":`, `"security":[{"key":[]}],"info":`, 1))
	if _, err := CompareAccepting(context.Background(), base, head, nil); err != nil {
		t.Fatal(err)
	}
}
