package openapi

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/docs-publish/docs-publish/internal/memlimit"
)

// The single pass: a description in one JSON file, with no $ref to another
// file, is read token by token from its file, written out as it passes, and
// validated from the few values validation reads, which are the only ones
// kept. Bundling such a description changes nothing, so what is written is
// the upload. Whatever the pass cannot decide (another file named, a value
// validation reads that it did not keep, invalid JSON, a limit hit) it
// leaves to the tree, which reads the file again and says what is wrong:
// both give the same document and the same findings.

// errGiveWay is the cause of a single pass that leaves the description to
// the tree.
var errGiveWay = errors.New("left to the tree")

// giveWay says why the single pass gave way, for tests and debugging.
type giveWay struct{ why string }

func (g *giveWay) Error() string { return "single pass: " + g.why }
func (g *giveWay) Unwrap() error { return errGiveWay }

func gaveWay(format string, args ...any) error { return &giveWay{fmt.Sprintf(format, args...)} }

// mode is how much of a value the single pass keeps.
type mode uint8

const (
	mCopy       mode = iota // nothing: written out only
	mStub                   // its kind and place (a node marked stub)
	mProfile                // an object's members as profileKey says; items of an array as mProfile
	mRoot                   // the description's top: mProfile, with its other members as stubs
	mNamed                  // every member (or item), each as mProfile
	mNamedStubs             // every member (or item), each as mStub
	mFull                   // all of it
)

// profileKey is how much of the value under key a kept object keeps: the
// members validation reads (see validate.go), and the sections and names
// that references name. Changing what validation reads means changing this.
func profileKey(key string) mode {
	switch key {
	case "$ref", "swagger", "openapi", "name", "in", "required", "type", "minLength", "maxLength",
		"minimum", "maximum", "pattern", "default", "enum", "consumes":
		return mFull
	case "description", "title", "version", "content":
		return mStub // only their kind, or that they are there, is read
	case "info", "components", "schema", "query",
		"get", "put", "post", "delete", "options", "head", "patch", "trace":
		return mProfile
	case "paths", "parameters", "responses", "headers", "schemas", "definitions", "pathItems", "additionalOperations":
		return mNamed
	case "examples", "requestBodies", "securitySchemes", "links", "callbacks", "mediaTypes", "webhooks":
		return mNamedStubs
	}
	return mCopy
}

// under is the mode of the values inside a value of mode m, under key.
func (m mode) under(key string) mode {
	switch m {
	case mProfile:
		return profileKey(key)
	case mRoot:
		if k := profileKey(key); k != mCopy {
			return k
		}
		return mStub // that it is there, for the pointers that name it
	case mNamed:
		return mProfile
	case mNamedStubs:
		return mStub
	case mFull:
		return mFull
	}
	return mCopy
}

// item is the mode of an array's items.
func (m mode) item() mode {
	switch m {
	case mProfile, mNamed:
		return mProfile
	case mNamedStubs:
		return mStub
	case mFull:
		return mFull
	}
	return mCopy
}

// places is where a value stands, read as Swagger 2.0 and as OpenAPI 3.x:
// the pass may meet a value before the key that says which it is.
type places struct{ v2, v3 place }

func (p places) child(key string) places {
	c := places{v2: child(p.v2, key, false)}
	if p.v3 == p.v2 && !(key == "examples" && (p.v2.s == sParam || p.v2.s == sHeader)) {
		c.v3 = c.v2
	} else {
		c.v3 = child(p.v3, key, true)
	}
	return c
}

// passRef is a $ref the pass met, for validation to check: a description
// may hold hundreds of thousands, so it is kept small.
type passRef struct {
	text   string // shared by every $ref that says the same
	pos    Pos
	object int32 // the object holding it, numbered in document order
	// checked2, checked3: validation checks it, read as Swagger 2.0 and as
	// OpenAPI 3.x (it does not check those inside examples and defaults)
	checked2, checked3 bool
}

