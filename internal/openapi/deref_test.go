package openapi

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"testing"
)

// dereferencer expands every reference below a value into a copy: the
// reference bundles are checked against, written independently of the
// bundler (it knows nothing of components). A reference to a value already
// being expanded (the same value, however the reference names it) becomes
// "<cycle>"; a $ref that names no file stays as written (in data, it may be
// text).
type dereferencer struct {
	t     *testing.T
	fsys  fs.FS
	files map[string]*Node // by slash path; the root's own file included
	stack map[*Node]bool   // the values being expanded
	nodes int              // made so far, against maxDerefNodes
}

// maxDerefNodes bounds an expansion: with every $ref expanded, a large
// description that uses its components many times over is many times its
// size. Past the bound, what is left is compared as written (marked).
const maxDerefNodes = 2_000_000

func newDereferencer(t *testing.T, fsys fs.FS, root *Node) *dereferencer {
	return &dereferencer{t: t, fsys: fsys, files: map[string]*Node{root.Src.Name: root}, stack: map[*Node]bool{}}
}

// load reads a file as the bundler's rules say: YAML or JSON by extension
// (or none), text otherwise. It returns nil for a file that does not exist.
func (d *dereferencer) load(name string) *Node {
	if root, ok := d.files[name]; ok {
		return root
	}
	data, err := fs.ReadFile(d.fsys, name)
	if err != nil {
		return nil
	}
	var root *Node
	switch path.Ext(name) {
	case ".yaml", ".yml", ".json", "":
		root, err = parseAny(&Source{Name: name, budget: newBudget(context.Background(), DefaultLimits)}, data)
		if err != nil {
			d.t.Fatal(err)
		}
	default:
		root = scalarAt(String, string(data), Pos{}, &Source{Name: name})
	}
	d.files[name] = root
	return root
}

// target finds what a reference written in file from names: the value, the
// file it is in, and a key for cycles. Pointers go through any $ref they
// meet on the way, as tools resolve them.
func (d *dereferencer) target(from, ref string) (*Node, string, string, bool) {
	file, pointer, _ := strings.Cut(ref, "#")
	pointer, _ = url.PathUnescape(pointer)
	file, _ = url.PathUnescape(file)
	name := from
	if file != "" {
		name = path.Join(path.Dir(from), file)
	}
	n := d.load(name)
	if n == nil {
		return nil, "", "", false
	}
	for _, tok := range pointerTokens(pointer) {
		for hops := 0; hops < 64; hops++ { // follow a $ref standing in the way
			r := n.Get("$ref")
			if r == nil || r.Kind != String || isRemote(r.Scalar()) {
				break
			}
			next, nextName, _, ok := d.target(name, r.Scalar())
			if !ok {
				return nil, "", "", false
			}
			n, name = next, nextName
		}
		next, err := Resolve(n, "/"+escapeToken(tok))
		if err != nil {
			d.t.Fatalf("%s: %v", ref, err)
		}
		n = next
	}
	return n, name, name + "#" + pointer, true
}

// node expands n, which was read from its Src's file.
func (d *dereferencer) node(n *Node) *Node {
	if d.nodes++; d.nodes > maxDerefNodes {
		return NewScalar(String, "<too large to expand>")
	}
	switch n.Kind {
	case Array:
		cp := &Node{Kind: Array}
		for _, it := range n.Elems() {
			cp.SetItems(append(cp.Items(), d.node(it)))
		}
		return cp
	case Object:
		if r := n.Get("$ref"); r != nil && r.Kind == String && !isRemote(r.Scalar()) {
			return d.ref(n, r.Scalar())
		}
		cp := &Node{Kind: Object}
		for _, f := range n.Fields() {
			v := d.node(f.Value)
			if f.Key == "discriminator" {
				v = d.mapping(n, f.Value, v)
			}
			cp.SetFields(append(cp.Fields(), Field{Key: f.Key, Value: v}))
		}
		return cp
	}
	return n
}

// entry expands a named component. Its own value counts as being
// expanded, so that a reference back to it is a cycle at once, as it is
// where the component is a $ref: a component given inline and one given as
// a $ref to a file expand alike.
func (d *dereferencer) entry(n *Node) *Node {
	if r := n.Get("$ref"); r != nil && r.Kind == String {
		return d.node(n) // the $ref marks its target
	}
	d.stack[n] = true
	defer delete(d.stack, n)
	return d.node(n)
}

// shallow follows n, when it is only a $ref, to the value it names (a
// section of components given as a $ref to a file), without expanding
// that value; nil when the $ref leads nowhere.
func (d *dereferencer) shallow(n *Node) *Node {
	for hops := 0; n != nil && hops < 64; hops++ {
		r := n.Get("$ref")
		if r == nil || r.Kind != String || isRemote(r.Scalar()) {
			return n
		}
		next, _, _, ok := d.target(n.Src.Name, r.Scalar())
		if !ok {
			return nil
		}
		n = next
	}
	return n
}

// ref expands the $ref object n.
func (d *dereferencer) ref(n *Node, ref string) *Node {
	target, _, _, ok := d.target(n.Src.Name, ref)
	if !ok {
		return n
	}
	if d.stack[target] {
		return NewScalar(String, "<cycle>")
	}
	d.stack[target] = true
	out := d.node(target)
	delete(d.stack, target)
	for _, f := range n.Fields() {
		if f.Key == "$ref" || out.Kind != Object {
			continue
		}
		// A sibling of the $ref replaces the target's field of its key.
		sib := Field{Key: f.Key, Value: d.node(f.Value)}
		if i := slices.IndexFunc(out.Fields(), func(g Field) bool { return g.Key == f.Key }); i >= 0 {
			out.SetFields(slices.Clone(out.Fields()))
			out.Fields()[i] = sib
		} else {
			out.SetFields(append(slices.Clone(out.Fields()), sib))
		}
	}
	return out
}

