package openapi

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"runtime"

	"go.yaml.in/yaml/v3"
)

// A large YAML description is parsed in parts, on every core, each part
// converted and let go of as soon as it is parsed: its top-level entries,
// and the entries of a large one (paths, components and their sections,
// the schemas) one by one.
// The YAML library reads whole documents only, so each part is a document
// of its own, and what holds between parts (the top level's keys, an alias
// to an anchor in another part) is checked here or makes a part fail. Any
// doubt, any error, and the description is parsed whole, as before, which
// says what is wrong: both give the same tree.

// partsFrom is the size from which a description is parsed in parts.
const partsFrom = 1 << 20

// bigEntry is the size from which an entry is parsed entry by entry.
const bigEntry = 256 << 10

// yamlPart is a span of lines parsed as a document of its own: an entry
// of a mapping, or the key of one whose entries come as parts of their
// own (open), until a part that closes it.
type yamlPart struct {
	text  []byte
	line  int // the line of data it starts at, 0-based
	open  bool
	close bool
	// seq: an open part whose value is a block sequence, given in parts
	// of items (items).
	seq   bool
	items bool
	doc   *yaml.Node
	err   error
}

// keyLine matches a line that starts a mapping entry with a key this split
// understands: plain (without the characters that start something else),
// or quoted without escapes. The key is group 2; what follows the colon,
// group 3.
var keyLine = regexp.MustCompile(`^( *)("[^"\\]*"|'[^']*'|[^\s#'"\-?:,\[\]{}&*!|>%@` + "`" + `<][^\n]*?):( [^\n]*)?$`)

// maxPartLevels bounds how deep the split goes: paths, then components and
// their sections, then the schemas.
const maxPartLevels = 3

// splitParts cuts data into parts, or says it cannot: a part for each
// top-level entry, and for each entry of an entry from big bytes whose
// value is a block mapping, level by level.
func splitParts(data []byte, big int) ([]*yamlPart, bool) {
	if len(data) == 0 || data[0] == ' ' || otherBreaks(data) || !splittable(data) {
		return nil, false
	}
	lines := newLineTable(data)
	var parts []*yamlPart
	if !splitMapping(lines, 0, lines.n(), 0, big, 0, &parts) {
		return nil, false
	}
	return parts, true
}

// lineTable is data's lines, by where each starts: four bytes a line, where
// a slice of each would take 24, six times a list of short items ("- a").
type lineTable struct {
	data   []byte
	starts []int32 // and len(data), last
}

// newLineTable indexes the lines of data, which splittable keeps under
// 2 GiB (a file is at most FileBytes).
func newLineTable(data []byte) lineTable {
	starts := make([]int32, 1, bytes.Count(data, []byte("\n"))+2)
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, int32(off))
	}
	if int(starts[len(starts)-1]) != len(data) {
		starts = append(starts, int32(len(data)))
	}
	return lineTable{data, starts}
}

// n is the number of lines.
func (lt lineTable) n() int { return len(lt.starts) - 1 }

// line is line i, with its line break.
func (lt lineTable) line(i int) []byte { return lt.data[lt.starts[i]:lt.starts[i+1]] }

// text is lines a to b, as written: a part's text, which parsing only reads.
func (lt lineTable) text(a, b int) []byte {
	return lt.data[lt.starts[a]:lt.starts[b]:lt.starts[b]]
}

// size is the bytes of lines a to b.
func (lt lineTable) size(a, b int) int { return int(lt.starts[b] - lt.starts[a]) }

// splittable says whether data is worth splitting and safe to: its lines,
// in a file large enough to split, not so many and short that tracking
// them costs more than the parse (a file of empty lines), none so long
// that matching it costs more, and no byte-order mark anywhere (each part
// starts a stream of its own, where the YAML library would take a mark as
// the start of the stream, or read the part as UTF-16).
func splittable(data []byte) bool {
	if len(data) > 1<<31-1 || len(data) >= partsFrom && bytes.Count(data, []byte("\n")) > len(data)/3 {
		return false
	}
	for rest := data; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		if i > maxSplitLine {
			return false
		}
		rest = rest[min(i+1, len(rest)):]
	}
	return !bytes.Contains(data, []byte("\xef\xbb\xbf")) && !bytes.Contains(data, []byte("\xff\xfe")) && !bytes.Contains(data, []byte("\xfe\xff"))
}

