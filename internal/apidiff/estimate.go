package apidiff

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// What the library does with two schemas grows faster than their text in
// three shapes, none of which the parts bound, since each lies within one
// schema:
//
//   - nesting: each change is named by its property path, built again at
//     every level of the walk, so a schema nested n levels deep (inline or
//     through $refs, each property a $ref to the next) costs n*n. A chain
//     of 1,600 links, 131 kB a side, took 1.3 s and 700 MB allocated.
//   - recursive schemas whose cycles differ in length: the library pairs
//     base and head schemas as it walks, so cycles of p and p+1 schemas
//     pair into p*(p+1) pairs in one cycle of its own, which it walks at a
//     cost of its length squared and more. Cycles of 40 and 41 schemas,
//     7 kB both, took 11 s; of 80 and 81, 7.7 minutes.
//   - lists of branches (oneOf, anyOf, allOf): each inline branch of the
//     base is compared with each of the head's. 800 and 800, 94 kB both,
//     took 14 s.
//
// So before the library is called, the pairs it will compare are walked
// here, as it walks them: from the units of both sides that the comparison
// gives it, through each side's $refs, key by key and each branch with
// each branch, each pair once. The walk counts its work (each pair, and
// each member of the two values it pairs) and the depth of the deepest
// pair, and stops at its bounds: the comparison is then refused as too
// large (ErrTooLarge), at a cost linear in the text, and the run publishes
// without it.

// maxPairDepth is the deepest the pairs of two schemas may nest, in JSON
// values (an object and each of its members' values are two levels):
// Stripe's description, the deepest of the released descriptions the
// corpus tests read, nests 127 levels deep through its $refs; a test
// description made to stress tools, 183.
const maxPairDepth = 512

// pairWorkPerByte is the work (pairs, and members of the paired values,
// walks of the checks, changes) a byte of the two descriptions' text
// allows: two releases of Stripe's description (2.2 and 3.0 MB as JSON),
// which the library compares in 26 s, take 19 a byte; two of GitHub's,
// 0.1.
const pairWorkPerByte = 128

// minPairWork is the work allowed however small the two descriptions are.
const minPairWork = 1 << 20

// bytesPerPair is the text of the two descriptions a pair of schemas
// walked needs (the walk holds some 40 bytes a pair): the pairs of the
// corpus's descriptions are one for 100 bytes of them or fewer.
const bytesPerPair = 16

// minPairs is the pairs allowed however small the two descriptions are.
const minPairs = 1 << 14

// tree is one side's JSON as the walk reads it: its objects and arrays, each
// with its members, and each $ref's text.
type tree struct {
	data    []byte
	doc     *doc
	changed map[unitKey]bool
	// units are the units read, each its node, or -1.
	units map[unitKey]int32
	nodes []tnode
	kids  []tkid
	keys  []byte // the keys written with escapes, unescaped
	// byKey finds a member of an object with many, built as references
	// need it.
	byKey map[int32]map[string]int32
	// targets are the references resolved so far: a node, or -1.
	targets map[string]int32
}

// tnode is an object or an array: its members are kids[first:first+n].
type tnode struct {
	first, n int32
	object   bool
	// touched is whether it, or a value in it, has a "$ref" to a unit that
	// changed, or to anything else (touch).
	touched bool
	// ref is where the text of the value of its "$ref" member starts in
	// data, and refLen its length; refLen 0 for none.
	ref, refLen int32
	// sum is a hash of its text as read (its members' keys and values),
	// seeded at random, so that two values of the same text, and no
	// $ref, are the same to the library without reading them again.
	sum uint64
}

// tkid is a member: its key and its value, a node or -1 for any other.
// The key is data[key:key+keyLen], or, when written with escapes,
// unescaped in keys (keyLen's top bit set).
type tkid struct {
	key, keyLen int32
	node        int32
}

const escapedKey = -1 << 31

