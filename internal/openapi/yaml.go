package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxExpandedNodes bounds the values aliases expand to, so that a "billion
// laughs" document fails instead of eating the runner's memory.
const maxExpandedNodes = 1_000_000

func parseYAML(src *Source, data []byte) (*Node, error) {
	name := src.Name
	data, shifts := unescapeSlashes(data)
	plain := yamlConverter{name: name, src: src, lim: src.budget.lim, bud: src.budget, shifts: shifts}
	if root, ok, err := plain.readPlainYAML(data); ok {
		return root, err
	}
	parts := yamlConverter{name: name, src: src, lim: src.budget.lim, bud: src.budget, shifts: shifts}
	if root, ok, err := parts.parseInParts(data, partsFrom, bigEntry); ok {
		return root, err
	}
	data, doc, extra, err := decodeYAML(data)
	if err == io.EOF {
		return nil, &LoadError{File: name, Msg: "is empty: it holds no YAML or JSON document", Err: errEmpty}
	}
	if err != nil {
		return nil, yamlError(name, data, shifts, err)
	}
	if extra != nil {
		return nil, &LoadError{File: name, Pos: pos(extra), Msg: "holds more than one YAML document: keep one description per file"}
	}
	c := yamlConverter{name: name, src: src, lim: src.budget.lim, bud: src.budget, shifts: shifts}
	return c.convert(doc)
}

// decodeYAML reads the one document in data (io.EOF when there is none),
// and the start of a second one if there is one. A block scalar whose
// first line starts with a tab is read as YAML reads it (see
// indentTabbedBlock): data is then returned with its indentation indicator.
func decodeYAML(data []byte) ([]byte, *yaml.Node, *yaml.Node, error) {
	doc, extra, err := decodeDocument(data)
	for budget := maxTabRetryBytes - len(data); err != nil && budget >= 0; budget -= len(data) {
		line, ok := tabInIndentAt(err)
		if !ok {
			break
		}
		fixed, ok := indentTabbedBlock(data, line)
		if !ok {
			break
		}
		d, e, ferr := decodeDocument(fixed)
		if next, again := tabInIndentAt(ferr); again && next <= line {
			break // no further: keep the first error
		}
		data, doc, extra, err = fixed, d, e, ferr
	}
	return data, doc, extra, err
}

func decodeDocument(data []byte) (*yaml.Node, *yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, err
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); err {
	case io.EOF:
		return &doc, nil, nil
	case nil:
		return &doc, &extra, nil
	default:
		return nil, nil, err
	}
}

// tabInIndentAt reports the line of the library's error about a tab in a
// block scalar's indentation. The library's errors are text only.
func tabInIndentAt(err error) (int, bool) {
	if err == nil {
		return 0, false
	}
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil || m[2] != tabInIndent {
		return 0, false
	}
	line, _ := strconv.Atoi(m[1])
	return line, true
}

var (
	yamlLine      = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	unknownAnchor = regexp.MustCompile(`unknown anchor '([^']*)' referenced`)
)

