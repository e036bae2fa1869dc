// Package apiedits changes an API description the way pull requests do,
// for tests and benchmarks of the comparison: remove an operation, make a
// parameter required, remove an enum value, change a type, add a required
// property, rename a schema with its $refs.
package apiedits

import (
	"strings"

	"github.com/docs-publish/docs-publish/internal/openapi"
)

// An Edit changes a description the way a pull request does, in place,
// keeping everything else as it was written (key order included). Apply
// reports whether it found something to change.
type Edit struct {
	Name  string
	Apply func(root *openapi.Node) bool
}

// All are the changes a team makes to an API, breaking and not, each at the
// first place it fits.
var All = []Edit{
	{"remove an operation", func(root *openapi.Node) bool {
		return first(root.Get("paths"), func(_ string, item *openapi.Node) bool {
			for _, m := range []string{"delete", "put", "patch", "post", "get"} {
				if removeKey(item, m) {
					return true
				}
			}
			return false
		})
	}},
	{"make a parameter required", func(root *openapi.Node) bool {
		return walk(root.Get("paths"), func(n *openapi.Node) bool {
			if n.Get("in").Str() != "query" || n.Get("name") == nil || isTrue(n.Get("required")) {
				return false
			}
			set(n, "required", openapi.NewScalar(openapi.Bool, "true"))
			return true
		})
	}},
	{"remove an enum value", func(root *openapi.Node) bool {
		return walk(root, func(n *openapi.Node) bool {
			e := n.Get("enum")
			if e == nil || e.Kind != openapi.Array || len(e.Elems()) < 2 || n.Get("type").Str() != "string" {
				return false
			}
			e.SetItems(e.Items()[:len(e.Items())-1])
			return true
		})
	}},
	{"change a type", func(root *openapi.Node) bool {
		return walk(root, func(n *openapi.Node) bool {
			props := n.Get("properties")
			if props == nil || props.Kind != openapi.Object {
				return false
			}
			for _, f := range props.Fields() {
				if t := f.Value.Get("type"); t != nil && t.Str() == "string" && f.Value.Get("enum") == nil {
					t.SetScalar("integer")
					return true
				}
			}
			return false
		})
	}},
	{"add a required property", func(root *openapi.Node) bool {
		return first(schemas(root), func(_ string, s *openapi.Node) bool {
			props, req := s.Get("properties"), s.Get("required")
			if props == nil || props.Kind != openapi.Object || req == nil || req.Kind != openapi.Array {
				return false
			}
			added := &openapi.Node{Kind: openapi.Object}
			added.SetFields([]openapi.Field{{Key: "type", Value: openapi.NewScalar(openapi.String, "string")}})
			props.SetFields(append(props.Fields(), openapi.Field{Key: "added_by_edit", Value: added}))
			req.SetItems(append(req.Elems(), openapi.NewScalar(openapi.String, "added_by_edit")))
			return true
		})
	}},
	{"rename a schema with its $refs", func(root *openapi.Node) bool {
		sec := schemas(root)
		if sec == nil || len(sec.Fields()) == 0 {
			return false
		}
		prefix := "#/components/schemas/"
		if root.Get("swagger") != nil {
			prefix = "#/definitions/"
		}
		// The schema that the fewest $refs name, one at least: a rename that
		// a pull request makes.
		count := map[string]int{}
		walk(root, func(n *openapi.Node) bool {
			if r := n.Get("$ref").Str(); strings.HasPrefix(r, prefix) {
				count[strings.TrimPrefix(r, prefix)]++
			}
			return false
		})
		best := ""
		for _, f := range sec.Fields() {
			if count[f.Key] > 0 && (best == "" || count[f.Key] < count[best]) {
				best = f.Key
			}
		}
		if best == "" {
			return false
		}
		for i := range sec.Fields() {
			if sec.Fields()[i].Key == best {
				sec.Fields()[i].Key = best + "Renamed"
			}
		}
		walk(root, func(n *openapi.Node) bool {
			if r := n.Get("$ref"); r != nil && r.Str() == prefix+best {
				r.SetScalar(prefix + best + "Renamed")
			}
			return false
		})
		return true
	}},
}

func isTrue(n *openapi.Node) bool { return n != nil && n.Kind == openapi.Bool && n.Scalar() == "true" }

func schemas(root *openapi.Node) *openapi.Node {
	if root.Get("swagger") != nil {
		return root.Get("definitions")
	}
	return root.Get("components").Get("schemas")
}

// first calls fn on the members of an object until it returns true.
func first(obj *openapi.Node, fn func(string, *openapi.Node) bool) bool {
	if obj == nil {
		return false
	}
	for _, f := range obj.Fields() {
		if fn(f.Key, f.Value) {
			return true
		}
	}
	return false
}

// walk calls fn on n and each value below it, depth first, until it
// returns true.
func walk(n *openapi.Node, fn func(*openapi.Node) bool) bool {
	if n == nil {
		return false
	}
	if fn(n) {
		return true
	}
	for _, f := range n.Fields() {
		if walk(f.Value, fn) {
			return true
		}
	}
	for _, it := range n.Elems() {
		if walk(it, fn) {
			return true
		}
	}
	return false
}

func removeKey(obj *openapi.Node, key string) bool {
	for i, f := range obj.Fields() {
		if f.Key == key {
			obj.SetFields(append(obj.Fields()[:i:i], obj.Fields()[i+1:]...))
			return true
		}
	}
	return false
}

func set(obj *openapi.Node, key string, v *openapi.Node) {
	for i, f := range obj.Fields() {
		if f.Key == key {
			obj.Fields()[i].Value = v
			return
		}
	}
	obj.SetFields(append(obj.Fields(), openapi.Field{Key: key, Value: v}))
}
