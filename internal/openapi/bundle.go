package openapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// BundleOptions tune Bundle.
type BundleOptions struct {
	// FS holds the files $refs name, by slash paths relative to its root:
	// the description's own file system (the workspace). A $ref that leaves
	// it is refused.
	FS fs.FS
	// Limits bound the files read and what inlining adds, for a root that
	// Load did not read; a root Load read keeps the limits Load was given,
	// and what its files have spent of them.
	Limits Limits
}

// Bundle turns a description that refers to other local files into one
// document. Each external target is lifted into the document's own
// components, chosen by what it is where it is used, and every reference to
// it becomes a local one: a shared parameter used by 40 operations appears
// once and is referenced 40 times. Remote references (http:, https:) stay as
// written. root must come from Load on opts.FS. ctx stops a long bundling.
func Bundle(ctx context.Context, root *Node, opts BundleOptions) (*Node, error) {
	root, _, err := bundle(ctx, root, opts)
	return root, err
}

// bundle is Bundle, and the bundler that did the work (nil where there was
// none), whose records tests measure.
func bundle(ctx context.Context, root *Node, opts BundleOptions) (*Node, *bundler, error) {
	if root.Src == nil {
		return nil, nil, errors.New("bundle: the description has no source file")
	}
	bud := root.Src.budget
	if bud == nil {
		bud = newBudget(ctx, opts.Limits)
	}
	bud.ctx = ctx
	if !needsBundling(root, bud.lim.DepthAcrossFiles) {
		return root, nil, nil
	}
	b := &bundler{
		ctx:    ctx,
		fsys:   opts.FS,
		bud:    bud,
		lim:    bud.lim,
		main:   root,
		next:   map[string]int{},
		mark:   walkMarks.Add(1),
		ix:     index{},
		failed: map[*Node]bool{},
		orig:   map[*Node]string{},
	}
	b.mainPath = root.Src.Name
	b.files.add(b.mainPath, bud).root = root // counted among the files; its nodes name its own Source
	defer b.files.dropTrees()
	b.version = versionOf(root)
	b.fmt = formatOf(root)
	if err := b.fillSections(); err != nil {
		return nil, b, err
	}
	err := b.fillTopLevelRefs()
	if err == nil {
		err = b.walk(root, at(sDoc), 0)
	}
	if err != nil && !errors.Is(err, errTooMany) {
		return nil, b, err
	}
	for ref := range b.failed {
		ref.unresolved = true
	}
	if len(b.errs) > 0 {
		return root, b, b.errs
	}
	return root, b, nil
}

// walkMarks numbers the bundlings, for the marks their walks leave on the
// nodes: a node one bundling walked is new to the next (a description is
// bundled once; a tree bundled again must be walked again).
var walkMarks atomic.Uint32