// key is the text of k's key, unescaped.
func (t *tree) key(k tkid) []byte {
	if k.keyLen&escapedKey != 0 {
		n := k.keyLen &^ escapedKey
		return t.keys[k.key : k.key+n]
	}
	return t.data[k.key : k.key+k.keyLen]
}

// newTree is a tree of d, which was indexed from data, JSON, with the
// units that changed: each unit is read as the walk reaches it.
func newTree(data []byte, d *doc, changed map[unitKey]bool) *tree {
	if len(data) > 1<<31-1 {
		return nil
	}
	return &tree{data: data, doc: d, changed: changed, units: map[unitKey]int32{},
		byKey: map[int32]map[string]int32{}, targets: map[string]int32{}}
}

// unit is the node of unit k, read when first asked for; -1 for none.
func (t *tree) unit(k unitKey) int32 {
	if n, ok := t.units[k]; ok {
		return n
	}
	t.units[k] = -1
	raw, ok := t.doc.units[k]
	if !ok || len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return -1
	}
	// The unit's text is a slice of data: where it starts there.
	p := &treeParser{t: t, data: t.data, i: cap(t.data) - cap(raw), seed: treeSeed}
	first := len(t.nodes)
	n, ok := p.value()
	if !ok {
		t.nodes = t.nodes[:first]
		return -1
	}
	t.touch(first)
	t.units[k] = n
	return n
}

// touch marks the nodes from first on that have a $ref, or a value that
// has one, to a unit that changed or to anything but a unit. A node's
// members come after it, so that, from the last node back, each node's
// are marked before it is.
func (t *tree) touch(first int) {
	for i := len(t.nodes) - 1; i >= first; i-- {
		n := &t.nodes[i]
		if n.refLen > 0 {
			k, ok, _ := refUnit(unquoted(t.data[n.ref:n.ref+n.refLen]), t.doc.swagger)
			n.touched = !ok || t.changed[k]
		}
		for _, k := range t.kids[n.first : n.first+n.n] {
			if n.touched {
				break
			}
			n.touched = k.node >= 0 && t.nodes[k.node].touched
		}
	}
}

// treeSeed seeds the sums of both sides' trees alike.
var treeSeed = maphash.MakeSeed()

// treeParser reads a JSON text into a tree in one pass: the members of an
// object are gathered on a stack of their own until it ends, so that each
// node's are together.
type treeParser struct {
	t     *tree
	data  []byte
	i     int
	stack []tkid
	seed  maphash.Seed
}

func (p *treeParser) space() {
	for p.i < len(p.data) && (p.data[p.i] == ' ' || p.data[p.i] == '\t' || p.data[p.i] == '\n' || p.data[p.i] == '\r') {
		p.i++
	}
}

// value reads the value at p.i: the node it is, or -1 for a scalar.
func (p *treeParser) value() (int32, bool) {
	p.space()
	if p.i >= len(p.data) {
		return 0, false
	}
	switch p.data[p.i] {
	case '{', '[':
		return p.composite()
	case '"':
		_, _, ok := p.str()
		return -1, ok
	default:
		for p.i < len(p.data) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(p.data[p.i])) {
			p.i++
		}
		return -1, true
	}
}

// str reads a string at p.i: where its text starts and ends, quotes left
// out.
func (p *treeParser) str() (int, int, bool) {
	start := p.i + 1
	for j := start; j < len(p.data); j++ {
		switch p.data[j] {
		case '\\':
			j++
		case '"':
			p.i = j + 1
			return start, j, true
		}
	}
	return 0, 0, false
}

