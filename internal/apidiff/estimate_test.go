package apidiff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
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

// spec is growthtest.Spec as bytes.
func spec(ops int, schemas string) []byte { return []byte(growthtest.Spec(ops, schemas)) }

// costlyShapes are the shapes, each at size n: base, head, and what the
// walk finds too much.
var costlyShapes = []struct {
	name string
	pair func(n int) ([]byte, []byte)
	want func(*PairsError) bool
}{
	{"a chain of $refs", func(n int) ([]byte, []byte) {
		return spec(1, growthtest.RefChain(n, "string")), spec(1, growthtest.RefChain(n, "integer"))
	}, depth},
	{"a schema nested inline", func(n int) ([]byte, []byte) {
		return spec(1, growthtest.Nested(n, "string")), spec(1, growthtest.Nested(n, "integer"))
	}, depth},
	{"cycles of n and n+1 schemas", func(n int) ([]byte, []byte) {
		return spec(1, growthtest.Cycle(n/16, false)), spec(1, growthtest.Cycle(n/16+1, true))
	}, depthOrPairs},
	{"n oneOf branches each side", func(n int) ([]byte, []byte) {
		return spec(1, growthtest.Branches(n, "string")), spec(1, growthtest.Branches(n, "integer"))
	}, pairs},
	{"n operations naming n changed properties", func(n int) ([]byte, []byte) {
		return spec(n, growthtest.Wide(n, "string")), spec(n, growthtest.Wide(n, "integer"))
	}, work},
}

func depth(e *PairsError) bool { return e.Depth > e.MostDepth }
func pairs(e *PairsError) bool { return e.Pairs > e.MostPairs }
func work(e *PairsError) bool  { return e.Work > e.MostWork }

// depthOrPairs: cycles of n and n+1 pair into one cycle of n*(n+1) pairs,
// which is as deep.
func depthOrPairs(e *PairsError) bool { return depth(e) || pairs(e) }

// indexBoth is base and head indexed, or t failed.
func indexBoth(t testing.TB, base, head []byte) (*doc, *doc) {
	t.Helper()
	b, errB := index(base)
	h, errH := index(head)
	if errB != nil || errH != nil {
		t.Fatal(errB, errH)
	}
	return b, h
}

// refused fails t unless comparing base with head is refused, before the
// library is called, as too large; and is why.
func refused(t *testing.T, base, head []byte) *PairsError {
	t.Helper()
	_, err := CompareAccepting(context.Background(), base, head, nil)
	var pe *PairsError
	if !errors.As(err, &pe) || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want a PairsError that is ErrTooLarge", err)
	}
	return pe
}

// TestCostlyShapesRefused: each shape is refused as too large to compare,
// for what makes it costly, before the library is given it.
func TestCostlyShapesRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range costlyShapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, head := tc.pair(2000)
			if pe := refused(t, base, head); !tc.want(pe) {
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
// hold (the walk of two of Stripe's releases does 112 of the 128 steps a
// byte allows, its deepest pair 83 levels of 512).
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
	base := spec(2000, growthtest.RefChain(200, "string"))
	head := []byte(strings.Replace(string(base), `"info":`, `"security":[{"key":[]}],"info":`, 1))
	if _, err := CompareAccepting(context.Background(), base, head, nil); err != nil {
		t.Fatal(err)
	}
}

// cycles is the shape of cycles of p schemas (base) and p+1 (head), each
// description passed through edit, in head's only where head is set.
func cycles(p int, edit func(doc string, head bool) string) ([]byte, []byte) {
	base := growthtest.Spec(1, growthtest.Cycle(p, false))
	head := growthtest.Spec(1, growthtest.Cycle(p+1, true))
	return []byte(edit(base, false)), []byte(edit(head, true))
}

// closing is the member of head's last schema that closes its cycle.
const closing = `{"a":{"$ref":"#/components/schemas/L0"}}}`