// yamlError is the library's error err about data (as unescapeSlashes
// rewrote it: shifts say where), at its place as written.
func yamlError(name string, data []byte, shifts map[int][]int, err error) error {
	var idx lineIndex // built once a position is asked for
	posAt := func(off int) Pos {
		if idx == nil {
			idx = newLineIndex(data)
		}
		p := idx.pos(int64(max(0, min(off, len(data)))))
		p.Col = int32(writtenCol(shifts, int(p.Line), int(p.Col)))
		return p
	}
	written := func(line, col int) Pos {
		return Pos{Line: int32(line), Col: int32(writtenCol(shifts, line, col))}
	}
	msg := err.Error()
	if p := strings.TrimPrefix(msg, "yaml: "); blockProblems[p] {
		// The library leaves the line out where the problem and the
		// collection are both on the first line.
		msg = "yaml: line 1: " + p
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		tab := line
		if m[2] == tabViolates {
			// The library names the line where the value before the tab
			// starts: the tab is on that line or further down.
			tab = tabLine(data, line)
		}
		if col, ok := tabIndented(data, tab); ok {
			return &LoadError{File: name, Pos: written(tab, col), Msg: "invalid YAML: the line is indented with a tab: YAML indents with spaces only, so replace the tab with spaces"}
		}
		if at, col, ok := breakingLine(data, max(1, line-1), m[2]); ok {
			return &LoadError{File: name, Pos: written(at, col), Msg: "invalid YAML: " + m[2] + ": " + lineAdvice(data, at)}
		}
		if p, advice, ok := placeProblem(data, line, m[2], posAt); ok {
			return &LoadError{File: name, Pos: p, Msg: "invalid YAML: " + m[2] + ": " + advice}
		}
		return &LoadError{File: name, Pos: Pos{Line: int32(errorAt(data, line, m[2])), Col: 1}, Msg: "invalid YAML: " + m[2]}
	}
	if p, advice, ok := placeProblem(data, 0, strings.TrimPrefix(msg, "yaml: "), posAt); ok {
		return &LoadError{File: name, Pos: p, Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ") + ": " + advice}
	}
	// The parser gives no line for an alias without an anchor: find it.
	if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			return &LoadError{File: name, Pos: posAt(i), Msg: fmt.Sprintf("alias *%s refers to no anchor: define &%s before it, or remove the alias", m[1], m[1])}
		}
	}
	return &LoadError{File: name, Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

type yamlConverter struct {
	name      string
	src       *Source
	lim       Limits
	bud       *budget // shared by the description's files
	depth     int
	expanding map[*yaml.Node]bool // anchors being expanded, to catch cycles
	alias     *yaml.Node          // the alias whose expansion is under way
	shifts    map[int][]int       // where \/ became / (see unescapeSlashes)
	nodes     slab
	// kept holds the flow lists packed, apart from the nodes their items
	// were read into first: a block of nodes is let go only when none of
	// its nodes is held.
	kept     slab
	anchored int // anchors the conversion is inside: an alias may convert them again
	// lineOffset is the line of the file that a part parsed on its own
	// starts at, 0-based (see parseInParts).
	lineOffset int
	// counted is how many bytes the reader went through to count the
	// members of large mappings ahead (see countMembers).
	counted int
}

// packFlow packs n, a flow list read whole, where it can be (see
// packFlow), and is the node to keep: n, or a packed copy of it.
func (c *yamlConverter) packFlow(n *Node) *Node {
	if packFlow(n, c.letGo); !n.packed {
		return n
	}
	k := c.kept.node()
	*k = *n
	c.nodes.letGo(n)
	return k
}

// letGo takes back n, an item packed: a packed list to the slab it came
// from (packFlow), anything else to c.nodes.
func (c *yamlConverter) letGo(n *Node) {
	if n.packed {
		c.kept.letGo(n)
		return
	}
	c.nodes.letGo(n)
}

// newNode is a node of kind k written at y.
func (c *yamlConverter) newNode(k Kind, y *yaml.Node) *Node {
	n := c.nodes.node()
	n.Kind, n.Pos, n.Src = k, c.pos(y), c.src
	return n
}

// pos is where y was written, in the file as written.
func (c *yamlConverter) pos(y *yaml.Node) Pos {
	line := y.Line + c.lineOffset
	return Pos{Line: int32(line), Col: int32(writtenCol(c.shifts, line, y.Column))}
}

func (c *yamlConverter) fail(y *yaml.Node, format string, args ...any) error {
	return &LoadError{File: c.name, Pos: c.pos(y), Msg: fmt.Sprintf(format, args...)}
}

func (c *yamlConverter) overLimit(y *yaml.Node, format string, args ...any) error {
	return &LoadError{File: c.name, Pos: c.pos(y), Msg: fmt.Sprintf(format, args...), Err: ErrLimit}
}

// grow counts what an alias expansion adds: a value, and the bytes of its
// text. An alias to a 1 MiB string used 8000 times is a 1 MiB file that
// would become 8 GB of JSON.
func (c *yamlConverter) grow(y *yaml.Node, text string) error {
	if err := c.bud.value(); err != nil {
		if errors.Is(err, ErrLimit) {
			return c.overLimit(y, "%v", err)
		}
		return err
	}
	if len(c.expanding) == 0 {
		return nil
	}
	c.bud.aliased++
	c.bud.expanded += int64(len(text)) + 4 // quotes and separators
	if c.bud.aliased > maxExpandedNodes {
		return c.overLimit(c.alias, "aliases expand to more than %d values (the limit of docs-publish): the document is an alias bomb, or write the values out", maxExpandedNodes)
	}
	if c.bud.expanded > c.lim.ExpandedBytes {
		return c.overLimit(c.alias, "aliases expand to more than %s (the limit of docs-publish for what aliases and inlined $refs may add): write the values out, or use $ref to a shared component", mib(c.lim.ExpandedBytes))
	}
	return nil
}

// tooDeep reports whether a value at depth, as convert counts it, nests
// past Depth. convert counts the document node, at 1, so the root value is
// at 2: level 0, as the JSON parser and the bundler count it.
func (c *yamlConverter) tooDeep(depth int) bool { return depth-2 > c.lim.Depth }

func (c *yamlConverter) convert(y *yaml.Node) (*Node, error) {
	if err := c.grow(y, ""); err != nil {
		return nil, err
	}
	c.depth++
	defer func() { c.depth-- }()
	if y.Anchor != "" {
		c.anchored++
		defer func() { c.anchored-- }()
	}
	if c.tooDeep(c.depth) {
		return nil, c.overLimit(y, "nests deeper than %d levels (the limit of docs-publish): refer to shared components rather than nesting", c.lim.Depth)
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return nil, c.fail(y, "is empty")
		}
		top := y.Content[0]
		c.release(y, 0)
		return c.convert(top)
	case yaml.AliasNode:
		if y.Alias == nil {
			return nil, c.fail(y, "alias *%s refers to no anchor", y.Value)
		}
		if c.expanding[y.Alias] {
			return nil, c.fail(y, "alias *%s is used inside its own anchor's value: JSON cannot hold a value that contains itself", y.Value)
		}
		if c.expanding == nil {
			c.expanding = map[*yaml.Node]bool{}
		}
		if len(c.expanding) == 0 {
			c.alias = y // limits point at the alias, not at its anchor
		}
		c.expanding[y.Alias] = true
		n, err := c.convert(y.Alias)
		delete(c.expanding, y.Alias)
		return n, err
	case yaml.ScalarNode:
		return c.scalar(y)
	case yaml.SequenceNode:
		n := c.newNode(Array, y)
		// Packed as the reader packs (list.done, packFlow): a long list,
		// or a flow list however short.
		flow := y.Style&yaml.FlowStyle != 0
		if (len(y.Content) >= packFrom || flow && len(y.Content) > 0) && c.packable(y.Content) {
			var p packer
			p.startAt(n.Pos)
			if err := c.packItems(&p, y, y.Content); err != nil {
				return nil, err
			}
			p.done(n)
			return n, nil
		}
		// The others as the reader reads them (list): packed as read
		// while they can be.
		var l list
		l.begin(n.Pos)
		l.flow = flow
		for i, it := range y.Content {
			p, err := c.pendingItem(it)
			if err != nil {
				return nil, err
			}
			l.put(c, p)
			c.release(y, i)
		}
		if flow {
			l.done(n, 1)
			return c.packFlow(n), nil
		}
		l.done(n, packFrom)
		return n, nil
	case yaml.MappingNode:
		return c.mapping(y)
	}
	return nil, c.fail(y, "unsupported YAML node")
}