func (p *treeParser) composite() (int32, bool) {
	object := p.data[p.i] == '{'
	end := byte(']')
	if object {
		end = '}'
	}
	p.i++
	self := int32(len(p.t.nodes))
	p.t.nodes = append(p.t.nodes, tnode{object: object})
	var sum maphash.Hash
	sum.SetSeed(p.seed)
	sum.WriteByte(end)
	mark := len(p.stack)
	for first := true; ; first = false {
		p.space()
		if p.i >= len(p.data) {
			return 0, false
		}
		if p.data[p.i] == end {
			p.i++
			break
		}
		if !first {
			if p.data[p.i] != ',' {
				return 0, false
			}
			p.i++
			p.space()
		}
		var kid tkid
		if object {
			if p.i >= len(p.data) || p.data[p.i] != '"' {
				return 0, false
			}
			s, e, ok := p.str()
			if !ok {
				return 0, false
			}
			body := p.data[s:e]
			if bytes.IndexByte(body, '\\') < 0 {
				kid.key, kid.keyLen = int32(s), int32(e-s)
			} else {
				u := unquoted(body)
				kid.key, kid.keyLen = int32(len(p.t.keys)), int32(len(u))|escapedKey
				p.t.keys = append(p.t.keys, u...)
			}
			sum.Write(p.t.key(kid))
			sum.WriteByte(0)
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return 0, false
			}
			p.i++
			p.space()
			if string(p.t.key(kid)) == "$ref" && p.i < len(p.data) && p.data[p.i] == '"' {
				rs, re, ok := p.str()
				if !ok {
					return 0, false
				}
				p.t.nodes[self].ref, p.t.nodes[self].refLen = int32(rs), int32(re-rs)
				sum.Write(p.data[rs:re])
				sum.WriteByte(0)
				kid.node = -1
				p.stack = append(p.stack, kid)
				continue
			}
		}
		from := p.i
		n, ok := p.value()
		if !ok {
			return 0, false
		}
		if n >= 0 {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], p.t.nodes[n].sum)
			sum.Write(b[:])
		} else {
			sum.Write(p.data[from:p.i])
			sum.WriteByte(0)
		}
		kid.node = n
		p.stack = append(p.stack, kid)
	}
	p.t.nodes[self].first, p.t.nodes[self].n = int32(len(p.t.kids)), int32(len(p.stack)-mark)
	p.t.nodes[self].sum = sum.Sum64()
	p.t.kids = append(p.t.kids, p.stack[mark:]...)
	p.stack = p.stack[:mark]
	return self, true
}

// unquoted is the text of a JSON string's body: itself without escapes,
// else as a JSON decoder reads it.
func unquoted(body []byte) string {
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	s, err := strconv.Unquote(`"` + string(body) + `"`)
	if err != nil || !utf8.ValidString(s) {
		return string(body)
	}
	return s
}

// member is the value of node's member key: a node, -1 for a scalar or
// none.
func (t *tree) member(node int32, key []byte) int32 {
	n := t.nodes[node]
	if n.n <= 16 {
		for _, k := range t.kids[n.first : n.first+n.n] {
			if bytes.Equal(t.key(k), key) {
				return k.node
			}
		}
		return -1
	}
	m, ok := t.byKey[node]
	if !ok {
		m = make(map[string]int32, n.n)
		for _, k := range t.kids[n.first : n.first+n.n] {
			if _, dup := m[string(t.key(k))]; !dup {
				m[string(t.key(k))] = k.node
			}
		}
		t.byKey[node] = m
	}
	if v, ok := m[string(key)]; ok {
		return v
	}
	return -1
}

// at is the node that the tokens name from node, -1 for none.
func (t *tree) at(node int32, toks []string) int32 {
	for _, tok := range toks {
		if node < 0 {
			return -1
		}
		n := t.nodes[node]
		if n.object {
			node = t.member(node, []byte(tok))
			continue
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= int(n.n) {
			return -1
		}
		node = t.kids[int(n.first)+i].node
	}
	return node
}

// resolved is node with its $refs followed, as far as they lead to
// objects or arrays of this document.
func (t *tree) resolved(node int32) int32 {
	for hops := 0; node >= 0 && t.nodes[node].refLen > 0; hops++ {
		if hops == maxRefHops {
			return -1
		}
		n := t.nodes[node]
		ref := string(t.data[n.ref : n.ref+n.refLen])
		target, ok := t.targets[ref]
		if !ok {
			// A reference into a unit; one to anything else leads nowhere
			// the walk goes.
			target = -1
			u := unquoted([]byte(ref))
			if k, ok, _ := refUnit(u, t.doc.swagger); ok {
				_, toks, _ := refTokens(u)
				target = t.at(t.unit(k), toks[strings.Count(k.sec, "/")+2:])
			}
			t.targets[ref] = target
		}
		node = target
	}
	return node
}

// maxRefHops is the most $refs followed from one value to another: a
// chain of them longer, or a cycle, leads nowhere.
const maxRefHops = 64

// branchLists are the members whose branches the library compares each
// with each.
var branchLists = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true}