// replaceLast is s with the last old replaced by new.
func replaceLast(s, old, new string) string {
	i := strings.LastIndex(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

// TestCostlyShapesRefusedHowEverWritten: the cycles of 40 and 41 schemas
// (11 s in the library) are refused however their text is written, where
// the walk read it otherwise than the library does: each of these let
// them through to the library.
func TestCostlyShapesRefusedHowEverWritten(t *testing.T) {
	t.Parallel()
	headOnly := func(f func(string) string) func(string, bool) string {
		return func(doc string, head bool) string {
			if !head {
				return doc
			}
			return f(doc)
		}
	}
	cases := []struct {
		name string
		edit func(doc string, head bool) string
	}{
		{"invalid UTF-8, which the index does not read", func(doc string, _ bool) string {
			return strings.Replace(doc, `"title":"t"`, "\"title\":\"t\xff\"", 1)
		}},
		{"a lone surrogate, which the index does not read", func(doc string, _ bool) string {
			return strings.Replace(doc, `"title":"t"`, `"title":"t\ud800"`, 1)
		}},
		{"the closing $ref after a key written twice", headOnly(func(doc string) string {
			return replaceLast(doc, closing, `{"a":{"type":"string"},"a":{"$ref":"#/components/schemas/L0"}}}`)
		})},
		{"the closing $ref written with \\/", headOnly(func(doc string) string {
			return replaceLast(doc, closing, `{"a":{"$ref":"#\/components\/schemas\/L0"}}}`)
		})},
		{"the closing property's key written with \\u0061", headOnly(func(doc string) string {
			return replaceLast(doc, closing, `{"\u0061":{"$ref":"#/components/schemas/L0"}}}`)
		})},
		{"the closing $ref through 70 others", headOnly(func(doc string) string {
			var aliases strings.Builder
			for i := range 70 {
				fmt.Fprintf(&aliases, `"H%d":{"$ref":"#/components/schemas/H%d"},`, i, i+1)
			}
			aliases.WriteString(`"H70":{"$ref":"#/components/schemas/L0"},`)
			doc = replaceLast(doc, closing, `{"a":{"$ref":"#/components/schemas/H0"}}}`)
			return strings.Replace(doc, `"schemas":{`, `"schemas":{`+aliases.String(), 1)
		})},
		{"the cycles named by parameters in another order", func(doc string, head bool) string {
			params := `[{"name":"p","in":"query","schema":{"$ref":"#/components/schemas/L0"}},{"name":"q","in":"query","schema":{"type":"string"}}]`
			if head {
				params = `[{"name":"q","in":"query","schema":{"type":"string"}},{"name":"p","in":"query","schema":{"$ref":"#/components/schemas/M0"}}]`
				doc = strings.ReplaceAll(doc, `schemas/L`, `schemas/M`)
				doc = regexp.MustCompile(`"L(\d+)":`).ReplaceAllString(doc, `"M$1":`)
			}
			return strings.Replace(doc, `"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/`+map[bool]string{false: "L", true: "M"}[head]+`0"}}}}}}`,
				`"get":{"parameters":`+params+`,"responses":{"200":{"description":"ok"}}}`, 1)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, head := cycles(40, tc.edit)
			plainBase, plainHead := cycles(40, func(doc string, _ bool) string { return doc })
			if bytes.Equal(base, plainBase) && bytes.Equal(head, plainHead) {
				t.Fatal("the edit changed nothing")
			}
			refused(t, base, head)
		})
	}
}

// TestRefsInExtensionsCostNothing: $refs in extensions (x-…), which the
// library reads as written, are not followed: 2,000 operations whose
// extension names a response of 1,000 changed properties are compared,
// the response once, as a component, where 2,000 walks of it would be
// refused.
func TestRefsInExtensionsCostNothing(t *testing.T) {
	t.Parallel()
	doc := func(leaf string) []byte {
		var b strings.Builder
		b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
		for i := range 2000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"/x%d":{"get":{"x-a":{"$ref":"#/components/responses/R"},"responses":{"200":{"description":"ok"}}}}`, i)
		}
		fmt.Fprintf(&b, `},"components":{"responses":{"R":{"description":"r","content":{"application/json":{"schema":%s}}}}}}`,
			strings.TrimPrefix(growthtest.Wide(1000, leaf), `"L0":`))
		return []byte(b.String())
	}
	if _, err := CompareAccepting(context.Background(), doc("string"), doc("integer"), nil); err != nil {
		t.Fatal(err)
	}
}

// TestManyWaysCountedNotWalked: responses that each refer twice to the
// next, n deep, are 2^n ways to the last, which the walk counts, where it
// would walk each: its cost follows n, not 2^n, whether it refuses them
// or not. Not parallel: it counts allocations.
func TestManyWaysCountedNotWalked(t *testing.T) {
	growthtest.Linear(t, "ways through responses", 40, func(n int) {
		doc := func(leaf string) []byte {
			var b strings.Builder
			b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"$ref":"#/components/responses/R0"}}}}},"components":{"responses":{`)
			for i := range n {
				fmt.Fprintf(&b, `"R%d":{"description":"r","a":{"$ref":"#/components/responses/R%d"},"b":{"$ref":"#/components/responses/R%d"}},`, i, i+1, i+1)
			}
			fmt.Fprintf(&b, `"R%d":{"description":%q}}}}`, n, leaf)
			return []byte(b.String())
		}
		var pe *PairsError
		if _, err := CompareAccepting(context.Background(), doc("s"), doc("i"), nil); err != nil && !errors.As(err, &pe) {
			t.Fatal(err)
		}
	})
}

