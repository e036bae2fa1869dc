package openapi

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// Kind is the JSON kind of a Node.
type Kind uint8

// The kinds a Node can have.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is where a value was written: 1-based line and column in its file.
type Pos struct {
	Line, Col int32
}

// Source is a file a value was read from.
type Source struct {
	// Name is the file's slash path in the file system it was read from
	// (relative to the workspace), which is also how messages name it.
	Name string
	// budget is shared by all the files of one description; it says too
	// whether their values are what the single pass kept (budget.kept),
	// so that a Source, of which a description of many small files has
	// one a file, is two words and a pointer.
	budget *budget
}

// kept says whether the values read from s are what the single pass kept.
func (s *Source) kept() bool { return s != nil && s.budget != nil && s.budget.kept }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Node is one value of a description.
type Node struct {
	Kind Kind
	// part says what a node of a tree the single pass kept holds: all of
	// the value, only the members validation reads (someKeys), or nothing
	// below it (a stub). Trees read whole are whole throughout.
	part part
	// unresolved marks a $ref's text that Bundle could not resolve and
	// reported: it stands for nothing, so validation neither follows it
	// nor reports it again.
	unresolved bool
	// packed marks an Array whose items, all scalars, are held packed in
	// Scalar (see pack.go), with Items empty.
	packed bool
	// walked is the mark of the last bundling that walked the node (see
	// bundler.walk): a mark on the node, in room its other fields leave,
	// where a set of every node walked cost some 40 bytes a node.
	walked uint32
	// kids are an Object's members (Fields), an Array's elements (Items)
	// or a scalar's text (Scalar), never two of them: where the first
	// member, element or byte is, how many there are, and the room there
	// is for members (positive) or elements (negative); 0 for text. One
	// pointer for all three, where a string and two slices cost 64 bytes
	// a node, and a node is made for every value a description holds. The
	// limits keep a file, and so any text, far under 2 GiB.
	kids  unsafe.Pointer
	nkids int32
	room  int32
	Pos   Pos
	Src   *Source // the file it was written in
}

// Scalar is the text of a String, and the JSON literal of a Number, Bool
// or Null (a number keeps its exact literal: "1.0" stays "1.0"); a packed
// Array's items (see pack.go); "" for any other node.
func (n *Node) Scalar() string {
	if n.room != 0 {
		return ""
	}
	return unsafe.String((*byte)(n.kids), n.nkids)
}

// SetScalar makes s the node's text, in place of its text, members or
// elements.
func (n *Node) SetScalar(s string) {
	n.kids, n.nkids, n.room = unsafe.Pointer(unsafe.StringData(s)), int32(len(s)), 0
}

// NewScalar is a node of kind k whose text is s.
func NewScalar(k Kind, s string) *Node {
	n := &Node{Kind: k}
	n.SetScalar(s)
	return n
}

// scalarAt is a node of kind k whose text is s, written at pos in src.
func scalarAt(k Kind, s string, pos Pos, src *Source) *Node {
	n := &Node{Kind: k, Pos: pos, Src: src}
	n.SetScalar(s)
	return n
}

// Fields are an Object's members in the order they were written: nil for
// any other node. The slice is the node's own: an element changed through
// it changes the node, and SetFields stores a slice grown or cut.
func (n *Node) Fields() []Field {
	if n == nil || n.room <= 0 {
		return nil
	}
	return unsafe.Slice((*Field)(n.kids), n.room)[:n.nkids]
}

// SetFields makes fs the node's members, in place of its text or
// elements.
func (n *Node) SetFields(fs []Field) {
	n.kids, n.nkids, n.room = unsafe.Pointer(unsafe.SliceData(fs)), int32(len(fs)), int32(cap(fs))
}

// Items are an Array's elements: nil for any other node. An Array read
// from a long YAML list of plain scalars holds them packed until Elems is
// called: read them with Elems. The slice is the node's own, as Fields'.
func (n *Node) Items() []*Node {
	if n == nil || n.room >= 0 {
		return nil
	}
	return unsafe.Slice((**Node)(n.kids), -n.room)[:n.nkids]
}

// SetItems makes items the node's elements, in place of its text or
// members.
func (n *Node) SetItems(items []*Node) {
	n.kids, n.nkids, n.room = unsafe.Pointer(unsafe.SliceData(items)), int32(len(items)), -int32(cap(items))
}

// part is how much of its value a node holds.
type part uint8

const (
	whole    part = iota
	someKeys      // an Object with only the members profileKey names
	stub          // the kind and place of the value, and nothing of it
)

