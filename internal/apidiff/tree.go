package apidiff

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"
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
	// byKey finds a member of an object with many: their places in its
	// kids, sorted by key, as the walk needs it.
	byKey map[int32][]int32
	// targets are the references resolved so far: a node, or -1.
	targets map[string]int32
	// unread is set when a part of the text could not be read.
	unread bool
	// extensions is, of each object of fields that has extensions, what
	// the library spends comparing their values: their text, a byte once
	// a level they nest.
	extensions map[int32]int64
}

// tnode is an object or an array that has members: kids[first:first+n]
// are those of them that are objects or arrays with members (and an
// object's "in" and "name", which name a parameter, and every member of a
// map of names), of its members in all (bits, with two flags).
type tnode struct {
	first, n int32
	bits     uint32
	// ref is, of an object, where the text of the value of its "$ref"
	// member starts in data, 0 for none; of a list, where the list starts.
	ref int32
	// sum is a hash of its text as read (its members' keys and values),
	// seeded at random, so that two values of the same text, and no
	// $ref, are the same to the library without reading them again.
	sum uint64
}

const (
	objectBit  = 1 << 31
	touchedBit = 1 << 30 // it, or a value in it, has a "$ref" to a unit that changed, or to anything else (touch)
	pathsBit   = 1 << 29 // a map of path items by path (pathMap)
	flagBits   = objectBit | touchedBit | pathsBit
)

func (n tnode) object() bool   { return n.bits&objectBit != 0 }
func (n tnode) touched() bool  { return n.bits&touchedBit != 0 }
func (n tnode) paths() bool    { return n.bits&pathsBit != 0 }
func (n tnode) members() int32 { return int32(n.bits &^ flagBits) }
func (n tnode) hasRef() bool   { return n.object() && n.ref > 0 }

// refText is the text of node's "$ref", unescaped; "" for none.
func (t *tree) refText(node int32) string {
	if n := t.nodes[node]; n.hasRef() {
		s, _ := t.stringAt(int(n.ref) - 1)
		return s
	}
	return ""
}

// items is the texts of the items of list node, as written.
func (t *tree) items(node int32) [][]byte {
	p := &treeParser{data: t.data, i: int(t.nodes[node].ref) + 1}
	var out [][]byte
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] == ']' {
			return out
		}
		if p.data[p.i] == ',' {
			p.i++
			p.space()
		}
		from := p.i
		switch p.data[p.i] {
		case '{', '[':
			if !p.skip() {
				return out
			}
		case '"':
			if _, _, ok := p.str(); !ok {
				return out
			}
		default:
			for p.i < len(p.data) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(p.data[p.i])) {
				p.i++
			}
		}
		out = append(out, p.data[from:p.i])
	}
}

// stringAt is the JSON string whose quote is data[at], unescaped.
func (t *tree) stringAt(at int) (string, bool) {
	p := &treeParser{data: t.data, i: at}
	s, e, ok := p.str()
	if !ok {
		return "", false
	}
	return unquoted(t.data[s:e]), true
}

// tkid is a member: its key and its value. The key is
// data[key:key+keyLen], or, when written with escapes, unescaped in keys
// (keyLen's top bit set); an array's member has its place for key. The
// value is a node; -1, a map's member that is none; or, -2 less where its
// text starts in data, a string (a parameter's "in" or "name").
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

// valueKeys are the fields whose values the library compares as values,
// not as schemas: their objects and arrays are read as text, as are an
// extension's (x-…), which the library reads as written, without their
// $refs.
var valueKeys = map[string]bool{"example": true, "examples": true, "default": true, "const": true}

// listKeys are the fields whose values are lists that the library
// compares each item with each, or reports item by item: the list is a
// node, of as many members as it has items, each read as text.
var listKeys = map[string]bool{"enum": true, "x-extensible-enum": true, "required": true, "security": true, "servers": true}

// A role is what an object is to the library: an object of fields (a
// schema, an operation), whose keys are OpenAPI's, or a map of names
// (properties, responses, content), whose keys are anyone's and whose
// values are objects of fields, or maps of names again (callbacks).
type role uint8

const (
	fields role = iota
	mapOfFields
	mapOfMaps
	asText     // a value the library compares as a value
	listOfText // a list whose items are values (listKeys)
	pathMap    // a map of path items by path, which the library pairs by template (a callback)
)