// PairsError is a comparison refused before the library was called: the
// pairs of schemas it would compare nest deeper, are more, or take more
// work than the library compares in time and memory linear in the text.
type PairsError struct {
	Depth, MostDepth int   // how deep the pairs nest, when too deep
	Pairs, MostPairs int   // how many pairs, when too many
	Work, MostWork   int64 // the work they take, when too much
}

func (e *PairsError) Error() string {
	switch {
	case e.Depth > 0:
		return fmt.Sprintf("the schemas nest more than %d levels deep, through their $refs, as the two descriptions are compared, and the comparison's time grows as the square of the depth", e.MostDepth)
	case e.Pairs > 0:
		return fmt.Sprintf("the two descriptions' schemas pair into more than %d pairs to compare, the most their size allows (recursive schemas that differ in shape, or oneOf, anyOf or allOf branches, each compared with each)", e.MostPairs)
	}
	return fmt.Sprintf("comparing the two descriptions would take more than %d steps, the most their size allows (schemas that nest deep or change much, named by many operations)", e.MostWork)
}

func (e *PairsError) Unwrap() error { return ErrTooLarge }

// pairKey names a pair of nodes, base and head.
type pairKey uint64

func pairOf(b, h int32) pairKey { return pairKey(uint64(uint32(b))<<32 | uint64(uint32(h))) }

func (k pairKey) nodes() (int32, int32) { return int32(uint32(k >> 32)), int32(uint32(k)) }

// pairWalk walks the pairs of nodes of base and head that the library
// compares, counting its work against a bound.
type pairWalk struct {
	base, head *tree
	maxDepth   int
	maxWork    int64
	maxPairs   int
	tooMany    bool // a list of branches paired into more than maxPairs
	cost       pairCost
	// height is each schema pair walked (pairs), the height below it, or
	// onPath.
	height map[pairKey]int
	// uses counts the schema pairs that the operations name, by how many
	// times (uses).
	uses map[pairKey]int64
	// seen is the pairs a walk from one schema pair reached (reach), as
	// the walk's number.
	seen  map[pairKey]int32
	walks int32
	// reached is what a walk from each schema pair costs (reach).
	reached map[pairKey]int64
	pending []pairKey
}

const onPath = -1

// pairCost is what a walk of pairs found: the depth of the deepest pair
// and the work.
type pairCost struct {
	depth int
	work  int64
	pairs int // the pairs of schemas walked, each once
}

// errOver is the walk's work over its bound.
func (w *pairWalk) errOver() error {
	if w.tooMany {
		return w.errPairs()
	}
	return &PairsError{Work: w.cost.work, MostWork: w.maxWork}
}

// errPairs is the pairs walked over their bound.
func (w *pairWalk) errPairs() error { return &PairsError{Pairs: w.maxPairs + 1, MostPairs: w.maxPairs} }

// charge adds n to the work; false once it is over the bound.
func (w *pairWalk) charge(n int64) bool {
	w.cost.work += n
	return w.cost.work <= w.maxWork
}

