package openapi

import (
	"encoding/binary"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A long YAML block sequence of scalars, lists held packed and empty
// collections (a list of nine million one-letter items, a large enum,
// lines of `- [1]`; see packableInBlock), and a flow list however short
// ([1] written a line at a time), with the lists and mappings in it (see
// packFlow), is held packed: one Array node whose items are written one
// after the other in its Scalar, each as its kind, its JSON literal (a
// list's or a mapping's own packed text) and its place, a few bytes an
// item where a Node each would take forty and more. The upload is written
// from the packed form; a consumer that needs the items as Nodes calls
// Elems, which unpacks them for good, one level: a list in it stays packed
// until its own Elems, a mapping comes out whole.

// packFrom is how many items a block sequence must have to be packed: a
// short one is unpacked when it ends, as most lists a description holds
// are short and read item by item. A flow list is packed however short:
// written many times over, its node and its items' would be most of the
// tree.
const packFrom = 256

// packer builds the packed form of a sequence's items.
type packer struct {
	b         strings.Builder
	line, col int32 // the previous item's place
}

// add appends an item: its kind, its JSON literal and where it was written:
// its line after the previous item's, and its column, after the previous
// item's on the same line (a flow list of a million items on one line
// takes a byte a column, not four).
func (p *packer) add(k Kind, lit string, pos Pos) {
	var tmp [4 * binary.MaxVarintLen64]byte
	b := binary.AppendUvarint(tmp[:0], uint64(len(lit))<<3|uint64(k))
	head := len(b)
	col := int64(pos.Col)
	if pos.Line == p.line {
		col -= int64(p.col)
	}
	b = binary.AppendVarint(b, int64(pos.Line)-int64(p.line))
	b = binary.AppendVarint(b, col)
	if need := len(b) + len(lit); p.b.Cap()-p.b.Len() < need {
		// Grow grows to twice the room and more: appending grows a large
		// text by a quarter, which allocates five times its size over a
		// list of megabytes, where this allocates twice (the collector
		// runs only at the limit: what is allocated is resident).
		p.b.Grow(need)
	}
	p.b.Write(b[:head])
	p.b.WriteString(lit)
	p.b.Write(b[head:])
	p.line, p.col = pos.Line, pos.Col
}

// startAt makes the first item's place counted from at, the list's or
// the mapping's own: its items are mostly on its line, just after it.
func (p *packer) startAt(at Pos) {
	p.line, p.col = at.Line, at.Col
}

// done makes n, an Array without items, hold p's items packed.
func (p *packer) done(n *Node) {
	n.packed = true
	n.SetScalar(p.b.String())
	*p = packer{}
}

// packDepth is how many levels of lists and mappings a packed list holds
// at most, itself counted: packing a list copies the packed text of the
// lists below it, so that each byte is copied at most packDepth times.
const packDepth = 8

// packFlow holds n, a flow list read whole, packed when its items can be:
// scalars, lists packed, and mappings of such, without a $ref or a
// discriminator (nothing bundling changes is packed), packDepth levels
// deep at most. Written many times over ([[1,[1,{a: 1}]],…]), a node for
// each of its values would be most of the tree. The YAML library's
// converter calls it on each flow list it reads, the lists in it first;
// the reader packs the same as it reads (list.put). The items packed are
// let go with letGo.
func packFlow(n *Node, letGo func(*Node)) {
	if n.packed || len(n.Items()) == 0 {
		return
	}
	for _, it := range n.Items() {
		if !packable(it) {
			return
		}
	}
	var p packer
	p.startAt(n.Pos)
	items := n.Items()
	size := 0 // about the packed size, to grow the text once
	for _, it := range items {
		size += len(it.Scalar()) + 4
	}
	p.b.Grow(size)
	for _, it := range items {
		p.addNode(it)
	}
	p.done(n)
	for _, it := range items {
		letGo(it)
	}
}

// packable says whether n can be an item of a packed list.
func packable(n *Node) bool {
	_, ok := packHeight(n, packDepth-1)
	return ok
}

// packableInBlock says whether n can be an item of a packed block list: a
// scalar of any style, a list held packed, or an empty list or mapping
// (lines of `- [1]` or `- {}`, a node of 40 bytes each for six bytes of
// input), of packItemMax bytes at most. A mapping with members is not:
// most block lists of mappings are short (parameters, servers, tags), and
// packing each to unpack it when the list ends short would cost them a
// copy of every value.
func packableInBlock(n *Node) bool {
	return packable(n) && (n.Kind != Object || len(n.Fields()) == 0) && len(n.Scalar()) <= packItemMax
}

// packItemMax is the most text an item read as a node may have to be
// packed in a block list: packing a long scalar (a quoted or block scalar
// of a description) copies its text into the packed text, which grows by
// doubling, for nothing saved but the node's forty bytes.
const packItemMax = 1024

// packHeight is how many levels of lists and mappings n holds, itself
// counted (0 for a scalar), and whether it can be packed within room
// levels.
func packHeight(n *Node, room int) (int, bool) {
	switch n.Kind {
	case Array:
		if n.packed {
			h := packedHeight(Array, n.Scalar())
			return h, h <= room
		}
		return 1, len(n.Items()) == 0 && room >= 1
	case Object:
		if room < 1 {
			return 0, false
		}
		h := 0
		for _, f := range n.Fields() {
			if f.Key == "$ref" || f.Key == "discriminator" {
				return 0, false
			}
			fh, ok := packHeight(f.Value, room-1)
			if !ok {
				return 0, false
			}
			h = max(h, fh)
		}
		return h + 1, true
	}
	return 0, true
}

// packedHeight is packHeight of the item of kind k packed as lit.
func packedHeight(k Kind, lit string) int {
	if k != Array && k != Object {
		return 0
	}
	h := 0
	eachPacked(lit, Pos{}, func(k Kind, lit string, _ Pos) bool {
		h = max(h, packedHeight(k, lit))
		return true
	})
	return h + 1
}

// addNode appends n, which packHeight says can be packed, as an item.
func (p *packer) addNode(n *Node) {
	switch n.Kind {
	case Object:
		var q packer
		q.startAt(n.Pos)
		for _, f := range n.Fields() {
			q.add(String, f.Key, f.KeyPos)
			q.addNode(f.Value)
		}
		p.add(Object, q.b.String(), n.Pos)
	case Array:
		p.add(Array, n.Scalar(), n.Pos) // packed, or "" for []
	default:
		p.add(n.Kind, n.Scalar(), n.Pos)
	}
}

// packedItems calls f with each item of a packed Array, in order, until f
// returns false.
func (n *Node) packedItems(f func(k Kind, lit string, pos Pos) bool) {
	eachPacked(n.Scalar(), n.Pos, f)
}

// eachPacked calls f with each item packed in s, by a packer started at
// at, in order, until f returns false. An item that is a list or a
// mapping has the packed text of its items, or of its members (each a
// key, as a String, then its value), as its literal, packed from its own
// place.
func eachPacked(s string, at Pos, f func(k Kind, lit string, pos Pos) bool) {
	line, prev := at.Line, at.Col
	for len(s) > 0 {
		h, w := uvarint(s)
		s = s[w:]
		size := int(h >> 3)
		lit := s[:size]
		s = s[size:]
		dl, w := varint(s)
		s = s[w:]
		col, w := varint(s)
		s = s[w:]
		line += int32(dl)
		if dl == 0 {
			col += int64(prev)
		}
		prev = int32(col)
		if !f(Kind(h&7), lit, Pos{Line: line, Col: int32(col)}) {
			return
		}
	}
}

func uvarint(s string) (uint64, int) {
	var x uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			return x | uint64(c)<<(7*i), i + 1
		}
		x |= uint64(c&0x7f) << (7 * i)
	}
	panic("openapi: a packed sequence is corrupt")
}