// release lets the YAML library's node y.Content[i] go once converted, so
// that the two trees are not both whole at once. A node an alias names
// stays, held by the alias; no node is changed, only let go of.
func (c *yamlConverter) release(y *yaml.Node, i int) {
	if len(c.expanding) == 0 && c.anchored == 0 {
		y.Content[i] = nil
	}
}

func (c *yamlConverter) mapping(y *yaml.Node) (*Node, error) {
	n := c.newNode(Object, y)
	n.SetFields(make([]Field, 0, len(y.Content)/2))
	var seen map[string]int // by key, for large mappings; small ones are looked through
	if len(y.Content) > 2*16 {
		seen = make(map[string]int, len(y.Content)/2)
	}
	has := func(key string) bool {
		if seen != nil {
			_, ok := seen[key]
			return ok
		}
		return slices.ContainsFunc(n.Fields(), func(f Field) bool { return f.Key == key })
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, err := c.key(k)
		if err != nil {
			return nil, err
		}
		if err := c.grow(k, key); err != nil {
			return nil, err
		}
		if has(key) {
			return nil, c.duplicate(k, c.firstKey(y, i, key), key)
		}
		if seen != nil {
			seen[key] = len(n.Fields())
		}
		val, err := c.convert(v)
		if err != nil {
			return nil, err
		}
		n.SetFields(append(n.Fields(), Field{Key: key, KeyPos: c.pos(k), Value: val}))
		c.release(y, i+1)
	}
	// Merge keys (<<): explicit keys win, then earlier merged maps over later.
	for _, m := range merges {
		sources := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			sources = m.Content
		}
		for _, src := range sources {
			val, err := c.convert(src)
			if err != nil {
				return nil, err
			}
			if val.Kind != Object {
				return nil, c.fail(src, "a merge key (<<) needs a mapping or a list of mappings, not a %s", val.Kind)
			}
			for _, f := range val.Fields() {
				if !has(f.Key) {
					if seen != nil {
						seen[f.Key] = len(n.Fields())
					}
					n.SetFields(append(n.Fields(), f))
				}
			}
		}
	}
	return n, nil
}