// mapping expands a discriminator's mapping values that are references
// (into the schema they name), so that a bundle, which rewrites them, and
// its source compare alike. A value that is a schema's name stays.
func (d *dereferencer) mapping(holder, raw, expanded *Node) *Node {
	m := raw.Get("mapping")
	if m == nil || m.Kind != Object {
		return expanded
	}
	cp := &Node{Kind: Object}
	for _, f := range expanded.Fields() {
		if f.Key != "mapping" {
			cp.SetFields(append(cp.Fields(), f))
			continue
		}
		mm := &Node{Kind: Object}
		for _, e := range m.Fields() {
			v := d.node(e.Value)
			if e.Value.Kind == String && strings.ContainsAny(e.Value.Scalar(), "#/.") {
				ref := &Node{Kind: Object, Src: holder.Src}
				ref.SetFields([]Field{{Key: "$ref", Value: e.Value}})
				v = d.ref(ref, e.Value.Scalar())
			}
			mm.SetFields(append(mm.Fields(), Field{Key: e.Key, Value: v}))
		}
		cp.SetFields(append(cp.Fields(), Field{Key: "mapping", Value: mm}))
	}
	return cp
}

// expandedComparison compares a description and its bundle, value by
// value, with every $ref expanded on both sides.
type expandedComparison struct {
	src, bundle *dereferencer
}

// document compares every top-level value of the source with the bundle's
// (paths and webhooks, info, tags, servers, x-*, and the rest), and each
// component the source defines, used or not, with the bundle's component
// of the same name. The bundle may add components (the targets it lifted,
// compared where they are used) and nothing else.
func (c *expandedComparison) document(src, bundled *Node, f format) (outcome, reason string) {
	holders := map[string]bool{"components": true}
	if f.major == 2 {
		holders = map[string]bool{"definitions": true, "parameters": true, "responses": true}
	}
	for _, fl := range bundled.Fields() {
		if src.Get(fl.Key) == nil && !holders[fl.Key] {
			return "mismatch", fl.Key + " is in the bundle only"
		}
	}
	for _, fl := range src.Fields() {
		var outcome, reason string
		switch {
		case holders[fl.Key] && f.major == 2:
			outcome, reason = c.entries(fl.Key, fl.Value, bundled.Get(fl.Key))
		case holders[fl.Key]:
			outcome, reason = c.components(fl.Value, bundled.Get(fl.Key))
		default:
			outcome, reason = c.value(fl.Key, fl.Value, bundled.Get(fl.Key))
		}
		if outcome != "exact" {
			return outcome, reason
		}
	}
	return "exact", ""
}

// components compares each section of the source's components.
func (c *expandedComparison) components(src, bundled *Node) (outcome, reason string) {
	src = c.src.shallow(src)
	if src == nil || src.Kind != Object {
		return c.value("components", src, bundled)
	}
	bundled = c.bundle.shallow(bundled)
	for _, sec := range src.Fields() {
		var b *Node
		if bundled != nil {
			b = bundled.Get(sec.Key)
		}
		if outcome, reason := c.entries("components."+sec.Key, sec.Value, b); outcome != "exact" {
			return outcome, reason
		}
	}
	return "exact", ""
}

// entries compares each entry of a section of named components (or any
// mapping) of the source with the bundle's entry of that name.
func (c *expandedComparison) entries(what string, src, bundled *Node) (outcome, reason string) {
	src = c.src.shallow(src)
	if src == nil || src.Kind != Object || strings.HasPrefix(what, "components.x-") {
		return c.value(what, src, bundled)
	}
	bundled = c.bundle.shallow(bundled)
	if bundled == nil || bundled.Kind != Object {
		return "mismatch", what + " is not a mapping in the bundle"
	}
	for _, e := range src.Fields() {
		if outcome, reason := c.compare(what+"."+e.Key, e.Value, bundled.Get(e.Key), true); outcome != "exact" {
			return outcome, reason
		}
	}
	return "exact", ""
}

// value compares one value of the source with the bundle's.
func (c *expandedComparison) value(what string, src, bundled *Node) (outcome, reason string) {
	return c.compare(what, src, bundled, false)
}

// compare compares one value, or one named component, of the source with
// the bundle's.
func (c *expandedComparison) compare(what string, src, bundled *Node, component bool) (outcome, reason string) {
	if src == nil || bundled == nil {
		if src == bundled {
			return "exact", ""
		}
		return "mismatch", what + " is in only one of source and bundle"
	}
	expand := func(d *dereferencer, n *Node) string {
		d.nodes = 0
		if component {
			return string(d.entry(n).AppendJSON(nil))
		}
		return string(d.node(n).AppendJSON(nil))
	}
	a, b := expand(c.src, src), expand(c.bundle, bundled)
	if c.src.nodes > maxDerefNodes || c.bundle.nodes > maxDerefNodes {
		return "too large", fmt.Sprintf("%s expands to more than %d values", what, maxDerefNodes)
	}
	if a != b {
		return "mismatch", "with every $ref expanded, " + what + " differ:\n" + firstDiff(a, b)
	}
	return "exact", ""
}