// below appends to w.pending the pairs below the pair b, h (both resolved)
// as the library pairs them, with whether each is a schema the structure
// around schemas names (its "schema" member), and but for those the same
// to the library when changed is set; false when the work is over the
// bound.
func (w *pairWalk) below(b, h int32, changed bool, schemas *[]bool) bool {
	base, head := w.base, w.head
	nb, nh := base.nodes[b], head.nodes[h]
	if !w.charge(1 + int64(nb.n) + int64(nh.n)) {
		return false
	}
	bk := base.kids[nb.first : nb.first+nb.n]
	hk := head.kids[nh.first : nh.first+nh.n]
	add := func(x, y int32, schema bool) {
		if bx, hy := base.nodes[x], head.nodes[y]; changed && !bx.touched && !hy.touched && bx.sum == hy.sum {
			return // no change below: the library's checks do not walk it
		}
		if x = base.resolved(x); x < 0 {
			return
		}
		if y = head.resolved(y); y < 0 {
			return
		}
		w.pending = append(w.pending, pairOf(x, y))
		if schemas != nil {
			*schemas = append(*schemas, schema)
		}
	}
	switch {
	case nb.object && nh.object:
		for _, k := range bk {
			if k.node < 0 {
				continue
			}
			key := base.key(k)
			v := head.member(h, key)
			if v < 0 {
				continue
			}
			lb, lh := base.nodes[k.node], head.nodes[v]
			if branchLists[string(key)] && !lb.object && !lh.object {
				// Each branch with each: as many pairs as the product,
				// which the pairs' bound bounds before any is made.
				if n := int64(lb.n) * int64(lh.n); n > int64(w.maxPairs) {
					w.tooMany = true
					return false
				} else if !w.charge(n) {
					return false
				}
				for _, x := range base.kids[lb.first : lb.first+lb.n] {
					for _, y := range head.kids[lh.first : lh.first+lh.n] {
						if x.node >= 0 && y.node >= 0 {
							add(x.node, y.node, false)
						}
					}
				}
				continue
			}
			add(k.node, v, string(key) == "schema")
		}
	case !nb.object && !nh.object:
		for i := range min(len(bk), len(hk)) {
			if bk[i].node >= 0 && hk[i].node >= 0 {
				add(bk[i].node, hk[i].node, false)
			}
		}
	}
	return true
}

// frame is a pair on a walk's path: pending[start:end] are the pairs
// below it, from next on not walked yet.
type frame struct {
	pair             pairKey
	start, next, end int
	height           int
}

// structure walks the structure around schemas from the pair root (path
// items, operations, responses, media types) as the library's checks do,
// once for each way it is reached, counting in uses each schema pair it
// names; a pair that comes back to one on its path is not walked again.
func (w *pairWalk) structure(root pairKey) error {
	onStack := map[pairKey]bool{root: true}
	var schemas []bool
	var stack []frame
	b, h := root.nodes()
	if !w.below(b, h, true, &schemas) {
		return w.errOver()
	}
	stack = append(stack, frame{pair: root, end: len(w.pending)})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == f.end {
			delete(onStack, f.pair)
			w.pending, schemas = w.pending[:f.start], schemas[:f.start]
			stack = stack[:len(stack)-1]
			continue
		}
		c, schema := w.pending[f.next], schemas[f.next]
		f.next++
		if onStack[c] {
			continue
		}
		if schema {
			w.uses[c]++
			continue
		}
		start := len(w.pending)
		onStack[c] = true
		b, h := c.nodes()
		if !w.below(b, h, true, &schemas) {
			return w.errOver()
		}
		stack = append(stack, frame{pair: c, start: start, next: start, end: len(w.pending)})
	}
	return nil
}