func varint(s string) (int64, int) {
	ux, w := uvarint(s)
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x, w
}

// Elems returns an Array's items as Nodes. An Array read from a long YAML
// sequence of plain scalars holds its items packed, with Items empty:
// Elems unpacks them, once, into Items. Read an Array's items through it;
// as it may change the node, a tree is read by one goroutine at a time.
func (n *Node) Elems() []*Node {
	if n != nil && n.packed {
		n.unpack()
	}
	if n == nil {
		return nil
	}
	return n.Items()
}

// unpack turns a packed Array into one with a Node for each item, as the
// items would have been read unpacked.
func (n *Node) unpack() {
	count := 0
	n.packedItems(func(Kind, string, Pos) bool { count++; return true })
	block := make([]Node, count)
	items := make([]*Node, 0, count)
	n.packedItems(func(k Kind, lit string, pos Pos) bool {
		it := &block[len(items)]
		it.Pos, it.Src = pos, n.Src
		it.setPacked(k, lit)
		items = append(items, it)
		return true
	})
	n.packed = false
	n.SetItems(items)
}

// setPacked makes n the item of kind k packed as lit: a scalar; a list,
// packed in turn (its items unpacked when read); or a mapping, whose
// members are unpacked now, as a mapping's are read straight from Fields.
func (n *Node) setPacked(k Kind, lit string) {
	n.Kind = k
	switch {
	case k == Array && lit != "":
		n.packed = true
		n.SetScalar(lit)
	case k == Array:
		// [] as the reader leaves it: no items.
	case k == Object:
		count := 0
		eachPacked(lit, Pos{}, func(Kind, string, Pos) bool { count++; return true })
		if count == 0 {
			return // {} as the reader leaves it
		}
		block := make([]Node, count/2)
		fs := make([]Field, 0, count/2)
		var key Field // the member's key, read before its value
		i := 0
		eachPacked(lit, n.Pos, func(k Kind, lit string, pos Pos) bool {
			if i++; i%2 == 1 {
				key = Field{Key: lit, KeyPos: pos}
				return true
			}
			v := &block[len(fs)]
			v.Pos, v.Src = pos, n.Src
			v.setPacked(k, lit)
			key.Value = v
			fs = append(fs, key)
			return true
		})
		n.SetFields(fs)
	default:
		n.SetScalar(lit)
	}
}

