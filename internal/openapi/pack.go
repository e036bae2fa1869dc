package openapi

import (
	"encoding/binary"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A long YAML sequence of plain scalars (a list of nine million one-letter
// items, or a large enum), and a flow list of them however short ([1]
// written a line at a time), is held packed: one Array node whose items are
// written one after the other in its Scalar, each as its kind, its JSON
// literal and its place, a few bytes an item where a Node each would take
// ninety-six. The upload is written from the packed form; a consumer that
// needs the items as Nodes calls Elems, which unpacks them for good.

// packFrom is how many items a block sequence must have to be packed. A
// flow list is packed however short: written many times over, its node and
// its items' would be most of the tree.
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
	var tmp [3 * binary.MaxVarintLen64]byte
	b := binary.AppendUvarint(tmp[:0], uint64(len(lit))<<3|uint64(k))
	p.b.Write(b)
	p.b.WriteString(lit)
	col := int64(pos.Col)
	if pos.Line == p.line {
		col -= int64(p.col)
	}
	b = binary.AppendVarint(tmp[:0], int64(pos.Line)-int64(p.line))
	b = binary.AppendVarint(b, col)
	p.b.Write(b)
	p.line, p.col = pos.Line, pos.Col
}

// done makes n, an Array without items, hold p's items packed.
func (p *packer) done(n *Node) {
	n.packed = true
	n.SetScalar(p.b.String())
	*p = packer{}
}

// packedItems calls f with each item of a packed Array, in order, until f
// returns false.
func (n *Node) packedItems(f func(k Kind, lit string, pos Pos) bool) {
	s, line, prev := n.Scalar(), int32(0), int32(0)
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
		it.Kind, it.Pos, it.Src = k, pos, n.Src
		it.SetScalar(lit)
		items = append(items, it)
		return true
	})
	n.packed = false
	n.SetItems(items)
}

// packedSize is a packed Array's size as JSON, as jsonSize reckons it.
func (n *Node) packedSize() int64 {
	s := int64(2)
	n.packedItems(func(k Kind, lit string, _ Pos) bool {
		s += 1 + int64(len(lit))
		if k == String {
			s += 2
		}
		return true
	})
	return s
}

// appendPacked appends a packed Array as compact JSON to b.
func (n *Node) appendPacked(b []byte) []byte {
	b = append(b, '[')
	first := true
	n.packedItems(func(k Kind, lit string, _ Pos) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendLiteral(b, k, lit)
		return true
	})
	return append(b, ']')
}

// appendLiteral appends a scalar of kind k whose text is lit as JSON.
func appendLiteral(b []byte, k Kind, lit string) []byte {
	if k == String {
		return appendString(b, lit)
	}
	return append(b, lit...)
}

// packable says whether the items ys of a sequence being converted can be
// packed: plain, untagged scalars without anchors, at a depth the limit
// allows.
func (c *yamlConverter) packable(ys []*yaml.Node) bool {
	if c.tooDeep(c.depth + 1) { // the items' depth
		return false
	}
	for _, y := range ys {
		if y == nil || y.Kind != yaml.ScalarNode || y.Style != 0 || y.Anchor != "" {
			return false
		}
	}
	return true
}

// packItems converts ys, the items of parent, into p, counting them as
// convert would each.
func (c *yamlConverter) packItems(p *packer, parent *yaml.Node, ys []*yaml.Node) error {
	for i, y := range ys {
		if err := c.grow(y, ""); err != nil {
			return err
		}
		if err := c.grow(y, y.Value); err != nil {
			return err
		}
		kind, lit, err := plainScalar(y.Value)
		if err != nil {
			return c.fail(y, "%v", err)
		}
		p.add(kind, lit, c.pos(y))
		c.release(parent, i)
	}
	return nil
}
