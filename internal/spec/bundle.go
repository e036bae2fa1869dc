package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// BundleOptions tune Bundle.
type BundleOptions struct {
	// Display names a file for messages, from its path as opened; nil means
	// the path itself.
	Display func(path string) string
}

// Bundle turns a description that refers to other local files into one
// document. Each external target is lifted into the document's own
// components, chosen by what it is where it is used, and every reference to
// it becomes a local one: a shared parameter used by 40 operations appears
// once and is referenced 40 times. Remote references (http:, https:) stay as
// written. root must come from Load, so that relative paths resolve.
func Bundle(root *Node, opts BundleOptions) (*Node, error) {
	if root.Src == nil {
		return nil, errors.New("bundle: the description has no source file")
	}
	b := &bundler{
		main:    root,
		files:   map[string]*Node{},
		lifted:  map[string]string{},
		taken:   map[string]map[string]bool{},
		visited: map[*Node]bool{},
		display: opts.Display,
	}
	b.mainPath, _ = filepath.Abs(root.Src.Path)
	b.files[b.mainPath] = root
	if b.display == nil {
		b.display = func(p string) string { return p }
	}
	b.version, b.minor31 = versionOf(root)
	b.reserveNames()
	if err := b.fillTopLevelRefs(); err != nil {
		return nil, err
	}
	if err := b.walk(root, at(sDoc)); err != nil {
		return nil, err
	}
	return root, nil
}

// versionOf tells Swagger 2.0 (2) from OpenAPI 3.x (3), and 3.1.
func versionOf(root *Node) (int, bool) {
	if root.Get("swagger") != nil {
		return 2, false
	}
	v := root.Get("openapi").Str()
	return 3, strings.HasPrefix(v, "3.1")
}

type bundler struct {
	main     *Node
	mainPath string
	version  int
	minor31  bool
	files    map[string]*Node           // by absolute path
	lifted   map[string]string          // target key → local $ref
	taken    map[string]map[string]bool // section path → names in use
	visited  map[*Node]bool
	inlining map[string]bool
	display  func(string) string
}

func (b *bundler) fail(n *Node, format string, args ...any) error {
	e := &SyntaxError{Msg: fmt.Sprintf(format, args...)}
	if n != nil && n.Src != nil {
		e.File, e.Pos = n.Src.Name, n.Pos
	}
	return e
}

// reserveNames records the components the description defines itself.
func (b *bundler) reserveNames() {
	for _, s := range []slot{sSchema, sParam, sResponse, sHeader, sRequestBody, sExample, sSecurityScheme, sLink, sCallback, sPathItem} {
		sec := section(s, b.version, b.minor31)
		if sec == nil {
			continue
		}
		key := strings.Join(sec, "/")
		if b.taken[key] == nil {
			b.taken[key] = map[string]bool{}
		}
		if m := b.sectionNode(sec, false); m != nil {
			for _, f := range m.Fields {
				b.taken[key][f.Key] = true
			}
		}
	}
}

// sectionNode finds (or, with create, adds) a components section.
func (b *bundler) sectionNode(sec []string, create bool) *Node {
	n := b.main
	for _, k := range sec {
		next := n.Get(k)
		if next == nil {
			if !create {
				return nil
			}
			next = &Node{Kind: Object, Src: b.main.Src}
			n.Fields = append(n.Fields, Field{Key: k, Value: next})
		}
		n = next
	}
	return n
}

// fillTopLevelRefs replaces a components entry that is only a $ref to
// another file with the target's content: Swagger 2.0 forbids a bare $ref
// there, and the entry's own name is the one users chose.
func (b *bundler) fillTopLevelRefs() error {
	for _, s := range []slot{sSchema, sParam, sResponse, sHeader, sRequestBody, sExample, sSecurityScheme, sLink, sCallback, sPathItem} {
		sec := section(s, b.version, b.minor31)
		m := b.sectionNode(sec, false)
		if m == nil || m.Kind != Object {
			continue
		}
		for i := range m.Fields {
			ref, ok := refOf(m.Fields[i].Value)
			if !ok || isRemote(ref.Scalar) || len(m.Fields[i].Value.Fields) != 1 {
				continue
			}
			key, target, err := b.target(m.Fields[i].Value, ref)
			if err != nil {
				return err
			}
			if key == "" { // a reference inside the description itself
				continue
			}
			local := "#/" + strings.Join(append(append([]string{}, sec...), escapeToken(m.Fields[i].Key)), "/")
			if _, done := b.lifted[key]; done {
				continue // two entries for one target: the second stays a reference
			}
			b.lifted[key] = local
			m.Fields[i].Value = target
		}
	}
	return nil
}