// firstKey is the key node before index i of mapping y that reads as key:
// the first of two, for the error that names both.
func (c *yamlConverter) firstKey(y *yaml.Node, i int, key string) *yaml.Node {
	for j := 0; j < i; j += 2 {
		if k := y.Content[j]; k != nil && !(k.Kind == yaml.ScalarNode && k.Tag == "!!merge") {
			if kk, err := c.key(k); err == nil && kk == key {
				return k
			}
		}
	}
	return y.Content[i]
}

// duplicate is the error for a key k that reads as key, as first did. Two
// keys written alike are a repeated key; two written differently (+1: and
// 1.0:) read as the same text, as the service reads them, which would keep
// the last one and silently drop the other.
func (c *yamlConverter) duplicate(k, first *yaml.Node, key string) error {
	if first.Value == k.Value && first.Style == k.Style {
		return c.fail(k, "duplicate key %q (first at line %d): each key may appear once in a mapping", key, first.Line+c.lineOffset)
	}
	return c.fail(k, "key %s reads as %q, as does the key %s at line %d: each key may appear once in a mapping; rename or remove one", written(k), key, written(first), first.Line+c.lineOffset)
}

// written is a scalar key as it was written, quotes included.
func written(k *yaml.Node) string {
	switch k.Style {
	case yaml.DoubleQuotedStyle:
		return strconv.Quote(k.Value)
	case yaml.SingleQuotedStyle:
		return "'" + strings.ReplaceAll(k.Value, "'", "''") + "'"
	}
	return k.Value
}

func (c *yamlConverter) key(k *yaml.Node) (string, error) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", c.fail(k, "a mapping key must be a plain value, not a %s", kindName(k.Kind))
	}
	// Every key is text in JSON: 200: becomes "200", true: becomes "true",
	// and a plain key is the text of the value it reads as (0x1F: is "31").
	if k.Style == 0 {
		return plainKey(k.Value), nil
	}
	return k.Value, nil
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	}
	return "complex value"
}