// Partial says whether n holds less than the value written: a tree read in
// a single pass keeps only what validation reads.
func (n *Node) Partial() bool { return n != nil && n.part != whole }

// Field is one member of an Object.
type Field struct {
	Key    string
	KeyPos Pos
	Value  *Node
}

// Get returns the value of key in an Object, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := range n.Fields() {
		if n.Fields()[i].Key == key {
			countScan(n, i+1)
			return n.Fields()[i].Value
		}
	}
	countScan(n, len(n.Fields()))
	return nil
}

// scanned counts the members that lookups went through in objects of
// indexFrom members or more, one by one (Get) or to index them: the work
// that grows with the square of a description's size where a lookup in a
// large object goes unindexed, which allocations do not show. Tests read
// it.
var scanned atomic.Int64

// countScan adds k members gone through in n to scanned, when n is large.
func countScan(n *Node, k int) {
	if len(n.Fields()) >= indexFrom {
		scanned.Add(int64(k))
	}
}

// index finds members of large objects by key without a linear scan: a
// description with 100,000 definitions, each referred to once, would
// otherwise spend quadratic time resolving its references.
type index map[*Node]*objectIndex

// objectIndex is an object's member positions sorted by key, and by
// position among equal keys: four bytes a member, where a map from key to
// position took some 50, for the 64,000 names of a file $refs point into
// while the bundler's own records are live too. A lookup is a binary
// search. Members appended since the sort (the bundler lifts components
// into a section it also resolves $refs in) go to a table of their own
// until they outnumber the sorted ones, and then all are sorted again: each
// member is sorted O(log n) times at most, where indexing an object anew
// each time it grew cost n² for n $refs between n lifts. An object whose
// members were replaced (a $ref inlined in it) is indexed anew: its last
// member indexed is not the one it was.
type objectIndex struct {
	sorted []int32  // the first members' positions, in key order
	tail   posTable // the members after them, by key
	n      int      // the members indexed: len(sorted) and the tail's
	last   *byte    // the text of the last member's key when indexed
}

// indexFrom is the size from which an object is worth an index.
const indexFrom = 32