// Flags of an object, for the discriminator mappings the bundler follows.
const (
	fDiscriminator uint8 = 1 << iota // the value of a discriminator key
	fMapping                         // the mapping of a discriminator
)

type pass struct {
	dec      *aheadReader // the decoder, on another goroutine, which makes the upload's batches
	lines    *lineReader
	src      *Source
	bud      *budget
	nodes    slab
	maxDepth int
	size     int64 // the document's size as Encode reckons it
	objects  int
	refs     []passRef
	texts    map[string]string // every $ref's text, once
	names    []*names          // the keys of the objects open, by depth
	sch      schemaPass        // the schemas' checks (schema.go)
	kids     kids
}

// names are the keys of one object, by their hashes: a key written twice,
// or two whose hashes meet, give way to the tree, whose decoder names the
// key. Most objects have a few keys, looked through; large ones get a set.
type names struct {
	list []uint64
	set  map[uint64]struct{} // kept for the next large object at its depth
	big  bool                // set holds the keys
}

// add reports whether h is new to the object.
func (ns *names) add(h uint64) bool {
	if ns.big {
		if _, dup := ns.set[h]; dup {
			return false
		}
		ns.set[h] = struct{}{}
		return true
	}
	if slices.Contains(ns.list, h) {
		return false
	}
	ns.list = append(ns.list, h)
	if len(ns.list) > 32 {
		if ns.set == nil {
			ns.set = make(map[uint64]struct{}, 64)
		}
		clear(ns.set)
		ns.big = true
		for _, h := range ns.list {
			ns.set[h] = struct{}{}
		}
	}
	return true
}

// maxKeptNames is the most keys a set kept for the next object at its
// depth may have held.
const maxKeptNames = 1024

// keysAt is a fresh set of keys for an object at depth.
func (p *pass) keysAt(depth int) *names {
	for len(p.names) <= depth {
		p.names = append(p.names, &names{})
	}
	ns := p.names[depth]
	ns.list, ns.big = ns.list[:0], false
	if len(ns.set) > maxKeptNames {
		// clear costs the map's room, not its keys: a set kept from an
		// object of a million keys would make every object of 33 after
		// it cost a million.
		ns.set = nil
	}
	return ns
}

// kids are the members or items kept of the object or array open at each
// depth, gathered there and given to its node once it ends, in a slice of
// their number: appended to the node one by one, they took a slice each
// time their number doubled.
type kids struct {
	fields [][]Field
	items  [][]*Node
}

func (k *kids) fieldsAt(depth int) []Field {
	for len(k.fields) <= depth {
		k.fields = append(k.fields, nil)
	}
	return k.fields[depth][:0]
}

func (k *kids) itemsAt(depth int) []*Node {
	for len(k.items) <= depth {
		k.items = append(k.items, nil)
	}
	return k.items[depth][:0]
}

// Prepared is a description loaded, bundled, validated and written out.
type Prepared struct {
	// Root is the document. After the single pass it holds only what
	// validation reads (info, the operations with the places of their
	// methods' keys, parameters, responses, the components' names): enough
	// for Operation, not for Encode.
	Root *Node
	// Findings are Validate's, in its order.
	Findings []Finding
	// Size is the bytes of JSON written.
	Size int64
	// OnePass says the single pass did the work.
	OnePass bool
	// Unbundled are the files other than the description that its $refs
	// name, left as written (without Bundle): the upload refers to them,
	// and does not hold them. Their paths from the description, sorted.
	Unbundled []string
	// mem is the room the tree holds in the collector's soft limit.
	mem *memlimit.Reservation
}

// Release gives back the room the tree holds in the collector's soft limit
// (see memlimit): call it when Root is let go. Until then the limit counts
// the tree, so that a description prepared meanwhile (a base, another of
// the run's) does not set a limit under what is live, where the collector
// would run without pause.
func (p *Prepared) Release() {
	if p != nil {
		p.mem.Release()
	}
}

