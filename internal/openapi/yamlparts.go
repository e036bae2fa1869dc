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
// and the entries of a large one (paths, components' sections) one by one.
// The YAML library reads whole documents only, so each part is a document
// of its own, and what holds between parts (the top level's keys, an alias
// to an anchor in another part) is checked here or makes a part fail. Any
// doubt, any error, and the description is parsed whole, as before, which
// says what is wrong: both give the same tree.

// partsFrom is the size from which a description is parsed in parts.
const partsFrom = 1 << 20

// bigEntry is the size from which a top-level entry is parsed entry by
// entry.
const bigEntry = 256 << 10

// yamlPart is a span of lines parsed as a document of its own.
type yamlPart struct {
	text  []byte
	line  int  // the line of data it starts at, 0-based
	split bool // the key line of a top-level entry parsed in parts
	last  bool // the last part of its top-level entry
	doc   *yaml.Node
	err   error
}

// keyLine matches a line that starts a mapping entry with a key this split
// understands: plain (without the characters that start something else),
// or quoted without escapes. The key is group 2; what follows the colon,
// group 3.
var keyLine = regexp.MustCompile(`^( *)("[^"\\]*"|'[^']*'|[^\s#'"\-?:,\[\]{}&*!|>%@` + "`" + `<][^\n]*?):( [^\n]*)?$`)

// splitParts cuts data into parts, or says it cannot: a part for each
// top-level entry, and for each entry of a top-level entry from big bytes.
func splitParts(data []byte, big int) ([]*yamlPart, bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	type entry struct{ key, start, end int } // lines
	var entries []entry
	for i, l := range lines {
		if len(l) == 0 || l[0] == ' ' || l[0] == '\n' || l[0] == '\r' || l[0] == '#' {
			continue
		}
		if len(entries) > 0 && (bytes.HasPrefix(l, []byte("- ")) || bytes.Equal(bytes.TrimRight(l, "\r\n"), []byte("-"))) {
			continue // a list as a top-level value, written at the key's indentation
		}
		if !keyLine.Match(bytes.TrimRight(l, "\r\n")) || bytes.HasPrefix(l, []byte("<<")) {
			return nil, false // a document marker, a directive, a tab, a list, a flow...
		}
		if len(entries) > 0 {
			entries[len(entries)-1].end = i
		}
		entries = append(entries, entry{key: i, start: i, end: len(lines)})
	}
	if len(entries) == 0 || bytes.HasPrefix(data, []byte{' '}) {
		return nil, false
	}
	entries[0].start = 0 // comments before the first key go with it
	var parts []*yamlPart
	text := func(a, b int) []byte { return bytes.Join(lines[a:b], nil) }
	for _, e := range entries {
		m := keyLine.FindSubmatch(bytes.TrimRight(lines[e.key], "\r\n"))
		body := text(e.key+1, e.end)
		rest := bytes.TrimSpace(m[3])
		if len(body) < big || len(rest) > 0 && rest[0] != '#' || !startsMapping(lines[e.key+1:e.end]) {
			parts = append(parts, &yamlPart{text: text(e.start, e.end), line: e.start, last: true})
			continue
		}
		// The entry's value is a block mapping of keys at one indentation:
		// a part for each.
		parts = append(parts, &yamlPart{text: text(e.start, e.key+1), line: e.start, split: true})
		indent := -1
		from := -1
		for i := e.key + 1; i < e.end; i++ {
			l := bytes.TrimRight(lines[i], "\r\n")
			t := bytes.TrimLeft(l, " ")
			if len(t) == 0 || t[0] == '#' {
				continue
			}
			n := len(l) - len(t)
			if indent < 0 {
				indent = n
			}
			switch {
			case n < indent:
				return nil, false
			case n > indent:
				if from < 0 {
					return nil, false
				}
				continue
			}
			if !keyLine.Match(l) || bytes.HasPrefix(t, []byte("<<")) || t[0] == '-' {
				return nil, false
			}
			if from >= 0 {
				parts = append(parts, &yamlPart{text: text(from, i), line: from})
			}
			from = i
		}
		if from < 0 {
			return nil, false
		}
		parts = append(parts, &yamlPart{text: text(from, e.end), line: from, last: true})
	}
	return parts, true
}

// startsMapping reports whether the first line of a body that says
// something is indented and starts a mapping entry.
func startsMapping(lines [][]byte) bool {
	for _, l := range lines {
		l = bytes.TrimRight(l, "\r\n")
		t := bytes.TrimLeft(l, " ")
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		return len(t) < len(l) && t[0] != '-' && keyLine.Match(l)
	}
	return false
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
		if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
			return nil, errPartsDisagree
		}
		return doc.Content[0], nil
	}

	var top *Node
	var sub *Node               // the top-level value being put together from parts
	var subKeys map[string]bool // its keys
	for i, p := range parts {
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
		}
		into, depth := top, 2
		if sub != nil {
			into, depth = sub, 3
		}
		if p.split {
			if len(m.Content) != 2 || m.Content[1].Kind != yaml.ScalarNode || m.Content[1].Tag != "!!null" || m.Content[1].Value != "" {
				return nil, errPartsDisagree
			}
			k := m.Content[0]
			key, err := c.key(k)
			if err != nil {
				return nil, err
			}
			if err := c.grow(k, key); err != nil {
				return nil, err
			}
			if top.has(key) {
				return nil, errPartsDisagree
			}
			top.Fields = append(top.Fields, Field{Key: key, KeyPos: c.pos(k)})
			continue
		}
		if sub == nil && len(top.Fields) > 0 && top.Fields[len(top.Fields)-1].Value == nil {
			// The first part of a top-level entry's value: the mapping
			// starts at its first key, and counts as a value.
			c.depth = 2
			if err := c.grow(m, ""); err != nil {
				return nil, err
			}
			if c.depth+1 > c.lim.Depth {
				return nil, errPartsDisagree
			}
			sub, subKeys = c.newNode(Object, m), map[string]bool{}
			top.Fields[len(top.Fields)-1].Value = sub
			into, depth = sub, 3
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
			if sub != nil && subKeys[key] || sub == nil && top.has(key) {
				return nil, errPartsDisagree
			}
			if sub != nil {
				subKeys[key] = true
			}
			c.depth = depth
			val, err := c.convert(v)
			if err != nil {
				return nil, err
			}
			into.Fields = append(into.Fields, Field{Key: key, KeyPos: c.pos(k), Value: val})
			m.Content[j+1] = nil
		}
		if p.last {
			sub = nil
		}
	}
	if top == nil || top.Fields[len(top.Fields)-1].Value == nil {
		return nil, errPartsDisagree
	}
	return top, nil
}

// has reports whether an Object has the member key.
func (n *Node) has(key string) bool { return n.field(key) != nil }

// parsePart parses one part, which must be one document.
func parsePart(text []byte) (*yaml.Node, error) {
	doc, extra, err := decodeDocument(text)
	if err == nil && extra != nil {
		err = errPartsDisagree
	}
	return doc, err
}