// get is n.Get(key), through the index for large objects.
func (ix index) get(n *Node, key string) *Node {
	if n == nil || n.Kind != Object || len(n.Fields()) < indexFrom || ix == nil {
		return n.Get(key)
	}
	fields := n.Fields()
	keyAt := func(i int) string { return fields[i].Key }
	oi := ix[n]
	if oi == nil || len(fields) < oi.n || unsafe.StringData(fields[oi.n-1].Key) != oi.last {
		oi = &objectIndex{} // new, or members taken away or replaced
		ix[n] = oi
	}
	switch {
	case len(fields) > 2*len(oi.sorted):
		countScan(n, len(fields))
		*oi = objectIndex{sorted: make([]int32, len(fields)), n: len(fields)}
		for i := range oi.sorted {
			oi.sorted[i] = int32(i)
		}
		slices.SortFunc(oi.sorted, func(a, b int32) int {
			if c := strings.Compare(fields[a].Key, fields[b].Key); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
	case len(fields) > oi.n:
		countScan(n, len(fields)-oi.n)
		for ; oi.n < len(fields); oi.n++ {
			oi.tail.add(oi.n, keyAt)
		}
	}
	oi.last = unsafe.StringData(fields[oi.n-1].Key)
	// The first of a key wins, as in Get: among equal keys the lowest
	// position sorts first, and the sorted members come before the tail.
	i, found := slices.BinarySearchFunc(oi.sorted, key, func(at int32, key string) int {
		return strings.Compare(fields[at].Key, key)
	})
	if found {
		return fields[oi.sorted[i]].Value
	}
	if i := oi.tail.find(key, keyAt); i >= 0 {
		return fields[i].Value
	}
	return nil
}

// Str returns the text of a String node, or "" for any other node.
func (n *Node) Str() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Scalar()
}

// slab hands out Nodes from blocks: a 13 MB description has half a million
// values, and one allocation per value costs the collector dearly. Each
// parse has a slab of its own, and blocks start at one node and double up
// to slabMax, so a file costs nodes in proportion to its size, never more
// than twice what it uses: 20,000 one-line files of three values each
// must not cost a block of eight each. A slab shared by the files would
// save a few bytes a file, but put a file's top and sections in a block
// of thousands with its schemas: one schema used from a large file would
// hold that block, and through it the whole file.
//
// A node let go while its block is held (the items of a flow list once
// packed) is handed out again before a new block is cut: without that, a
// list that cannot be packed keeps the block of the items it packed, and
// with it every node the packing let go.
type slab struct {
	free   []Node
	next   int     // the size of the next block
	reused []*Node // nodes let go, to hand out again
}

// slabFirst and slabMax bound the size of a slab's blocks, in nodes.
const (
	slabFirst = 1
	slabMax   = 4096
)

func (s *slab) node() *Node {
	if k := len(s.reused); k > 0 {
		n := s.reused[k-1]
		s.reused = s.reused[:k-1]
		return n
	}
	if len(s.free) == 0 {
		n := max(s.next, slabFirst)
		s.free = make([]Node, n)
		s.next = min(2*n, slabMax)
	}
	n := &s.free[0]
	s.free = s.free[1:]
	return n
}

// letGo takes back n, which nothing holds any more, to hand it out again.
func (s *slab) letGo(n *Node) {
	*n = Node{}
	s.reused = append(s.reused, n)
}

// Encode writes the document as compact JSON. It refuses, before writing
// any of it, a document larger than lim.DocumentBytes: aliases and inlined
// $refs can make a small description a huge document.
func Encode(root *Node, lim Limits) ([]byte, error) {
	var b bytes.Buffer
	if _, err := EncodeTo(&b, root, lim); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// EncodeTo is Encode, written to w as it goes rather than held whole. It
// returns the bytes written.
func EncodeTo(w io.Writer, root *Node, lim Limits) (int64, error) {
	lim = lim.withDefaults()
	var memo map[*Node]int64
	if b := root.budgetOf(); b == nil || b.expanded > 0 {
		// Values may be shared (aliases, inlining): size each once.
		memo = map[*Node]int64{}
	}
	size := jsonSize(root, memo)
	if size > lim.DocumentBytes {
		e := &LoadError{Msg: fmt.Sprintf("the document would be %s of JSON, more than %s (the limit of docs-publish for the document uploaded)", mib(size), mib(lim.DocumentBytes)), Err: &limitError{"document too large"}}
		if root.Src != nil {
			// The whole document is over: it is about the description's
			// top, where it starts.
			e.File, e.Pos = root.Src.Name, root.Pos
		}
		return 0, e
	}
	if bb, ok := w.(*bytes.Buffer); ok {
		bb.Grow(int(size + size/8 + 64))
	}
	e := encoder{w: w, buf: make([]byte, 0, min(size+size/8+64, encodeChunk+encodeChunk/4))}
	e.node(root)
	e.flush()
	return e.n, e.err
}

// encodeChunk is how much the encoder holds before it writes.
const encodeChunk = 256 << 10

// encoder writes a tree as JSON through a buffer of its own.
type encoder struct {
	w   io.Writer
	buf []byte
	n   int64
	err error
}

func (e *encoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		var n int
		n, e.err = e.w.Write(e.buf)
		e.n += int64(n)
	}
	e.buf = e.buf[:0]
}

func (e *encoder) node(n *Node) {
	switch {
	case n.packed:
		e.buf = appendPacked(e.buf, Array, n.Scalar(), func(b []byte) []byte {
			if e.buf = b; len(b) >= encodeChunk {
				e.flush()
			}
			return e.buf
		})
	case n.Kind == Array:
		e.buf = append(e.buf, '[')
		for i, it := range n.Items() {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.node(it)
		}
		e.buf = append(e.buf, ']')
	case n.Kind == Object:
		e.buf = append(e.buf, '{')
		for i := range n.Fields() {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendString(e.buf, n.Fields()[i].Key)
			e.buf = append(e.buf, ':')
			e.node(n.Fields()[i].Value)
		}
		e.buf = append(e.buf, '}')
	default:
		e.buf = n.AppendJSON(e.buf)
	}
	if len(e.buf) >= encodeChunk {
		e.flush()
	}
}

// budgetOf is the budget the node's description was read with, if any.
func (n *Node) budgetOf() *budget {
	if n.Src == nil {
		return nil
	}
	return n.Src.budget
}

// AppendJSON appends the node as compact JSON to b.
func (n *Node) AppendJSON(b []byte) []byte {
	switch n.Kind {
	case Null, Bool, Number:
		return append(b, n.Scalar()...)
	case String:
		return appendString(b, n.Scalar())
	case Array:
		if n.packed {
			return n.appendPacked(b)
		}
		b = append(b, '[')
		for i, it := range n.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.AppendJSON(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i := range n.Fields() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, n.Fields()[i].Key)
			b = append(b, ':')
			b = n.Fields()[i].Value.AppendJSON(b)
		}
		return append(b, '}')
	}
	panic("spec: unknown node kind " + n.Kind.String())
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. Unlike encoding/json it leaves
// <, > and & alone: the document is data, not HTML.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, `\ufffd`...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