// PrepareOptions tune Prepare.
type PrepareOptions struct {
	// Bundle lifts what other files hold into the document.
	Bundle bool
	// Limits bound the work; zero fields take DefaultLimits'.
	Limits Limits
	// TreeOnly reads the description into a whole tree even when one pass
	// would do.
	TreeOnly bool
}

// Sink is where Prepare writes the document: a file, which Prepare may
// empty and write again.
type Sink interface {
	io.Writer
	io.Seeker
	Truncate(size int64) error
}

// Prepare loads the description name from fsys, bundles it (with
// opts.Bundle), validates it and writes it as JSON to out, as Load,
// Bundle, Validate and Encode would, with the same errors. A JSON
// description that names no other file takes a single pass from its file
// to out, keeping only what validation reads; any other takes the tree. On
// an error, out holds part of a document or none. A description whose
// $refs do not all resolve is *Faults: its load errors with what Validate
// found in the rest.
func Prepare(ctx context.Context, fsys fs.FS, name string, opts PrepareOptions, out Sink) (*Prepared, error) {
	// The tree, or what the single pass keeps, is given room in the
	// collector's limit as the files are read (budget.file), for as long
	// as the caller holds it (Prepared.Release).
	mem := memlimit.Reserve(0)
	p, err := prepare(ctx, fsys, name, opts, out, mem)
	if err != nil {
		mem.Release()
		return nil, err
	}
	p.mem = mem
	return p, nil
}

// prepare is Prepare, the files given room in mem.
func prepare(ctx context.Context, fsys fs.FS, name string, opts PrepareOptions, out Sink, mem *memlimit.Reservation) (*Prepared, error) {
	lim := opts.Limits.withDefaults()
	if !opts.TreeOnly {
		p, err := onePass(ctx, fsys, name, lim, out, mem)
		if !errors.Is(err, errGiveWay) {
			return p, err
		}
		if _, err := out.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("write the document: %w", err)
		}
		if err := out.Truncate(0); err != nil {
			return nil, fmt.Errorf("write the document: %w", err)
		}
	}
	root, err := load(ctx, fsys, name, lim, mem)
	if err != nil {
		return nil, err
	}
	var broken LoadErrors
	if opts.Bundle {
		if root, err = Bundle(ctx, root, BundleOptions{FS: fsys, Limits: lim}); err != nil && !errors.As(err, &broken) {
			return nil, err
		}
	}
	var files fs.FS // a $ref left as written must name a file that is there
	if !opts.Bundle {
		files = fsys
	}
	findings, named := validateFiles(root, files)
	if len(broken) > 0 {
		return nil, &Faults{Load: broken, Findings: findings}
	}
	n, err := EncodeTo(out, root, lim)
	if err != nil {
		return nil, err
	}
	return &Prepared{Root: root, Findings: findings, Size: n, Unbundled: named}, nil
}

// onePass tries the single pass; errGiveWay leaves the description to the
// tree.
func onePass(ctx context.Context, fsys fs.FS, name string, lim Limits, out io.Writer, mem *memlimit.Reservation) (*Prepared, error) {
	p, root, written, err := passKept(ctx, fsys, name, lim, out, mem)
	if err != nil {
		return nil, err
	}
	findings, ok := validateKept(root, p.refs, p.texts)
	if !ok {
		return nil, gaveWay("a $ref leads where the pass kept nothing")
	}
	if findings, err = p.sch.done(root, findings); err != nil {
		return nil, err
	}
	return &Prepared{Root: root, Findings: findings, Size: written, OnePass: true}, nil
}