// maxSplitLine is the longest line a description that is split may have.
const maxSplitLine = 64 << 10

// otherBreaks reports whether data breaks lines other than with \n or
// \r\n: YAML also breaks them at a lone \r, NEL, LS and PS, which the
// split does not count.
func otherBreaks(data []byte) bool {
	for rest := data; ; {
		i := bytes.IndexByte(rest, '\r')
		if i < 0 {
			break
		}
		if i+1 >= len(rest) || rest[i+1] != '\n' {
			return true
		}
		rest = rest[i+1:]
	}
	return bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029"))
}

// splitMapping cuts lines a to b, a block mapping whose keys are at indent,
// into parts.
func splitMapping(lines lineTable, a, b, indent, big, level int, parts *[]*yamlPart) bool {
	type entry struct{ key, start, end int } // lines
	var entries []entry
	for i := a; i < b; i++ {
		l := bytes.TrimRight(lines.line(i), "\r\n")
		t := bytes.TrimLeft(l, " ")
		n := len(l) - len(t)
		switch {
		case len(t) == 0 || t[0] == '#' || n > indent:
			if len(entries) == 0 && n > indent && len(t) > 0 && t[0] != '#' {
				return false // content before the first key
			}
			continue
		case n < indent:
			return false
		case len(entries) > 0 && isItem(t):
			continue // a list as a value, written at its key's indentation
		}
		if t[0] >= 0x80 || !keyLine.Match(l) || bytes.HasPrefix(t, []byte("<<")) || t[0] == '-' {
			return false // a document marker, a directive, a tab, a list, a flow...
		}
		if len(entries) > 0 {
			entries[len(entries)-1].end = i
		}
		entries = append(entries, entry{key: i, start: i, end: b})
	}
	if len(entries) == 0 {
		return false
	}
	entries[0].start = a // comments before the first key go with it
	for _, e := range entries {
		m := keyLine.FindSubmatch(bytes.TrimRight(lines.line(e.key), "\r\n"))
		rest := bytes.TrimSpace(m[3])
		bare := len(rest) == 0 || rest[0] == '#' // the value starts on the next line
		large := lines.size(e.key+1, e.end) >= big
		if bare && large {
			// A large block sequence: parts of its items, between its
			// key and the part that closes it.
			if items, ok := splitSequence(lines, e.key+1, e.end, indent, big); ok {
				*parts = append(*parts, &yamlPart{text: lines.text(e.start, e.key+1), line: e.start, open: true, seq: true})
				*parts = append(*parts, items...)
				*parts = append(*parts, &yamlPart{close: true})
				continue
			}
		}
		inner, ok := firstIndent(lines, e.key+1, e.end)
		if level >= maxPartLevels || !large || !bare || !ok || inner <= indent {
			*parts = append(*parts, &yamlPart{text: lines.text(e.start, e.end), line: e.start})
			continue
		}
		// The entry's value is a block mapping: a part for each of its
		// entries, between its key and the part that closes it.
		*parts = append(*parts, &yamlPart{text: lines.text(e.start, e.key+1), line: e.start, open: true})
		if !splitMapping(lines, e.key+1, e.end, inner, big, level+1, parts) {
			return false
		}
		*parts = append(*parts, &yamlPart{close: true})
	}
	return true
}

// isItem says whether t, a line without its indentation, starts an item
// of a block sequence.
func isItem(t []byte) bool {
	return bytes.HasPrefix(t, []byte("- ")) || bytes.Equal(t, []byte("-"))
}

// itemsPart is how many bytes of a large block sequence's items go in one
// part, for an entry of size big: parsed whole, a list of nine million
// short items takes the YAML library gigabytes.
func itemsPart(big int) int { return big / 4 }