// TestWaysCounted: responses that each refer twice to the next, k deep,
// are 2^k ways from the operation to the last one's schema, which the
// walk counts as the library's checks walk it: once a way from the
// operation.
func TestWaysCounted(t *testing.T) {
	t.Parallel()
	for _, k := range []int{1, 5, 20} {
		doc := func(leaf string) []byte {
			var b strings.Builder
			b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"$ref":"#/components/responses/R0"}}}}},"components":{"responses":{`)
			for i := range k {
				// Two ways to the next (as no description would, to count).
				fmt.Fprintf(&b, `"R%d":{"description":"r","content":{"a/b":{"$ref":"#/components/responses/R%d"},"c/d":{"$ref":"#/components/responses/R%d"}}},`, i, i+1, i+1)
			}
			fmt.Fprintf(&b, `"R%d":{"description":"r","content":{"e/f":{"schema":{"type":%q}}}}}}}`, k, leaf)
			return compact([]byte(b.String()))
		}
		base, head := doc("string"), doc("integer")
		b, h := indexBoth(t, base, head)
		p := prune(b, h)
		bt, ht := newTree(base, b, p.changed), newTree(head, h, p.changed)
		structure, operations, _ := pairRoots(bt, ht, b, h, p.keep)
		w := newPairWalk(bt, ht, 1<<20, 1<<20, 1<<60, 1<<60)
		var roots []pairKey
		for _, r := range structure {
			roots = append(roots, pairOf(bt.resolved(r[0]), ht.resolved(r[1])))
		}
		if err := w.structure(roots, operations); err != nil {
			t.Fatal(err)
		}
		leaf := pairOf(bt.at(bt.unit(unitKey{"components/responses", fmt.Sprint("R", k)}), []string{"content", "e/f", "schema"}),
			ht.at(ht.unit(unitKey{"components/responses", fmt.Sprint("R", k)}), []string{"content", "e/f", "schema"}))
		// From the operation; the responses, components the library
		// compares once, add none.
		if got, want := w.uses[leaf], int64(1)<<k; got != want {
			t.Errorf("k=%d: the last schema named %d times, want %d", k, got, want)
		}
	}
}

// TestCostlyShapesRefusedUnderAnyName: a name that is a field's somewhere
// (default, enum, an extension's x-…) names a response or a property as
// any other does: the shapes under such names are refused as under any.
func TestCostlyShapesRefusedUnderAnyName(t *testing.T) {
	t.Parallel()
	chain := func(name string) func() ([]byte, []byte) {
		return func() ([]byte, []byte) {
			named := func(leaf string) []byte {
				return []byte(strings.ReplaceAll(growthtest.Spec(1, growthtest.RefChain(2000, leaf)), `"properties":{"a":`, `"properties":{"`+name+`":`))
			}
			return named("string"), named("integer")
		}
	}
	cases := []struct {
		name string
		pair func() ([]byte, []byte)
	}{
		{"a chain through properties named default", chain("default")},
		{"a chain through properties named x-a", chain("x-a")},
		{"a chain through properties named enum", chain("enum")},
		{"operations' default responses naming many changed properties", func() ([]byte, []byte) {
			named := func(leaf string) []byte {
				return []byte(strings.ReplaceAll(growthtest.Spec(1000, growthtest.Wide(1000, leaf)), `"responses":{"200":`, `"responses":{"default":`))
			}
			return named("string"), named("integer")
		}},
		{"a header named x-h with a chain", func() ([]byte, []byte) {
			named := func(leaf string) []byte {
				return []byte(strings.ReplaceAll(growthtest.Spec(1, growthtest.RefChain(2000, leaf)), `"description":"ok","content"`, `"description":"ok","headers":{"x-h":{"schema":{"$ref":"#/components/schemas/L0"}}},"content"`))
			}
			return named("string"), named("integer")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, head := tc.pair()
			refused(t, base, head)
		})
	}
}

// renamed is the cycles' pair of cycles (of 60 and 61 schemas) with the
// head's schemas named M where L, so that only what the library pairs
// otherwise than by name pairs them, and each side passed through edit.
func renamed(edit func(doc string, head bool) string) ([]byte, []byte) {
	return cycles(60, func(doc string, head bool) string {
		if head {
			doc = strings.ReplaceAll(doc, `schemas/L`, `schemas/M`)
			doc = regexp.MustCompile(`"L(\d+)":`).ReplaceAllString(doc, `"M$1":`)
		}
		return edit(doc, head)
	})
}

// answered is a description whose operation GET /x answers as answer.
const answered = `"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/L0"}}}}}}`

// namingS is n operations naming the schema S, of m properties of
// type typ, in a Swagger 2.0 description, or an OpenAPI 3 one.
func namingS(n, m int, swagger bool, typ string) []byte {
	var b strings.Builder
	if swagger {
		b.WriteString(`{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{`)
	} else {
		b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	}
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if swagger {
			fmt.Fprintf(&b, `"/p%d":{"get":{"responses":{"200":{"description":"ok","schema":{"$ref":"#/definitions/S"}}}}}`, i)
		} else {
			fmt.Fprintf(&b, `"/p%d":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/S"}}}}}}}`, i)
		}
	}
	if swagger {
		b.WriteString(`},"definitions":{"S":{"type":"object","properties":{`)
	} else {
		b.WriteString(`},"components":{"schemas":{"S":{"type":"object","properties":{`)
	}
	for i := range m {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"f%d":{"type":%q}`, i, typ)
	}
	if swagger {
		b.WriteString(`}}}}`)
	} else {
		b.WriteString(`}}}}}`)
	}
	return []byte(b.String())
}

// TestCostlyPairingsRefused: what the library pairs otherwise than by
// equal names (a query parameter with an exploded object's property, path
// parameters by their place, media types it takes for the same, a Swagger
// 2.0 description with an OpenAPI 3 one) is walked as it pairs it, and
// its quadratic work is counted (each added media type with each removed
// one, each path not found with each path): each of these took the
// library seconds (1.6 to 10 s, measured when the walk let them through).
func TestCostlyPairingsRefused(t *testing.T) {
	t.Parallel()
	inline := func(old, new string) func(string, bool) string {
		return func(doc string, head bool) string {
			if head {
				return strings.Replace(doc, strings.ReplaceAll(old, "L0", "M0"), strings.ReplaceAll(new, "L0", "M0"), 1)
			}
			return strings.Replace(doc, old, new, 1)
		}
	}
	cases := []struct {
		name string
		pair func() ([]byte, []byte)
	}{
		{"a query parameter and an exploded object's property", func() ([]byte, []byte) {
			return renamed(func(doc string, head bool) string {
				param := `{"name":"a","in":"query","schema":{"$ref":"#/components/schemas/L0"}}`
				if head {
					param = `{"name":"obj","in":"query","style":"form","explode":true,"schema":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/M0"}}}}`
				}
				return inline(answered, `"get":{"parameters":[`+param+`],"responses":{"200":{"description":"ok"}}}`)(doc, head)
			})
		}},
		{"path parameters renamed", func() ([]byte, []byte) {
			return renamed(func(doc string, head bool) string {
				name, ref := "a", "L0"
				if head {
					name, ref = "b", "M0"
				}
				doc = strings.Replace(doc, `"/x0":`, `"/x0/{`+name+`}":`, 1)
				return inline(answered, `"get":{"parameters":[{"name":"`+name+`","in":"path","required":true,"schema":{"$ref":"#/components/schemas/`+ref+`"}}],"responses":{"200":{"description":"ok"}}}`)(doc, head)
			})
		}},
		{"media types the library takes for the same", func() ([]byte, []byte) {
			return renamed(func(doc string, head bool) string {
				if head {
					return strings.Replace(doc, `"application/json"`, `"application/problem+json"`, 1)
				}
				return doc
			})
		}},
		{"a Swagger 2.0 base and an OpenAPI 3 head", func() ([]byte, []byte) {
			base, head := renamed(func(doc string, _ bool) string { return doc })
			swagger := strings.NewReplacer(`"openapi":"3.0.3"`, `"swagger":"2.0"`, `#/components/schemas/`, `#/definitions/`,
				`"components":{"schemas":`, `"definitions":`, `"content":{"application/json":{"schema":{"$ref":"#/components/schemas/L0"}}}`, `"schema":{"$ref":"#/definitions/L0"}`).Replace(string(base))
			if !strings.Contains(swagger, `"200":{"description":"ok","schema":`) {
				t.Fatal("the base is no Swagger 2.0 description")
			}
			return []byte(strings.TrimSuffix(swagger, "}")), head
		}},
		{"operations naming a changed schema, across versions", func() ([]byte, []byte) {
			return namingS(400, 400, true, "string"), namingS(400, 400, false, "integer")
		}},
		{"media types each added or removed", func() ([]byte, []byte) {
			media := func(prefix string) []byte {
				var b strings.Builder
				b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"description":"ok","content":{`)
				for i := range 1000 {
					if i > 0 {
						b.WriteString(",")
					}
					fmt.Fprintf(&b, `"%s%d":{}`, prefix, i)
				}
				b.WriteString(`}}}}}}}`)
				return []byte(b.String())
			}
			return media("a/x"), media("b/y")
		}},
		{"every path's parameter renamed", func() ([]byte, []byte) {
			paths := func(name, summary string) []byte {
				var b strings.Builder
				b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
				for i := range 2000 {
					if i > 0 {
						b.WriteString(",")
					}
					fmt.Fprintf(&b, `"/%d/{%s}":{"summary":%q}`, i, name, summary)
				}
				b.WriteString(`}}`)
				return []byte(b.String())
			}
			return paths("x", "a"), paths("y", "b")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, head := tc.pair()
			refused(t, base, head)
		})
	}
}

// TestParametersInSchemasWalkedOnce: a list named parameters in a schema,
// which the library does not read as parameters, costs the walk what it
// holds, once, however many media types name the schema. Not parallel:
// it counts allocations.
func TestParametersInSchemasWalkedOnce(t *testing.T) {
	growthtest.Linear(t, "parameters in a schema", 250, func(n int) {
		doc := func(desc string) []byte {
			var b strings.Builder
			b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"description":"ok","content":{`)
			for i := range n {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"m%d":{"schema":{"a":{"$ref":"#/components/schemas/P"}}}`, i)
			}
			fmt.Fprintf(&b, `}}}}}},"components":{"schemas":{"P":{"description":%q,"parameters":[`, desc)
			for i := range n {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"in":"q","name":"p%d"}`, i)
			}
			b.WriteString(`]}}}}`)
			return compact([]byte(b.String()))
		}
		base, head := doc("a"), doc("b")
		b, h := indexBoth(t, base, head)
		if err := checkPairs(base, head, b, h, prune(b, h)); err != nil {
			t.Fatal(err)
		}
	})
}