// passKept reads the description in the single pass, writes its upload to
// out, and returns what it kept, before validation reads it: the pass, the
// tree and the bytes written.
func passKept(ctx context.Context, fsys fs.FS, name string, lim Limits, out io.Writer, mem *memlimit.Reservation) (*pass, *Node, int64, error) {
	fail := func(err error) (*pass, *Node, int64, error) { return nil, nil, 0, err }
	if err := checkRealPath(fsys, name); err != nil {
		return fail(gaveWay("%v", err))
	}
	f, err := fsys.Open(name)
	if err != nil {
		return fail(gaveWay("%v", err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fail(gaveWay("%v", err))
	}
	if err := checkOpened(fsys, name, st); err != nil || st.Size() > lim.FileBytes {
		return fail(gaveWay("the file is refused: %v", err))
	}
	// A byte order mark is not content: the tree drops it too.
	in := bufio.NewReaderSize(io.LimitReader(f, lim.FileBytes+1), 512)
	if b, _ := in.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		in.Discard(3)
	}
	src := &Source{Name: name, budget: newBudget(ctx, lim)}
	src.budget.mem, src.budget.kept = mem, true
	src.budget.file(st.Size())
	lr := newLineReader()
	dec := newAheadReader(in, lr, out)
	defer dec.close()
	p := &pass{
		dec:      dec,
		lines:    lr,
		src:      src,
		bud:      src.budget,
		maxDepth: lim.Depth,
		texts:    map[string]string{},
		sch:      schemaPass{src: src},
	}
	if k := p.dec.PeekKind(); k != '{' {
		return fail(gaveWay("not a JSON object"))
	}
	root, err := p.value(mRoot, places{at(sDoc), at(sDoc)}, 0, 0)
	if err != nil {
		return fail(err)
	}
	if err := p.dec.ReadToken(); err != io.EOF {
		return fail(gaveWay("more after the document: %v", err))
	}
	written, werr := p.dec.finish()
	if werr != nil {
		return fail(fmt.Errorf("write the document: %w", werr))
	}
	if dec.read > lim.FileBytes {
		return fail(gaveWay("the file grew past the limit"))
	}
	if p.size > lim.DocumentBytes {
		return fail(gaveWay("the document is over its limit"))
	}
	if root.Get("swagger") == nil && root.Get("openapi") == nil {
		return fail(gaveWay("not a description"))
	}
	return p, root, written, nil
}

// stop is an error of the decoder, or of the budget: the context's errors
// end the work, anything else gives way to the tree.
func (p *pass) stop(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var g *giveWay
	if errors.As(err, &g) {
		return err
	}
	return gaveWay("%v", err)
}

func (p *pass) node(k Kind, off int64) *Node {
	n := p.alloc()
	n.Kind, n.Pos, n.Src = k, p.lines.pos(off), p.src
	return n
}

// alloc is a new node: one the schemas' checks let go of comes from their
// arena.
func (p *pass) alloc() *Node {
	if p.sch.tmp > 0 {
		return p.sch.arena.node()
	}
	return p.nodes.node()
}

// text reads a string token: its text, valid until the read after the
// next.
func (p *pass) text() (string, error) {
	s, err := p.dec.ReadString()
	if err != nil {
		return "", p.stop(err)
	}
	return s, nil
}

// keep is a copy of s; a key validation reads is the program's own
// string.
func keep(s string) string {
	if k, ok := knownKeys.get(s); ok {
		return k
	}
	return string([]byte(s))
}

// knownKeys are the keys profileKey names, each one string for all its
// uses.
var knownKeys = func() *keyTable[string] {
	m := map[string]string{}
	for _, k := range []string{"$ref", "swagger", "openapi", "name", "in", "required", "type", "minLength", "maxLength",
		"minimum", "maximum", "pattern", "default", "enum", "consumes", "description", "title", "version", "content",
		"info", "components", "schema", "query", "get", "put", "post", "delete", "options", "head", "patch", "trace",
		"paths", "parameters", "responses", "headers", "schemas", "definitions", "pathItems", "additionalOperations",
		"examples", "requestBodies", "securitySchemes", "links", "callbacks", "mediaTypes", "webhooks", "200", "201", "204", "default",
		"string", "number", "integer", "boolean", "array", "object", "null"} { // and type names, which schemas' checks read
		m[k] = k
	}
	return newKeyTable(m)
}()

// value passes one value (the decoder's goroutine makes its upload), keeping
// what m says.
func (p *pass) value(m mode, pl places, flags uint8, depth int) (*Node, error) {
	if depth > p.maxDepth {
		return nil, gaveWay("nests too deep")
	}
	if err := p.bud.value(); err != nil {
		return nil, p.stop(err)
	}
	if p.bud.values%4096 == 0 {
		p.lines.advance(p.dec.Start())
	}
	switch p.dec.PeekKind() {
	case '{':
		return p.object(m, pl, flags, depth)
	case '[':
		return p.array(m, pl, depth)
	case '"':
		s, err := p.text()
		if err != nil {
			return nil, err
		}
		off := p.dec.Start()
		p.size += int64(len(s)) + 2
		if m == mCopy {
			return nil, nil
		}
		n := p.node(String, off)
		if m == mStub {
			n.part = stub
		} else {
			n.SetScalar(keep(s))
		}
		return n, nil
	case '0', 'n', 't', 'f':
		raw, err := p.dec.ReadValue()
		if err != nil {
			return nil, p.stop(err)
		}
		off := p.dec.Start()
		p.size += int64(len(raw))
		kind := Number
		switch raw[0] {
		case 'n':
			kind = Null
		case 't', 'f':
			kind = Bool
		default:
			// Only a long literal or one with an exponent can be out of range.
			if len(raw) > 300 || bytes.ContainsAny(raw, "eE") {
				if err := checkRange(string(raw), string(raw)); err != nil {
					return nil, gaveWay("%v", err)
				}
			}
		}
		if m == mCopy {
			return nil, nil
		}
		n := p.node(kind, off)
		n.SetScalar(string(raw))
		return n, nil
	}
	err := p.dec.ReadToken()
	return nil, p.stop(err)
}

func (p *pass) object(m mode, pl places, flags uint8, depth int) (*Node, error) {
	if err := p.dec.ReadToken(); err != nil {
		return nil, p.stop(err)
	}
	p.objects++
	num := p.objects
	var n *Node
	if m != mCopy {
		n = p.node(Object, p.dec.Start())
		switch m {
		case mStub:
			n.part = stub
		case mProfile:
			n.part = someKeys
		}
	}
	var top *Node
	if m == mRoot {
		top = n
	}
	so := p.sch.object(pl, top)
	p.size += 2
	keys := p.keysAt(depth)
	// The top's members are the node's as they are read: the schemas'
	// checks look for its version keys before it ends, to check by that
	// version's rules alone.
	fields := p.kids.fieldsAt(depth)
	for {
		switch p.dec.PeekKind() {
		case '}':
			if err := p.dec.ReadToken(); err != nil {
				return nil, p.stop(err)
			}
			if len(fields) > 0 {
				// An arena's node keeps its room: filled again, not taken anew.
				n.SetFields(append(n.Fields()[:0], fields...))
				p.kids.fields[depth] = fields
			}
			p.sch.end(&so)
			return n, nil
		case '"':
		default:
			err := p.dec.ReadToken()
			return nil, p.stop(err)
		}
		key, hash, err := p.dec.ReadKey()
		if err != nil {
			return nil, p.stop(err)
		}
		keyOff := p.dec.Start()
		if !keys.add(hash) {
			return nil, gaveWay("a key written twice, or two keys alike")
		}
		p.size += int64(len(key)) + 4
		// Everything the key decides is decided now: key may be the
		// decoder's buffer, which the next read may overwrite.
		vm := m.under(key)
		var kept string
		var kpos Pos
		if vm != mCopy {
			kept, kpos = keep(key), p.lines.pos(keyOff)
		}
		isRef := key == "$ref"
		cf := uint8(0)
		switch {
		case key == "discriminator":
			cf = fDiscriminator
		case key == "mapping" && flags&fDiscriminator != 0:
			cf = fMapping
		}
		cpl := places{at(sData), at(sData)} // validation and bundling pass over a $ref's value
		if !isRef {
			cpl = pl.child(key)
		}
		rm := p.sch.mode(&so, key, cpl, vm, p.dec.PeekKind)
		next := p.dec.PeekKind()
		if depth+1 > p.maxDepth {
			// Any member's value, a $ref's text too, counts a level: the
			// tree path says where it went too deep.
			return nil, gaveWay("nests too deep")
		}
		var v *Node
		switch {
		case isRef && next == '"':
			v, err = p.ref(rm, pl, num)
		case flags&fMapping != 0 && next == '"':
			v, err = p.mapping(rm, depth)
		default:
			v, err = p.value(rm, cpl, cf, depth+1)
		}
		if err != nil {
			return nil, err
		}
		p.sch.member(&so, cpl, vm, rm, v)
		if v != nil && n != nil && vm != mCopy {
			if f := (Field{Key: kept, KeyPos: kpos, Value: v}); m == mRoot {
				n.SetFields(append(n.Fields(), f))
			} else {
				fields = append(fields, f)
			}
		}
	}
}

// ref passes a $ref's text: it is recorded for validation, and one that
// names another file, or that bundling would refuse, gives way.
func (p *pass) ref(m mode, pl places, object int) (*Node, error) {
	if err := p.bud.value(); err != nil {
		return nil, p.stop(err)
	}
	s, err := p.text()
	if err != nil {
		return nil, err
	}
	off := p.dec.Start()
	p.size += int64(len(s)) + 2
	// One string for every $ref that says the same, read once: a text
	// seen before was let through.
	text, seen := p.texts[s]
	if !seen {
		if !isRemote(s) {
			if file, _, err := splitRef(s); err != nil || file != "" {
				return nil, gaveWay("$ref %q names a file, or cannot be read", s)
			}
		}
		text = keep(s)
		p.texts[text] = text
	}
	pos := p.lines.pos(off)
	p.refs = append(p.refs, passRef{text: text, pos: pos, object: int32(object), checked2: pl.v2.s != sData, checked3: pl.v3.s != sData})
	if m == mCopy {
		return nil, nil
	}
	n := p.alloc()
	n.Kind, n.Pos, n.Src = String, pos, p.src
	n.SetScalar(text)
	return n, nil
}

// mapping passes a discriminator mapping's value: one that names another
// file gives way, as bundling would lift it.
func (p *pass) mapping(m mode, depth int) (*Node, error) {
	v, err := p.value(mFull, places{at(sData), at(sData)}, 0, depth+1)
	if err != nil {
		return nil, err
	}
	if looksLikeRef(v.Scalar()) && !isRemote(v.Scalar()) {
		if file, _, err := splitRef(v.Scalar()); err != nil || file != "" {
			return nil, gaveWay("mapping %q names a file, or cannot be read", v.Scalar())
		}
	}
	if m == mCopy {
		return nil, nil
	}
	return v, nil
}

func (p *pass) array(m mode, pl places, depth int) (*Node, error) {
	if err := p.dec.ReadToken(); err != nil {
		return nil, p.stop(err)
	}
	var n *Node
	if m != mCopy {
		n = p.node(Array, p.dec.Start())
		if m == mStub {
			n.part = stub
		}
	}
	p.size += 2
	im := m.item()
	cpl := pl.child("")
	items := p.kids.itemsAt(depth)
	for {
		if p.dec.PeekKind() == ']' {
			if err := p.dec.ReadToken(); err != nil {
				return nil, p.stop(err)
			}
			if len(items) > 0 {
				n.SetItems(append(n.Items()[:0], items...))
				p.kids.items[depth] = items
			}
			return n, nil
		}
		p.size++
		rm, mark := p.sch.item(pl, cpl, im, p.dec.PeekKind)
		v, err := p.value(rm, cpl, 0, depth+1)
		if err != nil {
			return nil, err
		}
		p.sch.itemRead(pl, cpl, im, rm, mark, v)
		if v != nil && n != nil && im != mCopy {
			items = append(items, v)
		}
	}
}