// pairs walks the schema pairs from root, each once however many paths
// lead to it, and the height of each: the longest path below it that does
// not come back to a pair on the path, as deep as the library's walk goes
// from it; an error when it is deeper than w.maxDepth.
func (w *pairWalk) pairs(root pairKey) error {
	if _, ok := w.height[root]; ok {
		return nil
	}
	var stack []frame
	enter := func(p pairKey) bool {
		w.height[p] = onPath
		if len(w.height) > w.maxPairs {
			return false
		}
		start := len(w.pending)
		b, h := p.nodes()
		if !w.below(b, h, false, nil) {
			return false
		}
		stack = append(stack, frame{pair: p, start: start, next: start, end: len(w.pending)})
		return true
	}
	if !enter(root) {
		return w.errStop()
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == f.end {
			done := *f
			w.height[done.pair] = done.height
			stack, w.pending = stack[:len(stack)-1], w.pending[:done.start]
			w.cost.depth = max(w.cost.depth, done.height+1)
			if w.cost.depth > w.maxDepth {
				return &PairsError{Depth: w.cost.depth, MostDepth: w.maxDepth}
			}
			if len(stack) > 0 {
				p := &stack[len(stack)-1]
				p.height = max(p.height, done.height+1)
			}
			continue
		}
		c := w.pending[f.next]
		f.next++
		if got, ok := w.height[c]; ok {
			if got != onPath {
				f.height = max(f.height, got+1)
			}
			continue
		}
		if !enter(c) {
			return w.errStop()
		}
	}
	return nil
}

// errStop is the error of a walk stopped by one of its bounds of size.
func (w *pairWalk) errStop() error {
	if len(w.height) > w.maxPairs || w.tooMany {
		return w.errPairs()
	}
	return w.errOver()
}

// reach is what one walk of the library's checks from the schema pair
// root costs: each changed pair it reaches (once), with its depth, which
// is the length of the name it gives the pair's property; and each change
// it reports, a pair whose own values differ, changeCost.
func (w *pairWalk) reach(root pairKey) (int64, error) {
	if n, ok := w.reached[root]; ok {
		return n, nil
	}
	w.walks++
	walk := w.walks
	var n int64
	type at struct {
		pair  pairKey
		depth int64
	}
	queue := []at{{root, 1}}
	w.seen[root] = walk
	for len(queue) > 0 {
		c := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		start := len(w.pending)
		b, h := c.pair.nodes()
		if !w.below(b, h, true, nil) {
			return 0, w.errOver()
		}
		cost := c.depth
		if len(w.pending) == start && w.base.nodes[b].sum != w.head.nodes[h].sum {
			cost += changeCost
		}
		if n += cost; !w.charge(cost) {
			return 0, w.errOver()
		}
		for _, p := range w.pending[start:] {
			if w.seen[p] != walk {
				w.seen[p] = walk
				queue = append(queue, at{p, c.depth + 1})
			}
		}
		w.pending = w.pending[:start]
		if len(w.seen) > w.maxPairs {
			return 0, w.errPairs()
		}
	}
	w.reached[root] = n
	return n, nil
}

// changeCost is the work of a change the library reports, in the walk's
// units (a pair of its walk): each operation that names a schema of 1,000
// changed properties, each a change, took 32 µs a change, where a walk
// over Stripe's schemas took some 0.25 µs a pair.
const changeCost = 128

// walkPairs walks the pairs of nodes of base and head that the library
// compares from roots (structure: path items and the components around
// schemas; schemas: the schemas of components), and says whether they are
// within bounds: no deeper than maxDepth, and no more than maxWork of work:
// each pair and the members of the two nodes it pairs, once for the pairs
// of schemas and for each way the structure is reached, and a walk of the
// checks from each schema the operations name, for each time they name it.
func walkPairs(base, head *tree, structure, schemas [][2]int32, maxDepth, maxPairs int, maxWork int64) (pairCost, error) {
	w := &pairWalk{base: base, head: head, maxDepth: maxDepth, maxPairs: maxPairs, maxWork: maxWork,
		height: map[pairKey]int{}, uses: map[pairKey]int64{}, seen: map[pairKey]int32{}, reached: map[pairKey]int64{}}
	resolved := func(r [2]int32) (pairKey, bool) {
		b, h := base.resolved(r[0]), head.resolved(r[1])
		return pairOf(b, h), b >= 0 && h >= 0
	}
	for _, r := range structure {
		if p, ok := resolved(r); ok {
			if err := w.structure(p); err != nil {
				return w.cost, err
			}
		}
	}
	named := make([]pairKey, 0, len(w.uses))
	for p := range w.uses {
		named = append(named, p)
	}
	slices.Sort(named) // so that a refusal does not depend on a map's order
	for _, p := range named {
		if err := w.pairs(p); err != nil {
			return w.cost, err
		}
		n, err := w.reach(p)
		if err != nil {
			return w.cost, err
		}
		if !w.charge(n * (w.uses[p] - 1)) {
			return w.cost, w.errOver()
		}
	}
	for _, r := range schemas {
		if p, ok := resolved(r); ok {
			if err := w.pairs(p); err != nil {
				return w.cost, err
			}
		}
	}
	w.cost.pairs = max(len(w.height), len(w.seen))
	return w.cost, nil
}

