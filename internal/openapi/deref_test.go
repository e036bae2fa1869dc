package openapi

import (
	"context"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"testing"
)

// dereferencer expands every reference below a value into a copy: the
// reference bundles are checked against, written independently of the
// bundler (it knows nothing of components). A reference already being
// expanded becomes "<cycle>"; a $ref that names no file stays as written
// (in data, it may be text).
type dereferencer struct {
	t     *testing.T
	fsys  fs.FS
	files map[string]*Node // by slash path; the root's own file included
	stack map[string]bool
	nodes int // made so far, against maxDerefNodes
}

// maxDerefNodes bounds an expansion: with every $ref expanded, a large
// description that uses its components many times over is many times its
// size. Past the bound, what is left is compared as written (marked).
const maxDerefNodes = 2_000_000

func newDereferencer(t *testing.T, fsys fs.FS, root *Node) *dereferencer {
	return &dereferencer{t: t, fsys: fsys, files: map[string]*Node{root.Src.Name: root}, stack: map[string]bool{}}
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
		root = &Node{Kind: String, Scalar: string(data), Src: &Source{Name: name}}
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
			if r == nil || r.Kind != String || isRemote(r.Scalar) {
				break
			}
			next, nextName, _, ok := d.target(name, r.Scalar)
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
		return &Node{Kind: String, Scalar: "<too large to expand>"}
	}
	switch n.Kind {
	case Array:
		cp := &Node{Kind: Array}
		for _, it := range n.Items {
			cp.Items = append(cp.Items, d.node(it))
		}
		return cp
	case Object:
		if r := n.Get("$ref"); r != nil && r.Kind == String && !isRemote(r.Scalar) {
			return d.ref(n, r.Scalar)
		}
		cp := &Node{Kind: Object}
		for _, f := range n.Fields {
			v := d.node(f.Value)
			if f.Key == "discriminator" {
				v = d.mapping(n, f.Value, v)
			}
			cp.Fields = append(cp.Fields, Field{Key: f.Key, Value: v})
		}
		return cp
	}
	return n
}

// ref expands the $ref object n.
func (d *dereferencer) ref(n *Node, ref string) *Node {
	target, _, key, ok := d.target(n.Src.Name, ref)
	if !ok {
		return n
	}
	if d.stack[key] {
		return &Node{Kind: String, Scalar: "<cycle>"}
	}
	d.stack[key] = true
	out := d.node(target)
	delete(d.stack, key)
	for _, f := range n.Fields {
		if f.Key == "$ref" || out.Kind != Object {
			continue
		}
		// A sibling of the $ref replaces the target's field of its key.
		sib := Field{Key: f.Key, Value: d.node(f.Value)}
		if i := slices.IndexFunc(out.Fields, func(g Field) bool { return g.Key == f.Key }); i >= 0 {
			out.Fields = slices.Clone(out.Fields)
			out.Fields[i] = sib
		} else {
			out.Fields = append(slices.Clone(out.Fields), sib)
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
	for _, f := range expanded.Fields {
		if f.Key != "mapping" {
			cp.Fields = append(cp.Fields, f)
			continue
		}
		mm := &Node{Kind: Object}
		for _, e := range m.Fields {
			v := d.node(e.Value)
			if e.Value.Kind == String && strings.ContainsAny(e.Value.Scalar, "#/.") {
				v = d.ref(&Node{Kind: Object, Src: holder.Src, Fields: []Field{{Key: "$ref", Value: e.Value}}}, e.Value.Scalar)
			}
			mm.Fields = append(mm.Fields, Field{Key: e.Key, Value: v})
		}
		cp.Fields = append(cp.Fields, Field{Key: "mapping", Value: mm})
	}
	return cp
}