// mapKeys are the fields whose values are maps of names.
var mapKeys = map[string]role{
	"properties": mapOfFields, "patternProperties": mapOfFields, "dependentSchemas": mapOfFields,
	"$defs": mapOfFields, "definitions": mapOfFields, "schemas": mapOfFields,
	"responses": mapOfFields, "parameters": mapOfFields, "headers": mapOfFields, "content": mapOfFields,
	"encoding": mapOfFields, "links": mapOfFields, "requestBodies": mapOfFields, "securitySchemes": mapOfFields,
	"pathItems": mapOfFields, "paths": mapOfFields, "webhooks": mapOfFields, "variables": mapOfFields,
	"mapping": mapOfFields, "scopes": mapOfFields, "securityDefinitions": mapOfFields,
	"callbacks": mapOfMaps,
}

// member is the role of the value of member key of an object of role r.
func (r role) member(key []byte) role {
	switch r {
	case mapOfFields, pathMap:
		return fields
	case mapOfMaps:
		return pathMap
	case fields:
		return mapKeys[string(key)]
	}
	return asText
}

// isExtensionKey is whether key names an extension.
func isExtensionKey(key []byte) bool { return bytes.HasPrefix(key, []byte("x-")) }

// newTree is a tree of d, which was indexed from data, JSON, with the
// units that changed: each unit is read as the walk reaches it.
func newTree(data []byte, d *doc, changed map[unitKey]bool) *tree {
	if len(data) > 1<<31-1 {
		return nil
	}
	return &tree{data: data, doc: d, changed: changed, units: map[unitKey]int32{},
		byKey: map[int32][]int32{}, targets: map[string]int32{}, extensions: map[int32]int64{}}
}

// unit is the node of unit k, read when first asked for; -1 for none.
func (t *tree) unit(k unitKey) int32 {
	if n, ok := t.units[k]; ok {
		return n
	}
	r := fields
	if k.sec == "components/callbacks" {
		r = pathMap
	}
	n := t.parse(t.doc.units[k], r)
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
	r := fields
	switch {
	case key == "components/callbacks":
		r = mapOfMaps
	case strings.HasPrefix(key, "components/") || key == "webhooks":
		r = mapOfFields
	}
	n := t.parse(t.doc.level[key], r)
	t.units[k] = n
	return n
}

// parse reads raw, an object or an array of role r that is a slice of
// t.data (the index's units and parts are); -1 for anything else. What it
// cannot read it marks unread: the walk then refuses, rather than pass
// over what it did not read.
func (t *tree) parse(raw []byte, r role) int32 {
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return -1
	}
	// Where raw starts in data, of which it is a slice.
	at := cap(t.data) - cap(raw)
	if at < 0 || at+len(raw) > len(t.data) || &t.data[at] != &raw[0] {
		t.unread = true
		return -1
	}
	p := &treeParser{t: t, data: t.data, i: at, seed: treeSeed}
	nodes, kids, keys := len(t.nodes), len(t.kids), len(t.keys)
	n, ok := p.value(false, r)
	if !ok {
		t.nodes, t.kids, t.keys = t.nodes[:nodes], t.kids[:kids], t.keys[:keys]
		t.unread = true
		return -1
	}
	t.touch(nodes)
	return n
}

