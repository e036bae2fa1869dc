package apidiff

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// tree is one side's JSON as the walk reads it: its objects and arrays, each
// with its members, and each $ref's text.
type tree struct {
	data    []byte
	doc     *doc
	changed map[unitKey]bool
	// units are the units read, each its node, or -1; and the
	// document-level parts, each under its key with no section.
	units map[unitKey]int32
	nodes []tnode
	kids  []tkid
	keys  []byte // the keys written with escapes, unescaped
	// byKey finds a member of an object with many (its place in kids),
	// built as the walk needs it.
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
// unescaped in keys (keyLen's top bit set); any other value's text is
// data[value:value+valueLen].
type tkid struct {
	key, keyLen     int32
	node            int32
	value, valueLen int32
}

// text is the text of k's value when it is no object or array, as JSON.
func (t *tree) text(k tkid) []byte { return t.data[k.value : k.value+k.valueLen] }

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
	n := t.parse(t.doc.units[k])
	t.units[k] = n
	return n
}

// part is the node of the document-level part key ("info",
// "components/securitySchemes"), read when first asked for; -1 for none.
func (t *tree) part(key string) int32 {
	k := unitKey{"", key}
	if n, ok := t.units[k]; ok {
		return n
	}
	n := t.parse(t.doc.level[key])
	t.units[k] = n
	return n
}

// parse reads raw, an object or an array that is a slice of t.data; -1
// for anything else.
func (t *tree) parse(raw []byte) int32 {
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return -1
	}
	// Where raw starts in data, of which it is a slice.
	at := cap(t.data) - cap(raw)
	if at < 0 || at+len(raw) > len(t.data) || &t.data[at] != &raw[0] {
		return -1
	}
	p := &treeParser{t: t, data: t.data, i: at, seed: treeSeed}
	first := len(t.nodes)
	n, ok := p.value()
	if !ok {
		t.nodes = t.nodes[:first]
		return -1
	}
	t.touch(first)
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
				kid.node, kid.value, kid.valueLen = -1, int32(rs-1), int32(re-rs+2)
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
		if n < 0 {
			kid.value, kid.valueLen = int32(from), int32(p.i-from)
		}
		p.stack = append(p.stack, kid)
	}
	p.t.nodes[self].first, p.t.nodes[self].n = int32(len(p.t.kids)), int32(len(p.stack)-mark)
	p.t.nodes[self].sum = sum.Sum64()
	p.t.kids = append(p.t.kids, p.stack[mark:]...)
	p.stack = p.stack[:mark]
	return self, true
}

// unquoted is the text of a JSON string's body, read by JSON's rules;
// the body itself when it is no JSON string.
func unquoted(body []byte) string {
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	quoted := make([]byte, 0, len(body)+2)
	quoted = append(append(append(quoted, '"'), body...), '"')
	u, err := jsontext.AppendUnquote(nil, quoted)
	if err != nil {
		return string(body)
	}
	return string(u)
}

// member is the value of node's member key: a node, -1 for a scalar or
// none. Of a key written twice, the last, as the library reads it.
func (t *tree) member(node int32, key []byte) int32 {
	if k, ok := t.memberKid(node, key); ok {
		return k.node
	}
	return -1
}

// memberKid is node's member key, the last of a key written twice.
func (t *tree) memberKid(node int32, key []byte) (tkid, bool) {
	n := t.nodes[node]
	if n.n <= 16 {
		var found tkid
		ok := false
		for _, k := range t.kids[n.first : n.first+n.n] {
			if bytes.Equal(t.key(k), key) {
				found, ok = k, true
			}
		}
		return found, ok
	}
	m, ok := t.byKey[node]
	if !ok {
		m = make(map[string]int32, n.n)
		for i, k := range t.kids[n.first : n.first+n.n] {
			m[string(t.key(k))] = n.first + int32(i)
		}
		t.byKey[node] = m
	}
	if i, ok := m[string(key)]; ok {
		return t.kids[i], true
	}
	return tkid{}, false
}

// str is the string node's member key holds, and whether it holds one.
func (t *tree) str(node int32, key string) (string, bool) {
	k, ok := t.memberKid(node, []byte(key))
	if !ok || k.node >= 0 || k.valueLen < 2 || t.data[k.value] != '"' {
		return "", false
	}
	return unquoted(t.data[k.value+1 : k.value+k.valueLen-1]), true
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

// resolved is node with its $refs followed, however many lead one to
// another, to an object or an array of this document; -1 where they lead
// nowhere (a cycle of $refs, a place that is not there).
func (t *tree) resolved(node int32) int32 {
	if node < 0 || t.nodes[node].refLen == 0 {
		return node
	}
	// The references on the way, each resolved as the last is.
	var chain []string
	for node >= 0 && t.nodes[node].refLen > 0 {
		n := t.nodes[node]
		ref := string(t.data[n.ref : n.ref+n.refLen])
		if target, ok := t.targets[ref]; ok {
			node = target
			break
		}
		t.targets[ref] = -1 // on the way: a cycle leads nowhere
		chain = append(chain, ref)
		node = t.target(unquoted([]byte(ref)))
	}
	for _, ref := range chain {
		t.targets[ref] = node
	}
	return node
}

// target is the node a local reference names, -1 for none: in a unit, or
// in a document-level part.
func (t *tree) target(ref string) int32 {
	if k, ok, _ := refUnit(ref, t.doc.swagger); ok {
		_, toks, _ := refTokens(ref)
		return t.at(t.unit(k), toks[strings.Count(k.sec, "/")+2:])
	}
	_, toks, ok := refTokens(ref)
	if !ok || !strings.HasPrefix(ref, "#/") {
		return -1
	}
	key, rest := toks[0], toks[1:]
	if key == "components" && len(toks) > 1 {
		key, rest = "components/"+toks[1], toks[2:]
	}
	return t.at(t.part(key), rest)
}