// numbers is n numbers from off, as a JSON list's items.
func numbers(n, off int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprint(off + i)
	}
	return strings.Join(items, ",")
}

// requirements is n security requirements from off, as a JSON list.
func requirements(n, off int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"s%d":[]}`, off+i)
	}
	return "[" + strings.Join(items, ",") + "]"
}

// paths is k operations GET /x0, /x1, …, each as op gives it.
func paths(k int, op func(i int) string) string {
	items := make([]string, k)
	for i := range items {
		items[i] = fmt.Sprintf(`"/x%d":{"get":%s}`, i, op(i))
	}
	return strings.Join(items, ",")
}

// TestCostlyListsRefused: lists of values that the library compares each
// item with each (security requirements, an enum's values), or reports
// item by item once an operation (an enum, what is required, of a schema
// many operations name), are counted: each of these took the library 3
// to 16 s (measured when the walk let them through).
func TestCostlyListsRefused(t *testing.T) {
	t.Parallel()
	const top = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},`
	answer := `"responses":{"200":{"description":"ok"}}`
	cases := []struct {
		name string
		doc  func(off int) string
	}{
		{"an operation's security requirements, none the same", func(off int) string {
			return top + `"paths":{` + paths(1, func(int) string { return `{"security":` + requirements(2000, off) + `,` + answer + `}` }) + `}}`
		}},
		{"the security all of 80 operations require, none the same", func(off int) string {
			return top + `"security":` + requirements(500, off) + `,"paths":{` + paths(80, func(int) string { return `{` + answer + `}` }) + `}}`
		}},
		{"an enum's values, none the same", func(off int) string {
			return top + `"paths":{` + paths(1, func(int) string {
				return `{"parameters":[{"name":"p","in":"query","schema":{"type":"integer","enum":[` + numbers(4000, off) + `]}}],` + answer + `}`
			}) + `}}`
		}},
		{"an enum that 1,000 operations name, its values changed", func(off int) string {
			return top + `"paths":{` + paths(1000, func(int) string {
				return `{"parameters":[{"name":"p","in":"query","schema":{"$ref":"#/components/schemas/E"}}],` + answer + `}`
			}) + `},"components":{"schemas":{"E":{"type":"integer","enum":[` + numbers(500, off) + `]}}}}`
		}},
		{"4,000 properties that became required, of a body 100 operations send", func(off int) string {
			items := make([]string, 4000)
			names := make([]string, 4000)
			for i := range items {
				items[i], names[i] = fmt.Sprintf(`"%d":{}`, i), fmt.Sprintf(`"%d"`, i)
			}
			props := strings.Join(items, ",")
			required := ""
			if off > 0 {
				required = `,"required":[` + strings.Join(names, ",") + `]`
			}
			return top + `"paths":{` + paths(100, func(int) string {
				return `{"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/E"}}}},` + answer + `}`
			}) + `},"components":{"schemas":{"E":{"type":"object","properties":{` + props + `}` + required + `}}}}`
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			refused(t, []byte(tc.doc(0)), []byte(tc.doc(10000)))
		})
	}
}