// splitSequence cuts lines a to b, the value of a key at keyIndent, into
// parts of whole items when it is a block sequence: each part a sequence
// of its own, its items at the indentation of the first, nothing in it
// indented less.
func splitSequence(lines lineTable, a, b, keyIndent, big int) ([]*yamlPart, bool) {
	seq := -1 // the items' indentation
	var parts []*yamlPart
	start, count := a, 0 // the part under way starts at start; items so far
	for i := a; i < b; i++ {
		l := bytes.TrimRight(lines.line(i), "\r\n")
		t := bytes.TrimLeft(l, " ")
		n := len(l) - len(t)
		switch {
		case len(t) == 0 || t[0] == '#':
			continue
		case seq < 0:
			if n < keyIndent || !isItem(t) {
				return nil, false // not a block sequence
			}
			seq = n
		case n < seq:
			return nil, false
		case n > seq:
			continue // within an item
		case !isItem(t):
			return nil, false
		}
		if count > 0 && lines.size(start, i) >= itemsPart(big) {
			parts = append(parts, &yamlPart{text: lines.text(start, i), line: start, items: true})
			start = i
		}
		count++
	}
	if seq < 0 {
		return nil, false
	}
	parts = append(parts, &yamlPart{text: lines.text(start, b), line: start, items: true})
	return parts, true
}

// firstIndent is the indentation of the first line of lines a to b that
// says something, if it starts a mapping entry.
func firstIndent(lines lineTable, a, b int) (int, bool) {
	for i := a; i < b; i++ {
		l := bytes.TrimRight(lines.line(i), "\r\n")
		t := bytes.TrimLeft(l, " ")
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		return len(l) - len(t), t[0] != '-' && keyLine.Match(l)
	}
	return 0, false
}

// parseInParts parses data in parts and converts them into one tree, or
// says it cannot (ok false): then nothing of the budget was spent. Data
// smaller than from is not worth it.
func (c *yamlConverter) parseInParts(data []byte, from, big int) (root *Node, ok bool, err error) {
	if len(data) < from || c.lim.Depth < 4 {
		return nil, false, nil
	}
	parts, split := splitParts(data, big)
	if !split {
		return nil, false, nil
	}
	before := *c.bud
	root, err = c.convertParts(parts)
	if err != nil {
		*c.bud = before
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, true, err
		}
		return nil, false, nil
	}
	return root, true, nil
}

// errPartsDisagree is a part that does not fit the whole: a key twice, a
// part that is not one mapping.
var errPartsDisagree = errors.New("the parts do not make one mapping")