// touch marks the nodes from first on that have a $ref, or a value that
// has one, to a unit that changed or to anything but a unit. A node's
// members come after it, so that, from the last node back, each node's
// are marked before it is.
func (t *tree) touch(first int) {
	for i := len(t.nodes) - 1; i >= first; i-- {
		n := &t.nodes[i]
		touched := false
		if n.hasRef() {
			k, ok, _ := refUnit(t.refText(int32(i)), t.doc.swagger)
			touched = !ok || t.changed[k]
		}
		for _, k := range t.kids[n.first : n.first+n.n] {
			if touched {
				break
			}
			touched = k.node >= 0 && t.nodes[k.node].touched()
		}
		if touched {
			n.bits |= touchedBit
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
	// deepest is how deep the last values read as text nested.
	deepest int
}

func (p *treeParser) space() {
	for p.i < len(p.data) && (p.data[p.i] == ' ' || p.data[p.i] == '\t' || p.data[p.i] == '\n' || p.data[p.i] == '\r') {
		p.i++
	}
}

// value reads the value at p.i, of role r: the node it is, or -1 for any
// other. An object or list is read as text, and -1, when its members
// cannot hold a schema: it has none, or it is a list's member that is a
// list, or r is asText.
func (p *treeParser) value(inList bool, r role) (int32, bool) {
	p.space()
	if p.i >= len(p.data) {
		return 0, false
	}
	switch c := p.data[p.i]; {
	case c == '[' && (inList || r == asText), c == '{' && (r == asText || r == listOfText):
		return -1, p.skip()
	case c == '{' || c == '[':
		return p.composite(r)
	case c == '"':
		_, _, ok := p.str()
		return -1, ok
	default:
		for p.i < len(p.data) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(p.data[p.i])) {
			p.i++
		}
		return -1, true
	}
}

// skip reads the object or array at p.i as text.
func (p *treeParser) skip() bool {
	depth := 0
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case '"':
			if _, _, ok := p.str(); !ok {
				return false
			}
			continue
		case '{', '[':
			depth++
			p.deepest = max(p.deepest, depth)
		case '}', ']':
			if depth--; depth == 0 {
				p.i++
				return true
			}
		}
		p.i++
	}
	return false
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

// composite reads the object or list at p.i, of role r.
func (p *treeParser) composite(r role) (int32, bool) {
	object := p.data[p.i] == '{'
	end := byte(']')
	if object {
		end = '}'
	}
	p.i++
	self := int32(len(p.t.nodes))
	p.t.nodes = append(p.t.nodes, tnode{})
	if !object {
		p.t.nodes[self].ref = int32(p.i - 1)
	}
	var sum maphash.Hash
	sum.SetSeed(p.seed)
	sum.WriteByte(end)
	mark := len(p.stack)
	members := int32(0)
	for ; ; members++ {
		p.space()
		if p.i >= len(p.data) {
			return 0, false
		}
		if p.data[p.i] == end {
			p.i++
			break
		}
		if members > 0 {
			if p.data[p.i] != ',' {
				return 0, false
			}
			p.i++
			p.space()
		}
		kid := tkid{key: members}
		kr := fields // a list's members are objects of fields, or values
		if r == listOfText {
			kr = asText
		}
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
			key := p.t.key(kid)
			sum.Write(key)
			sum.WriteByte(0)
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return 0, false
			}
			p.i++
			p.space()
			kr = r.member(key)
			switch {
			case r != fields:
			case listKeys[string(key)]:
				kr = listOfText
			case valueKeys[string(key)] || isExtensionKey(key):
				kr = asText
			}
			if string(key) == "$ref" && p.i < len(p.data) && p.data[p.i] == '"' {
				rs, re, ok := p.str()
				if !ok {
					return 0, false
				}
				p.t.nodes[self].ref = int32(rs)
				sum.Write(p.data[rs:re])
				sum.WriteByte(0)
				continue
			}
		}
		from := p.i
		p.deepest = 0
		n, ok := p.value(!object, kr)
		if !ok {
			return 0, false
		}
		if object && r == fields && isExtensionKey(p.t.key(kid)) {
			// The library compares an extension's value as JSON, a
			// patch of it, each time it compares its object.
			p.t.extensions[self] += int64(p.i-from) * int64(1+p.deepest)
		}
		switch {
		case n >= 0:
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], p.t.nodes[n].sum)
			sum.Write(b[:])
			kid.node = n
			p.stack = append(p.stack, kid)
		default:
			sum.Write(p.data[from:p.i])
			sum.WriteByte(0)
			switch k := string(p.t.key(kid)); {
			case object && (r == mapOfFields || r == mapOfMaps || r == pathMap):
				// A map's names are all held: the library compares
				// those of one side that the other has not, each with
				// each (others).
				kid.node = -1
				p.stack = append(p.stack, kid)
			case object && p.data[from] == '"' && (k == "in" || k == "name"):
				kid.node = -2 - int32(from)
				p.stack = append(p.stack, kid)
			}
		}
	}
	if members == 0 && p.t.nodes[self].ref == 0 {
		// (an object that has a $ref has a member)
		p.t.nodes = p.t.nodes[:self] // no member: a value, read as text
		return -1, true
	}
	n := &p.t.nodes[self]
	n.first, n.n, n.bits = int32(len(p.t.kids)), int32(len(p.stack)-mark), uint32(members)
	if object {
		n.bits |= objectBit
	}
	if object && r == pathMap {
		n.bits |= pathsBit
	}
	n.sum = sum.Sum64()
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