// checkPairs walks the pairs of schemas the library compares when given
// the units of p.keep (nil: all) of b and h, indexed from base and head,
// within the bounds for the two descriptions' size.
func checkPairs(base, head []byte, b, h *doc, p plan) error {
	keep, changed := p.keep, p.changed
	if changed == nil {
		changed = changedUnits(b, h)
	}
	bTree, hTree := newTree(base, b, changed), newTree(head, h, changed)
	if bTree == nil || hTree == nil {
		return nil
	}
	both := len(base) + len(head)
	structure, schemas := pairRoots(bTree, hTree, b, h, keep)
	_, err := walkPairs(bTree, hTree, structure, schemas, maxPairDepth, max(minPairs, both/bytesPerPair), max(minPairWork, pairWorkPerByte*int64(both)))
	return err
}

// pairRoots are the units of keep (nil: all) that the library compares,
// each a node of bTree and one of hTree: the structure around schemas
// (path items, and the components other than schemas), and the schemas.
func pairRoots(bTree, hTree *tree, b, h *doc, keep map[unitKey]bool) (structure, schemas [][2]int32) {
	headPaths := map[string]unitKey{} // a head path for each template
	for _, m := range h.sections["paths"] {
		if _, ok := headPaths[template(m.key)]; !ok {
			headPaths[template(m.key)] = unitKey{"paths", m.key}
		}
	}
	// In the order of their names, so that the nodes are read, and the
	// pairs walked, in the same order on every run.
	keys := slices.SortedFunc(maps.Keys(b.units), func(x, y unitKey) int {
		return cmp.Or(cmp.Compare(x.sec, y.sec), cmp.Compare(x.name, y.name))
	})
	for _, k := range keys {
		if keep != nil && !keep[k] {
			continue
		}
		other := counterpart(k, b.swagger, h.swagger)
		if _, ok := h.units[other]; !ok && k.sec == "paths" {
			other = headPaths[template(k.name)]
		}
		if _, ok := h.units[other]; !ok {
			continue
		}
		x, y := bTree.unit(k), hTree.unit(other)
		switch {
		case x < 0 || y < 0:
		case k.sec == "components/schemas" || k.sec == "definitions":
			schemas = append(schemas, [2]int32{x, y})
		default:
			structure = append(structure, [2]int32{x, y})
		}
	}
	return structure, schemas
}

// counterpart is the unit of the head that the library compares with the
// base's unit k: the same, or across versions the section that took its
// place (a Swagger 2.0 definition and an OpenAPI 3 schema).
func counterpart(k unitKey, fromSwagger, toSwagger bool) unitKey {
	switch {
	case fromSwagger == toSwagger || k.sec == "paths":
		return k
	case fromSwagger:
		sec := k.sec
		if sec == "definitions" {
			sec = "schemas"
		}
		return unitKey{"components/" + sec, k.name}
	default:
		sec := strings.TrimPrefix(k.sec, "components/")
		if sec == "schemas" {
			sec = "definitions"
		}
		return unitKey{sec, k.name}
	}
}