// packedSize is a packed Array's size as JSON, as jsonSize reckons it.
func (n *Node) packedSize() int64 {
	return packedSize(Array, n.Scalar())
}

// packedSize is the size as JSON, as jsonSize reckons it, of the item of
// kind k packed as lit.
func packedSize(k Kind, lit string) int64 {
	switch k {
	case String:
		return int64(len(lit)) + 2
	case Array:
		s := int64(2)
		eachPacked(lit, Pos{}, func(k Kind, lit string, _ Pos) bool {
			s += 1 + packedSize(k, lit)
			return true
		})
		return s
	case Object:
		s, key := int64(2), true
		eachPacked(lit, Pos{}, func(k Kind, lit string, _ Pos) bool {
			if key {
				s += int64(len(lit)) + 4
			} else {
				s += packedSize(k, lit)
			}
			key = !key
			return true
		})
		return s
	}
	return int64(len(lit))
}

// appendPacked appends a packed Array as compact JSON to b.
func (n *Node) appendPacked(b []byte) []byte {
	return appendPacked(b, Array, n.Scalar(), nil)
}

// appendPacked appends the item of kind k packed as lit as compact JSON to
// b, calling flush, when not nil, with what is appended so far after each
// item of a list or member of a mapping: flush returns the buffer to go on
// with.
func appendPacked(b []byte, k Kind, lit string, flush func([]byte) []byte) []byte {
	open, close := byte('['), byte(']')
	switch k {
	case Array:
	case Object:
		open, close = '{', '}'
	case String:
		return appendString(b, lit)
	default:
		return append(b, lit...)
	}
	b = append(b, open)
	i := 0
	eachPacked(lit, Pos{}, func(ik Kind, ilit string, _ Pos) bool {
		switch {
		case k == Object && i%2 == 0:
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, ilit)
			b = append(b, ':')
		default:
			if k == Array && i > 0 {
				b = append(b, ',')
			}
			b = appendPacked(b, ik, ilit, flush)
			if flush != nil {
				b = flush(b)
			}
		}
		i++
		return true
	})
	return append(b, close)
}

// packable says whether the items ys of a sequence being converted can be
// packed as they are written: plain, untagged scalars without anchors, at
// a depth the limit allows.
func (c *yamlConverter) packable(ys []*yaml.Node) bool {
	if c.tooDeep(c.depth + 1) { // the items' depth
		return false
	}
	for _, y := range ys {
		if !plainItem(y) {
			return false
		}
	}
	return true
}

// plainItem says whether y is a plain, untagged scalar without an anchor.
func plainItem(y *yaml.Node) bool {
	return y != nil && y.Kind == yaml.ScalarNode && y.Style == 0 && y.Anchor == ""
}

// packItems converts ys, the items of parent, into p, counting them as
// convert would each.
func (c *yamlConverter) packItems(p *packer, parent *yaml.Node, ys []*yaml.Node) error {
	for i, y := range ys {
		kind, lit, err := c.plainValue(y)
		if err != nil {
			return err
		}
		p.add(kind, lit, c.pos(y))
		c.release(parent, i)
	}
	return nil
}

// plainValue counts y, a plain scalar, as convert would, and gives its
// kind and JSON literal.
func (c *yamlConverter) plainValue(y *yaml.Node) (Kind, string, error) {
	if err := c.grow(y, ""); err != nil {
		return 0, "", err
	}
	if err := c.grow(y, y.Value); err != nil {
		return 0, "", err
	}
	kind, lit, err := plainScalar(y.Value)
	if err != nil {
		return 0, "", c.fail(y, "%v", err)
	}
	return kind, lit, nil
}

// pendingItem converts y, an item of a sequence at c.depth, for a list:
// a plain scalar as its kind, JSON literal and place, to be packed if the
// list is; anything else as convert makes it.
func (c *yamlConverter) pendingItem(y *yaml.Node) (pending, error) {
	if c.tooDeep(c.depth+1) || !plainItem(y) {
		m, err := c.convert(y)
		return pending{node: m}, err
	}
	kind, lit, err := c.plainValue(y)
	return pending{kind: kind, lit: lit, pos: c.pos(y)}, err
}