func (c *yamlConverter) scalar(y *yaml.Node) (*Node, error) {
	if err := c.grow(y, y.Value); err != nil {
		return nil, err
	}
	pos := c.pos(y)
	if y.Style == 0 { // plain and untagged: as the service reads it
		kind, lit, err := plainScalar(y.Value)
		if err != nil {
			return nil, c.fail(y, "%v", err)
		}
		n := c.newNode(kind, y)
		n.SetScalar(lit)
		return n, nil
	}
	// Quoted, block, or explicitly tagged: the tag decides.
	switch y.ShortTag() {
	case "!!null":
		return scalarAt(Null, "null", pos, c.src), nil
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(y.Value))
		if err != nil {
			return scalarAt(String, y.Value, pos, c.src), nil
		}
		return scalarAt(Bool, strconv.FormatBool(b), pos, c.src), nil
	case "!!int":
		lit, err := intLiteral(y.Value)
		if err != nil {
			return nil, c.fail(y, "%v", err)
		}
		return scalarAt(Number, lit, pos, c.src), nil
	case "!!float":
		lit, err := floatLiteral(y.Value)
		if err != nil {
			return nil, c.fail(y, "%v", err)
		}
		return scalarAt(Number, lit, pos, c.src), nil
	}
	// !!str, !!timestamp, !!binary and custom tags: the text as written.
	n := c.newNode(String, y)
	n.SetScalar(y.Value)
	return n, nil
}

// intLiteral writes a YAML integer (0x1f, 0o17, 1_000, +5) as a decimal JSON
// literal, exact at any size.
func intLiteral(s string) (string, error) {
	t := strings.TrimPrefix(s, "+")
	if jsonNumber.MatchString(t) {
		return t, checkRange(s, t)
	}
	neg, digits, base, ok := scanInt(strings.Replace(t, "0o", "0", 1))
	if !ok {
		return "", fmt.Errorf("%s is not an integer JSON can hold: quote it to keep it as text", scalarQuoted(s))
	}
	return intJSON(s, neg, digits, base)
}

// floatLiteral keeps a float's literal (1.0 stays 1.0) when JSON allows it,
// and rewrites YAML-only forms (.5, 1., +2.5, 1_000.5).
func floatLiteral(s string) (string, error) {
	low := strings.ToLower(strings.TrimLeft(s, "+-"))
	if low == ".inf" || low == ".nan" {
		return "", fmt.Errorf("%s has no JSON form: quote it to keep it as text, or remove it", s)
	}
	t := strings.TrimPrefix(strings.ReplaceAll(s, "_", ""), "+")
	if jsonNumber.MatchString(t) {
		return t, checkRange(s, t)
	}
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	mant, exp, _ := strings.Cut(strings.ToLower(t), "e")
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if strings.HasSuffix(mant, ".") {
		mant += "0"
	}
	out := mant
	if exp != "" {
		out += "e" + exp
	}
	if neg {
		out = "-" + out
	}
	if !jsonNumber.MatchString(out) {
		return "", errors.New(scalarShown(s) + " is not a number JSON can hold: quote it to keep it as text")
	}
	return out, checkRange(s, out)
}

func pos(y *yaml.Node) Pos { return Pos{Line: int32(y.Line), Col: int32(y.Column)} }

// tabViolates is the library's message for a tab in the indentation of a
// block collection's line.
const tabViolates = "found a tab character that violates indentation"

// tabLine is the first line from 1-based line n on whose indentation holds
// a tab, or n when there is none.
func tabLine(data []byte, n int) int {
	for k, off := n, lineStart(data, n); off < len(data); k++ {
		if _, ok := tabAt(data, off); ok {
			return k
		}
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return n
}

// tabIndented is the column of a tab in the indentation of 1-based line
// n of data, when there is one: the parser's own words for it ("found
// character that cannot start any token") do not say so.
func tabIndented(data []byte, n int) (int, bool) {
	return tabAt(data, lineStart(data, n))
}

// tabAt is the column of a tab in the indentation of the line that starts
// at offset start of data, when there is one.
func tabAt(data []byte, start int) (int, bool) {
	for i := start; i < len(data) && data[i] != '\n'; i++ {
		switch data[i] {
		case ' ':
			continue
		case '\t':
			return i - start + 1, true
		}
		return 0, false
	}
	return 0, false
}