// named is n members "k0", "k1", … of an object, each value.
func named(n int, value string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`"k%d":%s`, i, value)
	}
	return strings.Join(items, ",")
}

// branchedBody is an operation whose request body is a oneOf of n
// objects, each a property of type typ, and whose path has a parameter
// named param when param is set.
func branchedBody(n int, typ, param string) string {
	branches := make([]string, n)
	for i := range branches {
		branches[i] = fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":%q}}}`, i, typ)
	}
	op := `{"requestBody":{"content":{"application/json":{"schema":{"oneOf":[` + strings.Join(branches, ",") + `]}}}},"responses":{"200":{"description":"ok"}}}`
	if param == "" {
		return `{"post":` + op + `}`
	}
	return `{"parameters":[{"name":"` + param + `","in":"path","required":true,"schema":{"type":"string"}}],"post":` + op + `}`
}

// TestCostlyStructureRefused: what the library compares in the structure
// around schemas otherwise than the walk first read it (a callback's
// paths, by template and each looked for among all; webhooks; a path of
// the head whose template another shares, written first; a response or a
// callback many operations share, once for each; an object the head
// wrapped in a oneOf, looked for in each branch; an extension's value,
// compared as JSON once a way) is walked and counted: each of these took
// the library 1.4 to 27 s (measured when the walk let them through).
func TestCostlyStructureRefused(t *testing.T) {
	t.Parallel()
	const top = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},`
	answer := `"responses":{"200":{"description":"ok"}}`
	cases := []struct {
		name       string
		base, head string
	}{
		{"a callback of 2,000 paths, none the same",
			top + `"paths":{"/x":{"post":{` + answer + `,"callbacks":{"cb":{` + paths(2000, func(int) string { return `{}` }) + `}}}}}}`,
			top + `"paths":{"/x":{"post":{` + answer + `,"callbacks":{"cb":{` + strings.ReplaceAll(paths(2000, func(int) string { return `{}` }), `"/x`, `"/y`) + `}}}}}}`},
		{"a callback's path whose parameter was renamed, 400 branches each compared with each",
			top + `"paths":{"/x":{"post":{` + answer + `,"callbacks":{"cb":{"/{a}":` + branchedBody(400, "string", "a") + `}}}}}}`,
			top + `"paths":{"/x":{"post":{` + answer + `,"callbacks":{"cb":{"/{b}":` + branchedBody(400, "integer", "b") + `}}}}}}`},
		{"a webhook's 400 branches each compared with each",
			`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"webhooks":{"h":` + branchedBody(400, "string", "") + `}}`,
			`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"webhooks":{"h":` + branchedBody(400, "integer", "") + `}}`},
		{"a path whose template a path written before it shares",
			top + `"paths":{"/{z}":` + branchedBody(400, "string", "z") + `}}`,
			top + `"paths":{"/{c}":{"parameters":[{"name":"c","in":"path","required":true,"schema":{"type":"string"}}],"get":{` + answer + `}},"/{b}":` + branchedBody(400, "integer", "b") + `}}`},
		{"a response of 1,000 headers that 1,000 operations share",
			top + `"paths":{` + paths(1000, func(int) string { return `{"responses":{"200":{"$ref":"#/components/responses/R"}}}` }) + `},"components":{"responses":{"R":{"description":"ok","headers":{` + named(1000, `{"description":"a"}`) + `}}}}}`,
			top + `"paths":{` + paths(1000, func(int) string { return `{"responses":{"200":{"$ref":"#/components/responses/R"}}}` }) + `},"components":{"responses":{"R":{"description":"ok","headers":{` + named(1000, `{"description":"b"}`) + `}}}}}`},
		{"a response whose extension of 5,000 items changed, that 500 operations share",
			top + `"paths":{` + paths(500, func(int) string { return `{"responses":{"200":{"$ref":"#/components/responses/R"}}}` }) + `},"components":{"responses":{"R":{"description":"ok","x-big":[` + strings.Repeat("1,", 4999) + `1]}}}}`,
			top + `"paths":{` + paths(500, func(int) string { return `{"responses":{"200":{"$ref":"#/components/responses/R"}}}` }) + `},"components":{"responses":{"R":{"description":"ok","x-big":[` + strings.Repeat("2,", 4999) + `2]}}}}`},
		{"a response of 500 properties, all renamed, that 800 operations share",
			top + `"paths":{` + paths(800, func(int) string { return `{"responses":{"200":{"$ref":"#/components/responses/R"}}}` }) + `},"components":{"responses":{"R":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{` + named(500, `{"type":"string"}`) + `}}}}}}}}`,
			top + `"paths":{` + paths(800, func(int) string { return `{"responses":{"200":{"$ref":"#/components/responses/R"}}}` }) + `},"components":{"responses":{"R":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{` + strings.ReplaceAll(named(500, `{"type":"string"}`), `"k`, `"j`) + `}}}}}}}}`},
		{"an object of 5,000 properties the head wrapped in a oneOf of 2,500 branches",
			top + `"paths":{"/x":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{` + named(5000, `{}`) + `}}}}},` + answer + `}}}}`,
			top + `"paths":{"/x":{"post":{"requestBody":{"content":{"application/json":{"schema":{"oneOf":[{"properties":{"k0":{}}}` + strings.Repeat(`,{"type":"integer"}`, 2500) + `]}}}},` + answer + `}}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			refused(t, []byte(tc.base), []byte(tc.head))
		})
	}
}