// target resolves the $ref of n. key is "" for a reference within the main
// description; otherwise it identifies the external target.
func (b *bundler) target(n, ref *Node) (key string, target *Node, err error) {
	file, pointer, err := splitRef(ref.Scalar)
	if err != nil {
		return "", nil, b.fail(ref, "%v", err)
	}
	from := b.mainPath
	if n.Src != nil && n.Src.Path != "" {
		from, _ = filepath.Abs(n.Src.Path)
	}
	abs := from
	if file != "" {
		abs = filepath.Clean(filepath.Join(filepath.Dir(from), filepath.FromSlash(file)))
	}
	first := ref
	for hops := 0; ; hops++ {
		if abs == b.mainPath {
			if file != "" || first != ref {
				first.Scalar = "#" + pointer // the main file named by path
			}
			return "", nil, nil
		}
		root, err := b.load(abs, ref)
		if err != nil {
			return "", nil, err
		}
		t, err := Resolve(root, pointer)
		if err != nil {
			return "", nil, b.fail(ref, "$ref %s does not resolve: %s has %v at %s", ref.Scalar, b.display(abs), err, orRoot(pointer))
		}
		// A target that is itself only a reference is followed, so that
		// the lifted component is the content, not a reference to it.
		next, ok := refOf(t)
		if !ok || len(t.Fields) != 1 || isRemote(next.Scalar) || hops > 32 {
			return abs + "#" + pointer, t, nil
		}
		nf, np, err := splitRef(next.Scalar)
		if err != nil {
			return "", nil, b.fail(next, "%v", err)
		}
		if nf != "" {
			abs = filepath.Clean(filepath.Join(filepath.Dir(abs), filepath.FromSlash(nf)))
		}
		pointer, ref, file = np, next, nf
	}
}

func orRoot(p string) string {
	if p == "" {
		return "the file's top"
	}
	return "#" + p
}

func (b *bundler) load(abs string, ref *Node) (*Node, error) {
	if root, ok := b.files[abs]; ok {
		return root, nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, b.fail(ref, "$ref %s: %s does not exist", ref.Scalar, b.display(abs))
		}
		return nil, b.fail(ref, "$ref %s: %v", ref.Scalar, err)
	}
	root, err := parseAny(&Source{Name: b.display(abs), Path: abs}, data)
	if err != nil {
		return nil, err
	}
	b.files[abs] = root
	return root, nil
}

// walk visits n, which stands at p, and makes every reference in it local.
func (b *bundler) walk(n *Node, p place) error {
	if n == nil || b.visited[n] {
		return nil
	}
	b.visited[n] = true
	switch n.Kind {
	case Array:
		for _, it := range n.Items {
			if err := b.walk(it, child(p, "", b.version == 3)); err != nil {
				return err
			}
		}
	case Object:
		if ref, ok := refOf(n); ok && !isRemote(ref.Scalar) {
			if err := b.localize(n, ref, p); err != nil {
				return err
			}
		}
		for i := range n.Fields {
			k := n.Fields[i].Key
			if k == "$ref" || skipKey(p, k) {
				continue
			}
			if err := b.walk(n.Fields[i].Value, child(p, k, b.version == 3)); err != nil {
				return err
			}
		}
	}
	return nil
}

// localize points the reference in n at a component of the main document,
// lifting the target there first, or inlines it where the format has no
// component for it.
func (b *bundler) localize(n, ref *Node, p place) error {
	key, target, err := b.target(n, ref)
	if err != nil || key == "" {
		return err
	}
	if local, ok := b.lifted[key]; ok {
		ref.Scalar = local
		return nil
	}
	sec := section(p.s, b.version, b.minor31)
	if sec == nil {
		return b.inline(n, key, target, p)
	}
	name := b.pickName(sec, key)
	local := "#/" + strings.Join(sec, "/") + "/" + escapeToken(name)
	b.lifted[key] = local
	ref.Scalar = local
	m := b.sectionNode(sec, true)
	m.Fields = append(m.Fields, Field{Key: name, Value: target})
	return b.walk(target, at(p.s))
}

// inline replaces a reference with a copy of its target where components
// cannot hold it (a Swagger 2.0 header, a 3.0 path item, an extension).
func (b *bundler) inline(n *Node, key string, target *Node, p place) error {
	if b.inlining == nil {
		b.inlining = map[string]bool{}
	}
	if b.inlining[key] {
		return b.fail(n, "circular $ref through %s cannot be inlined here: this format has no component section for it", key[strings.LastIndex(key, string(filepath.Separator))+1:])
	}
	b.inlining[key] = true
	defer delete(b.inlining, key)
	var siblings []Field
	for _, f := range n.Fields {
		if f.Key != "$ref" {
			siblings = append(siblings, f)
		}
	}
	cp := *target
	cp.Fields = append(append([]Field(nil), target.Fields...), siblings...)
	cp.Items = append([]*Node(nil), target.Items...)
	*n = cp
	delete(b.visited, n)
	return b.walk(n, p)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// pickName gives a lifted component a stable, readable name: the target's
// own name; on a clash, prefixed with its file's name, then its folder's;
// then numbered. The same input gives the same names every run.
func (b *bundler) pickName(sec []string, key string) string {
	secKey := strings.Join(sec, "/")
	taken := b.taken[secKey]
	if taken == nil {
		taken = map[string]bool{}
		b.taken[secKey] = taken
	}
	file, pointer, _ := strings.Cut(key, "#")
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	dir := filepath.Base(filepath.Dir(file))
	toks := pointerTokens(pointer)
	base := stem
	if len(toks) > 0 {
		base = toks[len(toks)-1]
	}
	clean := func(s string) string { return strings.Trim(unsafeName.ReplaceAllString(s, "_"), "_") }
	candidates := []string{clean(base), clean(stem + "_" + base), clean(dir + "_" + stem + "_" + base)}
	if len(toks) == 0 {
		candidates = []string{clean(stem), clean(dir + "_" + stem)}
	}
	for _, c := range candidates {
		if c != "" && !taken[c] {
			taken[c] = true
			return c
		}
	}
	for i := 2; ; i++ {
		c := fmt.Sprintf("%s_%d", candidates[0], i)
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
}