// needsBundling reports whether bundling could change root or refuse it: a
// $ref or a discriminator mapping that names a file, or that cannot be
// read, or nesting past maxDepth. A description with none, most of them,
// skips the bundler's walk and its map of every value.
func needsBundling(root *Node, maxDepth int) bool {
	var needs func(n *Node, depth int) bool
	needs = func(n *Node, depth int) bool {
		if depth > maxDepth {
			return true
		}
		switch n.Kind {
		case Object:
			for i := range n.Fields() {
				f := &n.Fields()[i]
				switch {
				case f.Key == "$ref" && f.Value.Kind == String && namesFile(f.Value.Scalar(), false):
					return true
				case f.Key == "discriminator":
					for _, m := range fieldsOfMapping(f.Value) {
						if m.Value.Kind == String && namesFile(m.Value.Scalar(), true) {
							return true
						}
					}
				}
				if needs(f.Value, depth+1) {
					return true
				}
			}
		case Array:
			if n.packed {
				return depth+packedHeight(Array, n.Scalar()) > maxDepth // no $ref in it
			}
			for _, it := range n.Items() {
				if needs(it, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return needs(root, 0)
}

// namesFile reports whether a $ref (or, mapping, a discriminator mapping's
// value) names a file, or cannot be read as a reference.
func namesFile(ref string, mapping bool) bool {
	if isRemote(ref) || mapping && !looksLikeRef(ref) {
		return false
	}
	file, _, err := splitRef(ref)
	return err != nil || file != ""
}

// fieldsOfMapping is the members of a discriminator's mapping, if any.
func fieldsOfMapping(d *Node) []Field {
	m := d.Get("mapping")
	if m == nil || m.Kind != Object {
		return nil
	}
	return m.Fields()
}

// LoadErrors are all the load errors of a description: every $ref that does
// not resolve, every referenced file that cannot be read, at its place.
type LoadErrors []*LoadError

func (e LoadErrors) Error() string {
	if len(e) == 1 {
		return e[0].Error()
	}
	return fmt.Sprintf("%s (and %d more)", e[0].Error(), len(e)-1)
}

// Unwrap gives each error, for errors.Is and errors.As.
func (e LoadErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, le := range e {
		out[i] = le
	}
	return out
}

// maxLoadErrors bounds the errors one bundling collects.
const maxLoadErrors = 100

// errTooMany stops a walk that has collected maxLoadErrors: those are
// reported, the rest not looked for.
var errTooMany = errors.New("too many broken $refs")

// collect records a $ref that cannot be bundled and lets the walk go on, so
// that a run reports every broken $ref at once. A limit hit or a cancelled
// run stops it; so does the error past maxLoadErrors, with errTooMany.
func (b *bundler) collect(err error) error {
	if errors.Is(err, errReported) {
		return nil
	}
	var le *LoadError
	if !errors.As(err, &le) || errors.Is(err, ErrLimit) {
		return err
	}
	if len(b.errs) >= maxLoadErrors {
		return errTooMany
	}
	var les LoadErrors
	if errors.As(err, &les) {
		b.errs = append(b.errs, les...)
		return nil
	}
	b.errs = append(b.errs, le)
	return nil
}

// format is a description's format: Swagger 2.0, or OpenAPI 3.minor.
type format struct {
	major, minor int
}

// formatOf reads a description's format from its swagger or openapi key.
func formatOf(root *Node) format {
	if root.Get("swagger") != nil {
		return format{2, 0}
	}
	v := strings.TrimPrefix(root.Get("openapi").Str(), "3.")
	minor, _, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(minor)
	return format{3, n}
}

// since31 reports OpenAPI 3.1 or later, whose schemas are JSON Schema
// 2020-12 and whose paths and responses may be left out or empty.
func (f format) since31() bool {
	return f.major == 3 && f.minor >= 1
}

// versionOf tells Swagger 2.0 (2) from OpenAPI 3.x (3).
func versionOf(root *Node) int {
	if root.Get("swagger") != nil {
		return 2
	}
	return 3
}

type bundler struct {
	ctx      context.Context
	fsys     fs.FS
	bud      *budget
	lim      Limits
	main     *Node
	mainPath string
	version  int
	fmt      format
	files    fileTable      // by slash path
	read     int64          // bytes of all files read
	lifted   liftedTable    // target key → local $ref, for a target with a pointer
	next     map[string]int // section path and base name → next number to try
	mark     uint32         // set on the nodes walked (Node.walked)
	inlining map[string]bool
	ix       index
	walked   int
	errs     LoadErrors     // $refs that could not be bundled
	failed   map[*Node]bool // their $ref values
	orig     map[*Node]string
}

// refText is what a $ref said as written: the bundler rewrites refs to
// local ones, and a ref followed later must still lead where its author
// meant, from the file it was written in.
func (b *bundler) refText(ref *Node) string {
	if s, ok := b.orig[ref]; ok {
		return s
	}
	return ref.Scalar()
}

// rewrite points a $ref (or a discriminator mapping's value) at local.
// What it said is kept for a $ref written in another file, which a chain
// of $refs or a second inlining may follow again; not for one written in
// the main file, which target never follows (it stops at the main file)
// and the walk visits once (Load gives each place a node of its own, an
// alias a copy of its anchor's value): that cost some 50 bytes of map a
// $ref for nothing, 3 MB for 64,000.
func (b *bundler) rewrite(ref *Node, local string) {
	if _, ok := b.orig[ref]; !ok && ref.Src != b.main.Src {
		b.orig[ref] = ref.Scalar()
	}
	ref.SetScalar(local)
}

func (b *bundler) fail(n *Node, format string, args ...any) error {
	return b.failWith(nil, n, format, args...)
}

// failWith is fail with a cause.
func (b *bundler) failWith(cause error, n *Node, format string, args ...any) error {
	e := &LoadError{Msg: fmt.Sprintf(format, args...), Err: cause}
	if n != nil && n.Src != nil {
		e.File, e.Pos = n.Src.Name, n.Pos
	}
	return e
}

// componentSlots are the kinds of component a description may hold.
var componentSlots = []slot{sSchema, sParam, sResponse, sHeader, sRequestBody, sExample, sSecurityScheme, sLink, sCallback, sPathItem, sMedia}

// fillSections replaces a components section given whole as a $ref to
// another file (components: {parameters: {$ref: ./params.yaml}}) with that
// file's content, before anything is lifted into it: lifting into the $ref
// and then inlining it would write some keys twice.
func (b *bundler) fillSections() error {
	secs := [][]string{{"components"}}
	for _, s := range componentSlots {
		if sec := section(s, b.fmt); sec != nil {
			secs = append(secs, sec)
		}
	}
	for _, sec := range secs {
		m := b.sectionNode(sec, false)
		ref, ok := refOf(m)
		if !ok || isRemote(ref.Scalar()) {
			continue
		}
		key, target, err := b.target(m, ref)
		if err != nil {
			if err := b.collect(err); err != nil {
				return err
			}
			b.failed[ref] = true
			continue
		}
		if key == "" {
			continue // a section that refers into this very file: left as it is
		}
		if target.Kind != Object {
			b.errs = append(b.errs, &LoadError{File: ref.Src.Name, Pos: ref.Pos, Msg: fmt.Sprintf("$ref %s names a %s, not a mapping of %s", ref.Scalar(), target.Kind, sec[len(sec)-1])})
			b.failed[ref] = true
			continue
		}
		fields := withSiblings(target.Fields(), m.Fields())
		if len(sec) == 1 && sec[0] == "components" {
			// The sections in it are the other file's nodes: lifting adds
			// to a section, and a target that holds that file (a $ref to
			// it from within it) would then hold itself. The main file's
			// sections are copies of their own.
			for i, f := range fields {
				if f.Value.Kind == Object {
					cp := *f.Value
					cp.SetFields(slices.Clone(f.Value.Fields()))
					cp.walked = 0
					fields[i].Value = &cp
				}
			}
		}
		*m = Node{Kind: Object, Pos: m.Pos, Src: target.Src}
		m.SetFields(fields)
		delete(b.ix, m) // its members replaced: an index of them is stale
		// A $ref elsewhere to one of these components, by the file's path,
		// is a $ref to its place in the section.
		for _, f := range target.Fields() {
			b.setLifted(key+"/"+escapeToken(f.Key), "#/"+strings.Join(sec, "/")+"/"+escapeToken(f.Key))
		}
	}
	return nil
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
			n.SetFields(append(n.Fields(), Field{Key: k, Value: next}))
		}
		n = next
	}
	return n
}

// fillTopLevelRefs replaces a components entry that is only a $ref to
// another file with the target's content: Swagger 2.0 forbids a bare $ref
// there, and the entry's own name is the one users chose.
func (b *bundler) fillTopLevelRefs() error {
	for _, s := range componentSlots {
		sec := section(s, b.fmt)
		if sec == nil {
			continue // this version has no section for it (the root is none)
		}
		m := b.sectionNode(sec, false)
		if m == nil || m.Kind != Object {
			continue
		}
		for i := range m.Fields() {
			ref, ok := refOf(m.Fields()[i].Value)
			if !ok || isRemote(ref.Scalar()) || len(m.Fields()[i].Value.Fields()) != 1 {
				continue
			}
			key, target, err := b.target(m.Fields()[i].Value, ref)
			if err != nil {
				if err := b.collect(err); err != nil {
					return err
				}
				b.failed[ref] = true // reported once, not again by the walk
				continue
			}
			if key == "" { // a reference inside the description itself
				continue
			}
			local := "#/" + strings.Join(append(append([]string{}, sec...), escapeToken(m.Fields()[i].Key)), "/")
			if _, done := b.liftedLocal(key); done {
				continue // two entries for one target: the second stays a reference
			}
			b.setLifted(key, local)
			m.Fields()[i].Value = target
		}
	}
	return nil
}

// target resolves the $ref of n. key is "" for a reference within the main
// description; otherwise it identifies the external target.
func (b *bundler) target(n, ref *Node) (key string, target *Node, err error) {
	file, pointer, err := splitRef(b.refText(ref))
	if err != nil {
		return "", nil, b.fail(ref, "%v", err)
	}
	from := b.mainPath
	if n.Src != nil {
		from = n.Src.Name
	}
	name := from
	if file != "" {
		if name, err = b.refPath(ref, from, file); err != nil {
			return "", nil, err
		}
	}
	first := ref
	var chain []string // the targets followed, to name a cycle
	for {
		if name == b.mainPath {
			if file != "" || first != ref {
				b.rewrite(first, "#"+fragment(pointer)) // the main file named by path
			}
			return "", nil, nil
		}
		here := name + "#" + pointer
		if slices.Contains(chain, here) {
			return "", nil, b.fail(first, "$ref %s leads into a cycle of $refs that only refer to each other: %s → %s: give one of them the value itself", b.refText(first), strings.Join(chain, " → "), here)
		}
		chain = append(chain, here)
		root, err := b.load(name, ref)
		if err != nil {
			return "", nil, err
		}
		t, err := b.ix.resolve(root, pointer)
		if err != nil {
			return "", nil, b.fail(ref, "$ref %s does not resolve: %s has %v at %s: fix the $ref, or add what it names to %[2]s", b.refText(ref), name, err, orRoot(pointer))
		}
		// A target that is itself only a reference is followed, so that
		// the lifted component is the content, not a reference to it.
		next, ok := refOf(t)
		if !ok || len(t.Fields()) != 1 || isRemote(b.refText(next)) {
			return here, t, nil
		}
		nf, np, err := splitRef(b.refText(next))
		if err != nil {
			return "", nil, b.fail(next, "%v", err)
		}
		if nf != "" {
			if name, err = b.refPath(next, name, nf); err != nil {
				return "", nil, err
			}
		}
		pointer, ref, file = np, next, nf
	}
}

// refPath resolves the file part of a $ref written in from: a slash path
// inside the description's file system, not a hidden file or one in .git.
func (b *bundler) refPath(ref *Node, from, file string) (string, error) {
	p, err := refFile(from, file)
	if err != nil {
		var re *ruleError
		errors.As(err, &re)
		return "", b.failWith(re.cause, ref, "$ref %s %s", ref.Scalar(), re.why)
	}
	return p, nil
}

func orRoot(p string) string {
	if p == "" {
		return "the file's top"
	}
	return "#" + p
}

// isDescriptionFile reports whether a file a $ref names is YAML or JSON, by
// its extension (or its lack of one); any other file (a code sample, a
// Markdown text) is text.
func isDescriptionFile(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json", "":
		return true
	}
	return false
}

// errReported is a file that could not be loaded, already reported.
var errReported = errors.New("reported already")

// load reads and parses a file a $ref names, once, within the limits. A
// file that cannot be loaded is reported at the first $ref to it only.
func (b *bundler) load(name string, ref *Node) (*Node, error) {
	if f := b.files.get(name); f != nil {
		if f.root == nil {
			return nil, errReported
		}
		return f.root, nil
	}
	if err := b.ctx.Err(); err != nil {
		return nil, err
	}
	if b.files.len() >= b.lim.Files {
		return nil, b.failWith(ErrLimit, ref, "$ref %s: the description refers to more than %d files (the limit of docs-publish): gather small parts into fewer files", ref.Scalar(), b.lim.Files)
	}
	if err := checkRealPath(b.fsys, name); err != nil {
		return nil, b.failWith(ErrNotAllowed, ref, "$ref %s: %v", ref.Scalar(), err)
	}
	data, err := readFile(b.fsys, name, b.lim.FileBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, b.failWith(err, ref, "$ref %s: %s does not exist: add the file, or fix the $ref (its path is read from the folder of the file that holds it)", ref.Scalar(), name)
	case errors.Is(err, ErrLimit):
		return nil, b.failWith(err, ref, "$ref %s: %s: %v (the limit for one file): split the file", ref.Scalar(), name, err)
	case err != nil:
		return nil, b.failWith(err, ref, "$ref %s: %v: refs must name regular files inside the workspace", ref.Scalar(), err)
	}
	b.bud.file(int64(len(data)))
	if b.read += int64(len(data)); b.read > b.lim.TotalBytes {
		return nil, b.failWith(ErrLimit, ref, "$ref %s: the description's files are more than %s together (the limit of docs-publish): split the API into several descriptions, which a config file publishes in one step", ref.Scalar(), mib(b.lim.TotalBytes))
	}
	f := b.files.add(name, b.bud) // no tree yet: reported, if it gets none
	src := &f.src
	if !isDescriptionFile(name) {
		// Code samples, Markdown, text: the file's text, exactly as
		// written, is the value.
		if err := b.bud.value(); err != nil {
			return nil, b.failWith(err, ref, "$ref %s: %v", ref.Scalar(), err)
		}
		f.root = scalarAt(String, string(data), Pos{Line: 1, Col: 1}, src)
		return f.root, nil
	}
	root, err := parseAny(src, data)
	if err != nil {
		return nil, err
	}
	f.root = root
	return root, nil
}

// walk visits n, which stands at p, depth levels down its tree, and makes
// every reference in it local.
func (b *bundler) walk(n *Node, p place, depth int) error {
	if n == nil || n.walked == b.mark {
		return nil
	}
	n.walked = b.mark
	// depth counts on through every $ref followed into another file: a
	// chain of files, each nested deep and referring to the next, is as
	// deep as all of them together, in the walk as in the document.
	if depth > b.lim.DepthAcrossFiles {
		return b.failWith(ErrLimit, n, "nests deeper than %d levels, counting through the files its $refs lead to (the limit of docs-publish): refer to shared components rather than nesting", b.lim.DepthAcrossFiles)
	}
	if b.walked++; b.walked%(1<<16) == 0 {
		if err := b.ctx.Err(); err != nil {
			return err
		}
	}
	switch n.Kind {
	case Array:
		if n.packed && depth+packedHeight(Array, n.Scalar()) > b.lim.DepthAcrossFiles {
			n.unpack() // for the error at its deepest item
		}
		// A packed Array holds no $ref and no discriminator: nothing to
		// make local.
		for _, it := range n.Items() {
			if err := b.walk(it, child(p, "", b.version == 3), depth+1); err != nil {
				return err
			}
		}
	case Object:
		if ref, ok := refOf(n); ok && !isRemote(ref.Scalar()) && !b.failed[ref] {
			var err error
			if p.s == sData {
				err = b.dataRef(n, ref, depth)
			} else {
				err = b.localize(n, ref, p, depth)
			}
			if err != nil {
				b.failed[ref] = true
				return b.collect(err)
			}
		}
		if p.s == sSchema {
			if err := b.mappings(n, depth); err != nil {
				return err
			}
		}
		for i := range n.Fields() {
			if n.Fields()[i].Key == "$ref" {
				continue
			}
			if err := b.walk(n.Fields()[i].Value, child(p, n.Fields()[i].Key, b.version == 3), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// dataRef resolves a $ref in data (an example, a default, an enum): the
// service's resolver follows $ref wherever it appears, so one that leads
// nowhere in the bundle is a broken reference in the published document.
// One to another file, or written in another file, is inlined when it
// resolves, as the service never receives that file and the text of a
// local one would name a place in the bundle's root; a local one written
// in the description itself stays. One that does not resolve is an error
// at its place.
func (b *bundler) dataRef(n, ref *Node, depth int) error {
	file, pointer, err := splitRef(b.refText(ref))
	if err != nil {
		return b.fail(ref, "$ref %s in data: %v", ref.Scalar(), err)
	}
	if file == "" && (n.Src == nil || n.Src.Name == b.mainPath) {
		if _, err := b.ix.resolve(b.main, pointer); err != nil {
			return b.fail(ref, "$ref %s in data does not resolve: %v: fix the $ref, or add what it names", ref.Scalar(), err)
		}
		return nil
	}
	key, target, err := b.target(n, ref)
	if err != nil || key == "" {
		return err
	}
	return b.inline(n, key, target, at(sData), depth)
}

// mappings rewrites a discriminator's mapping values that name another file
// as the $refs they are: the schema is lifted (once, with the oneOf $ref
// that names it too) and the value points at it. A value that is a schema's
// name stays.
func (b *bundler) mappings(schema *Node, depth int) error {
	d := schema.Get("discriminator")
	m := d.Get("mapping")
	if m == nil || m.Kind != Object {
		return nil
	}
	sec := section(sSchema, b.fmt)
	for _, f := range m.Fields() {
		v := f.Value
		if v.Kind != String || !looksLikeRef(v.Scalar()) || isRemote(v.Scalar()) || b.failed[v] {
			continue
		}
		key, target, err := b.target(d, v)
		if err != nil {
			if err := b.collect(err); err != nil {
				return err
			}
			b.failed[v] = true
			continue
		}
		if key == "" {
			continue
		}
		if local, ok := b.liftedLocal(key); ok {
			b.rewrite(v, local)
			continue
		}
		b.rewrite(v, b.lift(key, target, sec))
		if err := b.walk(target, at(sSchema), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// looksLikeRef tells a discriminator mapping's value that is a reference
// (#/components/schemas/Cat, ./Cat.yaml) from a schema's name (Cat).
func looksLikeRef(v string) bool {
	return strings.ContainsAny(v, "#/") || isDescriptionFile(v) && path.Ext(v) != ""
}

// localize points the reference in n at a component of the main document,
// lifting the target there first, or inlines it where the format has no
// component for it.
func (b *bundler) localize(n, ref *Node, p place, depth int) error {
	key, target, err := b.target(n, ref)
	if err != nil || key == "" {
		return err
	}
	if local, ok := b.liftedLocal(key); ok {
		b.rewrite(ref, local)
		return nil
	}
	sec := section(p.s, b.fmt)
	if sec == nil {
		return b.inline(n, key, target, p, depth)
	}
	b.rewrite(ref, b.lift(key, target, sec))
	return b.walk(target, at(p.s), depth+1)
}

// liftedLocal is the local $ref of the target key, if it was lifted: a
// whole file's in its record, any other's in the table of targets lifted.
func (b *bundler) liftedLocal(key string) (string, bool) {
	if f := b.wholeFile(key); f != nil {
		return f.local, f.local != ""
	}
	return b.lifted.get(key)
}

// setLifted makes local the $ref of the target key.
func (b *bundler) setLifted(key, local string) {
	if f := b.wholeFile(key); f != nil {
		f.local = local
		return
	}
	b.lifted.set(key, local)
}

// wholeFile is the record of the file the target key names whole (a key
// with no pointer), or nil.
func (b *bundler) wholeFile(key string) *loadedFile {
	name, pointer, _ := strings.Cut(key, "#")
	if pointer != "" {
		return nil
	}
	return b.files.get(name)
}

// lift puts an external target into the components section sec under a
// name of its own, and returns the local $ref to it.
func (b *bundler) lift(key string, target *Node, sec []string) string {
	m := b.sectionNode(sec, true)
	name := b.pickName(sec, m, key)
	tok := escapeToken(name)
	local := "#/" + strings.Join(sec, "/") + "/" + tok
	if tok == name {
		name = local[len(local)-len(tok):] // one string for the name and its $ref
	}
	b.setLifted(key, local)
	m.SetFields(append(m.Fields(), Field{Key: name, Value: target}))
	return local
}

// failCircular refuses the $ref n to key, which would inline a copy of
// its target inside that copy.
func (b *bundler) failCircular(n *Node, key string) error {
	return b.fail(n, "circular $ref through %s cannot be inlined here, where no component section can hold it: break the cycle, or refer to it from a component", key[strings.LastIndex(key, "/")+1:])
}

// inline replaces a reference with a copy of its target where components
// cannot hold it (a Swagger 2.0 header, a 3.0 path item, an extension).
func (b *bundler) inline(n *Node, key string, target *Node, p place, depth int) error {
	if b.inlining == nil {
		b.inlining = map[string]bool{}
	}
	if b.inlining[key] {
		return b.failCircular(n, key)
	}
	// A copy of the target will be written out where the $ref stood: a
	// 1 MiB value inlined 8000 times would be 8 GB of JSON. The target is
	// measured as it is now, with the $refs inside it that were inlined
	// already (a copy shares them): nested inlining adds up too. Measuring
	// stops at the limit, so it costs no more than the limit allows.
	size, holdsRef := sizeReaching(target, b.lim.ExpandedBytes-b.bud.expanded+1, n)
	if b.bud.expanded += size; b.bud.expanded > b.lim.ExpandedBytes {
		return b.failWith(ErrLimit, n, "$refs inline more than %s (the limit of docs-publish for what aliases and inlined $refs may add): refer to shared components instead", mib(b.lim.ExpandedBytes))
	}
	// The copy shares the target's members: a target that holds the $ref
	// (the $ref in a part of the file inlined around it, or in a file that
	// part inlined) would hold itself once the $ref is replaced, and every
	// walk after would go round it for ever. The key above does not tell:
	// a.yaml and a.yaml#/X overlap.
	if holdsRef {
		return b.failCircular(n, key)
	}
	b.inlining[key] = true
	defer delete(b.inlining, key)
	cp := *target
	switch target.Kind {
	case Object:
		cp.SetFields(withSiblings(target.Fields(), n.Fields()))
	case Array:
		// A packed list's items are its text, which no one changes:
		// the copy shares it.
		if !target.packed {
			cp.SetItems(append([]*Node(nil), target.Items()...))
		}
	}
	*n = cp
	delete(b.ix, n) // its members replaced: an index of them is stale
	n.walked = 0
	return b.walk(n, p, depth)
}

// withSiblings is a target's fields with the siblings of the $ref that
// named it: a sibling replaces the target's field of the same key (the
// author's word where the $ref stands), and any other is added. The result
// never holds a key twice.
func withSiblings(fields, siblings []Field) []Field {
	out := append([]Field(nil), fields...)
	for _, s := range siblings {
		if s.Key == "$ref" {
			continue
		}
		if i := slices.IndexFunc(out, func(f Field) bool { return f.Key == s.Key }); i >= 0 {
			out[i] = s
			continue
		}
		out = append(out, s)
	}
	return out
}

// jsonSize is the size of n written as JSON (roughly: strings unescaped),
// memoized by node when memo is not nil, for values that share their parts.
func jsonSize(n *Node, memo map[*Node]int64) int64 {
	if s, ok := memo[n]; ok {
		return s
	}
	var s int64
	switch n.Kind {
	case String:
		s = int64(len(n.Scalar())) + 2
	case Object:
		s = 2
		for _, f := range n.Fields() {
			s += int64(len(f.Key)) + 4 + jsonSize(f.Value, memo)
		}
	case Array:
		if n.packed {
			s = n.packedSize()
			break
		}
		s = 2
		for _, it := range n.Items() {
			s += 1 + jsonSize(it, memo)
		}
	default:
		s = int64(len(n.Scalar()))
	}
	if memo != nil {
		memo[n] = s
	}
	return s
}

// sizeUpTo is n's size as JSON, as jsonSize reckons it, counted only up to
// max: past it, it is some number over max. Shared parts count each time
// they appear, as they will be written.
func sizeUpTo(n *Node, max int64) int64 {
	s, _ := sizeReaching(n, max, nil)
	return s
}

// sizeReaching is sizeUpTo, and whether the nodes it counted hold find:
// when the size is at most max, whether n holds find at all.
func sizeReaching(n *Node, max int64, find *Node) (int64, bool) {
	var s int64
	found := false
	var walk func(n *Node) bool
	walk = func(n *Node) bool {
		found = found || n == find
		switch n.Kind {
		case String:
			s += int64(len(n.Scalar())) + 2
		case Object:
			s += 2
			for _, f := range n.Fields() {
				s += int64(len(f.Key)) + 4
				if s > max || !walk(f.Value) {
					return false
				}
			}
		case Array:
			if n.packed {
				s += n.packedSize()
				break
			}
			s += 2
			for _, it := range n.Items() {
				s++
				if s > max || !walk(it) {
					return false
				}
			}
		default:
			s += int64(len(n.Scalar()))
		}
		return s <= max
	}
	walk(n)
	return s, found
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName reports whether s is a name as clean makes it: no character
// unsafeName matches, no _ at either end.
func safeName(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-':
		case c == '_' && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return s != ""
}

// pickName gives a lifted component of the section m, at sec, a stable,
// readable name not in use there (defined by the description or lifted
// before): the target's own name; on a clash, prefixed with its file's
// name, then its folder's; then numbered. The same input gives the same
// names every run.
func (b *bundler) pickName(sec []string, m *Node, key string) string {
	secKey := strings.Join(sec, "/")
	// In use: a member of the section, found through the bundler's index
	// (lifting only appends, which the index takes as it comes).
	taken := func(name string) bool { return b.ix.get(m, name) != nil }
	file, pointer, _ := strings.Cut(key, "#")
	stem := strings.TrimSuffix(path.Base(file), path.Ext(file))
	dir := path.Base(path.Dir(file))
	toks := pointerTokens(pointer)
	base := stem
	if len(toks) > 0 {
		base = toks[len(toks)-1]
	}
	clean := func(s string) string {
		if safeName(s) {
			return s // a part of key: the name a lifted file most often gets, without a copy
		}
		return strings.Trim(unsafeName.ReplaceAllString(s, "_"), "_")
	}
	candidates := []string{clean(base), clean(stem + "_" + base), clean(dir + "_" + stem + "_" + base)}
	if len(toks) == 0 {
		candidates = []string{clean(stem), clean(dir + "_" + stem)}
	}
	if dir == "." { // a file at the top of the workspace: no folder to name
		candidates = candidates[:len(candidates)-1]
	}
	for _, c := range candidates {
		if c != "" && !taken(c) {
			return c
		}
	}
	// Numbering goes on from where the last clash on this base stopped, so
	// that n clashes cost n tries, not n²/2; a number a name in use already
	// holds (a defined "a_2", an earlier base "a_2") is skipped, once.
	nk := secKey + "\x00" + candidates[0]
	i := b.next[nk]
	if i < 2 {
		i = 2
	}
	for ; ; i++ {
		c := candidates[0] + "_" + strconv.Itoa(i)
		if !taken(c) {
			b.next[nk] = i + 1
			return c
		}
	}
}