// member is the value of node's member key: a node, -1 for any other or
// none. Of a key written twice, the last (memberKid).
func (t *tree) member(node int32, key []byte) int32 {
	if k, ok := t.memberKid(node, key); ok && k.node >= 0 {
		return k.node
	}
	return -1
}

// memberKid is node's member key, the last of a key written twice, as
// the library reads it; of an object with many, found in its members
// sorted by key. Of its members only those the tree holds: an object or
// a list written before a value of the same key wins over it, which costs
// the walk more, never less.
func (t *tree) memberKid(node int32, key []byte) (tkid, bool) {
	n := t.nodes[node]
	kids := t.kids[n.first : n.first+n.n]
	if n.n <= 16 {
		var found tkid
		ok := false
		for _, k := range kids {
			if bytes.Equal(t.key(k), key) {
				found, ok = k, true
			}
		}
		return found, ok
	}
	sorted, ok := t.byKey[node]
	if !ok {
		sorted = make([]int32, n.n)
		for i := range sorted {
			sorted[i] = int32(i)
		}
		slices.SortStableFunc(sorted, func(a, b int32) int { return bytes.Compare(t.key(kids[a]), t.key(kids[b])) })
		t.byKey[node] = sorted
	}
	// The last of the key: before the first greater.
	i, _ := slices.BinarySearchFunc(sorted, key, func(a int32, key []byte) int {
		if bytes.Compare(t.key(kids[a]), key) <= 0 {
			return -1
		}
		return 1
	})
	if i == 0 || !bytes.Equal(t.key(kids[sorted[i-1]]), key) {
		return tkid{}, false
	}
	return kids[sorted[i-1]], true
}

// str is the string node's member key holds, and whether it holds one (a
// parameter's "in" and "name" only).
func (t *tree) str(node int32, key string) (string, bool) {
	if k, ok := t.memberKid(node, []byte(key)); ok && k.node <= -2 {
		return t.stringAt(int(-2 - k.node))
	}
	return "", false
}

// at is the node that the tokens name from node, -1 for none.
func (t *tree) at(node int32, toks []string) int32 {
	for _, tok := range toks {
		if node < 0 {
			return -1
		}
		n := t.nodes[node]
		if n.object() {
			node = t.member(node, []byte(tok))
			continue
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= int(n.members()) {
			return -1
		}
		kids := t.kids[n.first : n.first+n.n]
		j, found := slices.BinarySearchFunc(kids, int32(i), func(k tkid, i int32) int { return cmp.Compare(k.key, i) })
		if !found {
			return -1
		}
		node = kids[j].node
	}
	return node
}

// resolved is node with its $refs followed, however many lead one to
// another, to an object or an array of this document; -1 where they lead
// nowhere (a cycle of $refs, a place that is not there).
func (t *tree) resolved(node int32) int32 {
	if node < 0 || !t.nodes[node].hasRef() {
		return node
	}
	// The references on the way, each resolved as the last is.
	var chain []string
	for node >= 0 && t.nodes[node].hasRef() {
		ref := t.refText(node)
		if target, ok := t.targets[ref]; ok {
			node = target
			break
		}
		t.targets[ref] = -1 // on the way: a cycle leads nowhere
		chain = append(chain, ref)
		node = t.target(ref)
	}
	for _, ref := range chain {
		t.targets[ref] = node
	}
	return node
}

// target is the node a local reference names, -1 for none: in a unit, or
// in a document-level part.
func (t *tree) target(ref string) int32 {
	if !strings.HasPrefix(ref, "#/") {
		return -1 // another document's: bundling left none
	}
	if k, ok, _ := refUnit(ref, t.doc.swagger); ok {
		_, toks, _ := refTokens(ref)
		return t.at(t.unit(k), toks[strings.Count(k.sec, "/")+2:])
	}
	_, toks, ok := refTokens(ref)
	if !ok {
		return -1
	}
	key, rest := toks[0], toks[1:]
	if key == "components" && len(toks) > 1 {
		key, rest = "components/"+toks[1], toks[2:]
	}
	return t.at(t.part(key), rest)
}