// TestChangeTextsKeptShort: a change's text holds what changed whole (a
// pattern of 20,000 bytes, here, which 50 operations name): the report
// keeps at most maxChangeText bytes of each, where it kept 40 kB of each,
// as much a change as the description's text.
func TestChangeTextsKeptShort(t *testing.T) {
	t.Parallel()
	doc := func(c string) []byte {
		return []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{` +
			paths(50, func(int) string {
				return `{"parameters":[{"$ref":"#/components/parameters/P"}],"responses":{"200":{"description":"ok"}}}`
			}) + `},"components":{"parameters":{"P":{"name":"q","in":"query","schema":{"type":"string","pattern":"` + strings.Repeat(c, 20000) + `"}}}}}`)
	}
	rep, err := CompareAccepting(context.Background(), doc("a"), doc("b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changes) < 50 {
		t.Fatalf("%d changes, want one an operation", len(rep.Changes))
	}
	for _, c := range rep.Changes {
		text, _, cut := strings.Cut(c.Text, "… (")
		if len(text) > maxChangeText || !cut || !strings.HasSuffix(c.Text, " more characters)") {
			t.Fatalf("a change's text of %d bytes, ending %q, want at most %d, cut saying how much", len(c.Text), c.Text[max(0, len(c.Text)-30):], maxChangeText)
		}
	}
}

// TestWalkStopsAtItsOwnReading: the walk stops when what it reads passes
// its bound, whatever the library's work: the comparison is refused, and
// says why.
func TestWalkStopsAtItsOwnReading(t *testing.T) {
	t.Parallel()
	base, head := compact(spec(1, growthtest.Wide(1000, "string"))), compact(spec(1, growthtest.Wide(1000, "integer")))
	b, h := indexBoth(t, base, head)
	p := prune(b, h)
	bt, ht := newTree(base, b, p.changed), newTree(head, h, p.changed)
	structure, operations, schemas := pairRoots(bt, ht, b, h, p.keep)
	for _, most := range []int64{100, 1 << 40} {
		_, err := walkPairs(bt, ht, structure, operations, schemas, maxPairDepth, 1<<20, 1<<40, most)
		var pe *PairsError
		switch {
		case most == 100 && (!errors.As(err, &pe) || pe.MostOps != 100 || pe.Ops <= 100):
			t.Errorf("bound %d: got %v, want the walk stopped at its own reading", most, err)
		case most > 100 && err != nil:
			t.Errorf("bound %d: %v", most, err)
		}
	}
}