// convertParts parses the parts, a few at a time on every core, and
// converts them in order as the whole document would be.
func (c *yamlConverter) convertParts(parts []*yamlPart) (*Node, error) {
	workers := max(1, min(runtime.GOMAXPROCS(0), 4))
	ready := make([]chan struct{}, len(parts))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	// At most workers parts parsed ahead of the conversion: what is
	// parsed waits, whole, until it is converted.
	ahead := make(chan struct{}, workers+1)
	stop := make(chan struct{})
	defer close(stop)
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range parts {
			if parts[i].close {
				continue // nothing to parse
			}
			select {
			case ahead <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for i := range next {
				p := parts[i]
				p.doc, p.err = parsePart(p.text)
				p.text = nil
				close(ready[i])
			}
		}()
	}
	take := func(i int) (*yaml.Node, error) {
		<-ready[i]
		<-ahead
		p := parts[i]
		doc, err := p.doc, p.err
		p.doc = nil
		if err != nil {
			return nil, err
		}
		want := yaml.MappingNode
		if p.items {
			want = yaml.SequenceNode
		}
		if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != want || doc.Content[0].Anchor != "" || doc.Content[0].Tag != "!!seq" && want == yaml.SequenceNode {
			return nil, errPartsDisagree
		}
		return doc.Content[0], nil
	}

	// The mappings open, the document's top first: each node is made at
	// its first entry, where the whole parse would meet it.
	type level struct {
		node  *Node
		keys  map[string]bool
		seq   bool  // a block sequence given in parts of items
		items *list // its items
	}
	var open []*level
	var top *Node
	for i, p := range parts {
		if p.close {
			if len(open) < 2 || open[len(open)-1].node == nil {
				return nil, errPartsDisagree
			}
			if l := open[len(open)-1]; l.items != nil {
				l.items.done(l.node, packFrom)
			}
			open = open[:len(open)-1]
			continue
		}
		m, err := take(i)
		if err != nil {
			return nil, err
		}
		c.lineOffset = p.line
		if top == nil {
			// The document and its top mapping, as convert counts them.
			for range 2 {
				if err := c.grow(m, ""); err != nil {
					return nil, err
				}
			}
			top = c.newNode(Object, m)
			open = append(open, &level{node: top, keys: map[string]bool{}})
		}
		cur := open[len(open)-1]
		depth := len(open) + 1 // the depth convert would be at in cur
		if cur.seq != p.items {
			return nil, errPartsDisagree
		}
		if p.items {
			if err := c.items(cur.node == nil, open[len(open)-2].node, &cur.node, &cur.items, m, depth); err != nil {
				return nil, err
			}
			continue
		}
		if cur.node == nil {
			// The first entry of a mapping given in parts: the mapping
			// starts here, and counts as a value.
			c.depth = depth - 1
			if err := c.grow(m, ""); err != nil {
				return nil, err
			}
			if c.tooDeep(depth) {
				return nil, errPartsDisagree
			}
			cur.node = c.newNode(Object, m)
			parent := open[len(open)-2].node
			parent.Fields()[len(parent.Fields())-1].Value = cur.node
		}
		if p.open {
			if len(m.Content) != 2 || m.Content[1].Kind != yaml.ScalarNode || m.Content[1].Tag != "!!null" || m.Content[1].Value != "" {
				return nil, errPartsDisagree
			}
		}
		for j := 0; j+1 < len(m.Content); j += 2 {
			k, v := m.Content[j], m.Content[j+1]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				return nil, errPartsDisagree
			}
			key, err := c.key(k)
			if err != nil {
				return nil, err
			}
			if err := c.grow(k, key); err != nil {
				return nil, err
			}
			if cur.keys[key] {
				return nil, errPartsDisagree
			}
			cur.keys[key] = true
			if p.open {
				cur.node.SetFields(append(cur.node.Fields(), Field{Key: key, KeyPos: c.pos(k)}))
				open = append(open, &level{keys: map[string]bool{}, seq: p.seq})
				break
			}
			c.depth = depth
			val, err := c.convert(v)
			if err != nil {
				return nil, err
			}
			cur.node.SetFields(append(cur.node.Fields(), Field{Key: key, KeyPos: c.pos(k), Value: val}))
			m.Content[j+1] = nil
		}
	}
	if len(open) != 1 || top == nil {
		return nil, errPartsDisagree
	}
	return top, nil
}

// items converts a part of a block sequence's items, m, into *l, which
// the first part starts (first), with *seq as the value of parent's last
// member: the sequence starts at its first item, as the whole parse has
// it, and counts as a value at depth-1. The items are packed as the whole
// parse packs them (list), and given to *seq when its last part is read.
func (c *yamlConverter) items(first bool, parent *Node, seq **Node, l **list, m *yaml.Node, depth int) error {
	if first {
		c.depth = depth - 1
		if err := c.grow(m, ""); err != nil {
			return err
		}
		if c.tooDeep(depth) {
			return errPartsDisagree
		}
		*seq = c.newNode(Array, m)
		parent.Fields()[len(parent.Fields())-1].Value = *seq
		*l = &list{}
		(*l).begin((*seq).Pos)
	}
	for i, y := range m.Content {
		c.depth = depth // the items' depth, less one, as convert counts
		it, err := c.pendingItem(y)
		if err != nil {
			return err
		}
		(*l).put(c, it)
		c.release(m, i)
	}
	return nil
}

// parsePart parses one part, which must be one document.
func parsePart(text []byte) (*yaml.Node, error) {
	doc, extra, err := decodeDocument(text)
	if err == nil && extra != nil {
		err = errPartsDisagree
	}
	return doc, err
}
