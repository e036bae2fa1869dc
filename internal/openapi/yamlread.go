package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The YAML library holds a whole document as its own nodes, about 150
// bytes each, before a node of ours is made: a flow list of a million
// ones, `[1,1,…]`, took 117 bytes of memory a byte of input. Most
// descriptions are written in a plain part of YAML: block mappings and
// sequences, flow collections on one line, scalars on one line (plain,
// or quoted), literal and folded block scalars. That part is read here
// straight into our nodes, in one pass, a long list of plain scalars
// packed as it is read. An entry of a block mapping, or an item of a
// block sequence, written otherwise (an anchor, an alias, a tag, a
// scalar or a flow collection over several lines,
// an empty value, a key twice inside it) is given to
// the library on its own lines, which start where the entry's key or the
// item's dash starts its line: the library's tree is then that entry's,
// or a part of items', not the document's. What cannot be cut so (an
// alias to an anchor in another entry, a merge key, a document marker, a
// line broken otherwise than by \n, what the library refuses) and the
// whole document is given to the library as before, which reads all of
// YAML and words its errors. Both give the same tree, which tests check.

// errUnread is YAML outside the part read here.
var errUnread = errors.New("outside the YAML read without the library")

// errRefused is an entry or items that the library, given their lines on
// their own, did not read as the reader needs. The mappings and lists
// around them do not give the library their own lines in turn (each
// would read the same text again, a nesting's depth times): the whole
// document goes to the library.
var errRefused = fmt.Errorf("%w: the library read a part otherwise", errUnread)

// maxSimpleKey is the longest implicit key read here: the YAML library
// takes no implicit key of more than 1024 characters.
const maxSimpleKey = 1000

// yamlReader reads the plain part of YAML into nodes.
type yamlReader struct {
	c *yamlConverter
	d []byte
	i int // the next byte to read
	// line is the 1-based line of i, which starts at ls.
	line, ls int
	// indent is the indentation of the line next reads, eof whether
	// there is none.
	indent int
	eof    bool
	// The column of offset cOff, on the line at ls, is cCol: columns
	// count characters, as the YAML library counts them.
	cOff, cCol int
	// err is the first value refused (over a limit, a number JSON cannot
	// hold). The library refuses what it cannot parse before it converts
	// anything: the rest is read for that, nothing more is kept, and err
	// is returned only when the whole document is read.
	err     error
	scratch Node // what is read once err is set
}

// readPlainYAML reads data, the library reading the entries and items
// the reader does not (ok), into the tree convert would make of it,
// counting the same values against the limits and refusing what it
// refuses. When it cannot, nothing of the budget is spent.
func (c *yamlConverter) readPlainYAML(data []byte) (root *Node, ok bool, err error) {
	if !readable(data) {
		return nil, false, nil
	}
	before := *c.bud
	r := &yamlReader{c: c, d: data, line: 1, cCol: 1}
	root, err = r.document()
	if err == nil && r.err != nil {
		root, err = nil, r.err
	}
	if errors.Is(err, errUnread) {
		*c.bud = before
		return nil, false, nil
	}
	return root, true, err
}

// readable says whether data holds only what the reader reads: UTF-8,
// lines broken by \n, no control character, no byte-order mark. A tab is
// read in a comment only: an entry with one elsewhere is the library's.
func readable(data []byte) bool {
	for i := 0; i < len(data); {
		b := data[i]
		if b < utf8.RuneSelf {
			if b < ' ' && b != '\n' && b != '\t' || b == 0x7f {
				return false
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError || r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe && r <= 0xffff {
			return false
		}
		i += w
	}
	return true
}

func (r *yamlReader) document() (*Node, error) {
	if err := r.skipBlank(); err != nil {
		return nil, err
	}
	if r.eof {
		return nil, errUnread
	}
	// The document node counts as a value, as convert counts it.
	if err := r.c.bud.value(); err != nil {
		return nil, errUnread
	}
	root, err := r.node(2, -1)
	if err != nil {
		return nil, err
	}
	if !r.eof {
		return nil, errUnread
	}
	return root, nil
}

// col is the 1-based column of offset off, on the current line.
func (r *yamlReader) col(off int) int {
	if r.cOff < r.ls || off < r.cOff {
		r.cOff, r.cCol = r.ls, 1
	}
	for _, b := range r.d[r.cOff:off] {
		if b&0xc0 != 0x80 {
			r.cCol++
		}
	}
	r.cOff = off
	return r.cCol
}

// pos is where offset off of the current line was written.
func (r *yamlReader) pos(off int) Pos {
	return Pos{Line: int32(r.line), Col: int32(writtenCol(r.c.shifts, r.line, r.col(off)))}
}

// at is the byte at i, or 0 past the end.
func (r *yamlReader) at(i int) byte {
	if i < len(r.d) {
		return r.d[i]
	}
	return 0
}

// blank says whether b ends a token: a space, a line break, the end.
func blank(b byte) bool { return b == ' ' || b == '\n' || b == 0 }

// skipBlank moves from the start of a line to the first line that says
// something, and to its first character; eof when there is none.
func (r *yamlReader) skipBlank() error {
	for {
		if r.i >= len(r.d) {
			r.eof = true
			return nil
		}
		j := r.pastSpaces(r.i)
		if j < len(r.d) && r.d[j] != '\n' && r.d[j] != '#' {
			if j == r.i && (bytes.HasPrefix(r.d[j:], []byte("---")) || bytes.HasPrefix(r.d[j:], []byte("..."))) {
				return errUnread // a document's start or end
			}
			r.indent, r.i = j-r.i, j
			return nil
		}
		if r.nextLine(j); r.eof {
			return nil
		}
	}
}

// nextLine moves from j, on the current line, to the start of the next
// line; eof when there is none.
func (r *yamlReader) nextLine(j int) {
	k := bytes.IndexByte(r.d[j:], '\n')
	if k < 0 {
		r.i, r.eof = len(r.d), true
		return
	}
	r.i = j + k + 1
	r.line, r.ls = r.line+1, r.i
}

// pastSpaces is the offset of the first byte from j on that is not a
// space.
func (r *yamlReader) pastSpaces(j int) int {
	for j < len(r.d) && r.d[j] == ' ' {
		j++
	}
	return j
}

// endLine checks that the rest of the line is blank or a comment, and
// moves to the next line that says something.
func (r *yamlReader) endLine() error {
	j := r.pastSpaces(r.i)
	if j < len(r.d) && r.d[j] != '\n' && (r.d[j] != '#' || r.d[j-1] != ' ') {
		return errUnread
	}
	r.nextLine(j)
	return r.skipBlank()
}

// value counts a value at offset off against the limits, as convert
// counts it.
func (r *yamlReader) value(off int) error {
	if r.err != nil {
		return nil
	}
	if err := r.c.bud.value(); err != nil {
		if errors.Is(err, ErrLimit) {
			r.err = &LoadError{File: r.c.name, Pos: r.pos(off), Msg: err.Error(), Err: ErrLimit}
			return nil
		}
		return err
	}
	return nil
}

// scalar counts a scalar at offset off against the limits: twice, as
// convert counts one (a value, and its text).
func (r *yamlReader) scalar(off int) error {
	if err := r.value(off); err != nil {
		return err
	}
	return r.value(off)
}

// refuse records a value at offset off that JSON cannot hold.
func (r *yamlReader) refuse(off int, err error) {
	if r.err == nil {
		r.err = &LoadError{File: r.c.name, Pos: r.pos(off), Msg: err.Error()}
	}
}

// newNode is a node of kind k written at offset off.
func (r *yamlReader) newNode(k Kind, off int) *Node {
	if r.err != nil {
		r.scratch = Node{}
		return &r.scratch
	}
	n := r.c.nodes.node()
	n.Kind, n.Pos, n.Src = k, r.pos(off), r.c.src
	return n
}

// node reads the block node at r.i, at the depth convert counts, whose
// lines end where a line is indented parent or less.
func (r *yamlReader) node(depth, parent int) (*Node, error) {
	if r.c.tooDeep(depth) {
		return nil, errUnread
	}
	if r.at(r.i) == '-' && blank(r.at(r.i+1)) {
		return r.sequence(depth, r.col(r.i)-1)
	}
	if _, _, _, ok := r.key(r.i, false); ok {
		return r.mapping(depth, r.col(r.i)-1)
	}
	n, err := r.inline(depth, false)
	if err != nil {
		return nil, err
	}
	if err := r.endLine(); err != nil {
		return nil, err
	}
	if !r.eof && r.indent > parent {
		return nil, errUnread // a scalar over several lines, or worse
	}
	return n, nil
}

// toLibrary says whether the entry or item that began at m, which the
// reader left with err, goes to the library on its own lines, and if so
// steps back to m: when the reader did not read it, unless the library
// already read a part of it otherwise, and when it begins its line.
func (r *yamlReader) toLibrary(err error, m mark, indent int) bool {
	if !errors.Is(err, errUnread) || errors.Is(err, errRefused) || !m.first(indent) {
		return false
	}
	r.reset(m)
	return true
}

// refused is err, the library's reading of an entry or items, as
// errRefused when the library did not read them as the reader needs.
func refused(err error) error {
	if errors.Is(err, errUnread) {
		return errRefused
	}
	return err
}

// mapping reads a block mapping whose keys are at column indent (0-based),
// the first at r.i.
func (r *yamlReader) mapping(depth, indent int) (*Node, error) {
	if r.c.tooDeep(depth) {
		return nil, errUnread
	}
	if err := r.value(r.i); err != nil {
		return nil, err
	}
	n := r.newNode(Object, r.i)
	for {
		if r.col(r.i)-1 != indent {
			return nil, errUnread
		}
		m := r.mark()
		f, err := r.entry(n, depth, indent)
		if r.toLibrary(err, m, indent) {
			// The YAML library reads the entry, its lines on their own.
			f, err = r.libraryEntry(n, depth, indent)
			err = refused(err)
		}
		if err != nil {
			return nil, err
		}
		if r.err == nil {
			if len(n.Fields()) == countFrom {
				growFields(n, 1+r.countMembers(r.ls, indent, false))
			}
			n.SetFields(append(n.Fields(), f))
		}
		if r.eof || r.indent < indent {
			break
		}
		if r.indent > indent {
			return nil, errUnread
		}
	}
	if hasDuplicate(n.Fields()) {
		return nil, errUnread // the library words the error
	}
	fitFields(n)
	return n, nil
}

// entry reads an entry of the block mapping n, at r.i.
func (r *yamlReader) entry(n *Node, depth, indent int) (Field, error) {
	text, plain, end, ok := r.key(r.i, false)
	if !ok {
		return Field{}, errUnread
	}
	key := text
	if plain {
		key = plainKey(text)
	}
	if err := r.value(r.i); err != nil {
		return Field{}, err
	}
	if smallDuplicate(n.Fields(), key) {
		return Field{}, errUnread // the library words the error
	}
	f := Field{Key: key, KeyPos: r.pos(r.i)}
	r.i = end
	r.spaces()
	var err error
	if b := r.at(r.i); b == '\n' || b == 0 || b == '#' {
		// The value starts on a line of its own: deeper, or a list at
		// the key's indentation.
		if err := r.endLine(); err != nil {
			return Field{}, err
		}
		switch {
		case r.eof || r.indent < indent:
			return Field{}, errUnread // an empty value
		case r.indent == indent && r.d[r.i] == '-' && blank(r.at(r.i+1)):
			f.Value, err = r.sequence(depth+1, indent)
		case r.indent > indent:
			f.Value, err = r.node(depth+1, indent)
		default:
			return Field{}, errUnread
		}
	} else if b == '|' || b == '>' {
		f.Value, err = r.blockScalar(depth+1, indent)
	} else {
		f.Value, err = r.inline(depth+1, false)
		if err == nil {
			err = r.endLine()
		}
	}
	return f, err
}

// blockScalar reads the literal (|) or folded (>) block scalar whose
// indicator is at r.i, the value of an entry whose key, or an item whose
// dash, is at column parent (0-based), as the YAML library reads it (its scanner's
// yaml_parser_scan_block_scalar), and moves to the next line that says
// something. The library reads what is rarer: an indentation indicator,
// a tab where it wants an indentation space, a first line that says
// something indented less than a blank line before it, or no deeper than
// the key, and a scalar that no line says something in.
func (r *yamlReader) blockScalar(depth, parent int) (*Node, error) {
	if r.c.tooDeep(depth) {
		return nil, errUnread
	}
	off := r.i
	literal := r.d[off] == '|'
	i := off + 1
	chomp := 0 // clip: one line break at the end; strip: none; keep: all
	switch r.at(i) {
	case '-':
		chomp, i = -1, i+1
	case '+':
		chomp, i = 1, i+1
	}
	j := r.pastSpaces(i)
	if b := r.at(j); b != '\n' && (b != '#' || j == i) {
		// An indentation indicator, a tab, text, or a comment with no
		// space before it (which the library takes too).
		return nil, errUnread
	}
	eol := bytes.IndexByte(r.d[j:], '\n')
	if eol < 0 {
		return nil, errUnread
	}
	// The lines after the header: blank ones, then the first that says
	// something, whose indentation is the scalar's.
	p, line := j+eol+1, r.line+1 // the start of a line, and its number
	breaks, most, indent := 0, 0, 0
	for {
		s := r.pastSpaces(p)
		if s == len(r.d) || r.d[s] == '\t' {
			return nil, errUnread
		}
		if r.d[s] != '\n' {
			indent = s - p
			break
		}
		most = max(most, s-p)
		breaks, p, line = breaks+1, s+1, line+1
	}
	if indent <= parent || most > indent {
		return nil, errUnread
	}
	if err := r.scalar(off); err != nil {
		return nil, err
	}
	n := r.newNode(String, off)
	var text []byte
	leadingBreak, leadingBlank := false, false
	for {
		// A line indented indent or more, that says something past its
		// indentation, or holds spaces there.
		c := p + indent
		trailingBlank := r.d[c] == ' ' || r.d[c] == '\t'
		switch {
		case !literal && leadingBreak && !leadingBlank && !trailingBlank:
			// Folded: a line break between two lines is a space, and
			// is dropped before blank lines.
			if breaks == 0 {
				text = append(text, ' ')
			}
		case leadingBreak:
			text = append(text, '\n')
		}
		for ; breaks > 0; breaks-- {
			text = append(text, '\n')
		}
		leadingBlank = trailingBlank
		e := bytes.IndexByte(r.d[c:], '\n')
		if e < 0 {
			text, p, leadingBreak = append(text, r.d[c:]...), len(r.d), false
			break
		}
		text, p, line, leadingBreak = append(text, r.d[c:c+e]...), c+e+1, line+1, true
		// Blank lines, to the next line indented indent that says
		// something, or one indented less, which ends the scalar.
		var s int
		for {
			s = p
			for s < len(r.d) && s-p < indent && r.d[s] == ' ' {
				s++
			}
			if s < len(r.d) && s-p < indent && r.d[s] == '\t' {
				return nil, errUnread // the library's error
			}
			if s == len(r.d) || r.d[s] != '\n' {
				break
			}
			breaks, p, line = breaks+1, s+1, line+1
		}
		if s == len(r.d) || s-p < indent {
			break
		}
	}
	if chomp != -1 && leadingBreak {
		text = append(text, '\n')
	}
	if chomp == 1 {
		for ; breaks > 0; breaks-- {
			text = append(text, '\n')
		}
	}
	n.SetScalar(string(text))
	r.i, r.ls, r.line, r.eof = p, p, line, false
	return n, r.skipBlank()
}

// sequence reads a block sequence whose dashes are at column indent
// (0-based), the first at r.i.
func (r *yamlReader) sequence(depth, indent int) (*Node, error) {
	if r.c.tooDeep(depth) {
		return nil, errUnread
	}
	if err := r.value(r.i); err != nil {
		return nil, err
	}
	n := r.newNode(Array, r.i)
	var l list
	l.begin(n.Pos)
	for {
		m := r.mark()
		it, err := r.item(depth, indent)
		switch {
		case r.toLibrary(err, m, indent):
			// The YAML library reads the item, with those that follow
			// it up to a part's size: one part each would cost more.
			err = refused(r.libraryItems(&l, depth, indent))
		case err == nil:
			r.put(&l, it)
		}
		if err != nil {
			return nil, err
		}
		if r.eof || r.indent < indent || r.d[r.i] != '-' || !blank(r.at(r.i+1)) {
			break
		}
		if r.indent > indent {
			return nil, errUnread
		}
	}
	if r.indent > indent && !r.eof {
		return nil, errUnread
	}
	l.done(n, packFrom)
	return n, nil
}

// item reads the item of a block sequence whose dash is at r.i. Nothing
// of the list is changed before the whole item is read.
func (r *yamlReader) item(depth, indent int) (pending, error) {
	r.i++ // the dash
	r.spaces()
	var m *Node
	var err error
	switch b := r.at(r.i); {
	case b == '\n' || b == 0 || b == '#':
		// On lines of its own.
		if err := r.endLine(); err != nil {
			return pending{}, err
		}
		if r.eof || r.indent <= indent {
			return pending{}, errUnread // an empty item
		}
		m, err = r.node(depth+1, indent)
	case b == '-' && blank(r.at(r.i+1)):
		// A list in a list, its first item on the dash's line.
		m, err = r.sequence(depth+1, r.col(r.i)-1)
	case b == '|' || b == '>':
		m, err = r.blockScalar(depth+1, indent)
	default:
		if _, _, _, ok := r.key(r.i, false); ok {
			m, err = r.mapping(depth+1, r.col(r.i)-1)
			break
		}
		// A value on the dash's line.
		var it pending
		if it, err = r.listItem(depth+1, false); err != nil {
			return pending{}, err
		}
		if err := r.endLine(); err != nil {
			return pending{}, err
		}
		if !r.eof && r.indent > indent {
			return pending{}, errUnread // a scalar over several lines
		}
		return it, nil
	}
	return pending{node: m}, err
}

// pending is a list's item read: a node, or a plain scalar's kind, JSON
// literal and place, to be packed if the list is.
type pending struct {
	node *Node
	kind Kind
	lit  string
	pos  Pos
}

// listItem reads a value at r.i, a plain scalar as such.
func (r *yamlReader) listItem(depth int, flow bool) (pending, error) {
	if r.c.tooDeep(depth) {
		return pending{}, errUnread
	}
	if isPlainStart(r.at(r.i), r.at(r.i+1), flow) {
		off := r.i
		text, ok := r.plain(flow)
		if !ok {
			return pending{}, errUnread
		}
		if err := r.scalar(off); err != nil {
			return pending{}, err
		}
		kind, lit, err := plainScalar(text)
		if err != nil {
			r.refuse(off, err)
		}
		return pending{kind: kind, lit: lit, pos: r.pos(off)}, nil
	}
	m, err := r.inline(depth, flow)
	return pending{node: m}, err
}

// put adds it to l, unless a value was refused: nothing more is kept.
func (r *yamlReader) put(l *list, it pending) {
	if r.err == nil {
		l.put(r.c, it)
	}
}

// list gathers a sequence's items: packed while they can be, as a flow
// list (packable) or a long block list (packableInBlock) is held. Each
// item is packed as it is read, so that the items of a list of a million
// are never nodes all at once.
type list struct {
	start  Pos  // the list's place
	flow   bool // a flow list
	p      packer
	count  int // items packed
	items  []*Node
	unpack bool // an item could not be packed
}

// begin starts the list at, its node's place.
func (l *list) begin(at Pos) {
	l.start = at
	l.p.startAt(at)
}

// put adds an item read by c. An item packed is let go: read by no one
// else.
func (l *list) put(c *yamlConverter, it pending) {
	if it.node == nil {
		if !l.unpack {
			l.p.add(it.kind, it.lit, it.pos)
			l.count++
			return
		}
		it.node = c.nodes.node()
		it.node.Kind, it.node.Pos, it.node.Src = it.kind, it.pos, c.src
		it.node.SetScalar(it.lit)
	}
	if !l.unpack && (l.flow && packable(it.node) || !l.flow && packableInBlock(it.node)) {
		l.p.addNode(it.node)
		l.count++
		c.letGo(it.node)
		return
	}
	if !l.unpack {
		// The items packed so far become nodes.
		l.unpack = true
		if l.count > 0 {
			tmp := Node{Src: c.src, Pos: l.start}
			l.p.done(&tmp)
			tmp.unpack()
			l.items = tmp.Items()
		}
	}
	l.items = append(l.items, it.node)
}

// done gives n the items: packed when they all could be and there are
// from of them or more.
func (l *list) done(n *Node, from int) {
	if l.unpack {
		n.SetItems(l.items)
		return
	}
	l.p.done(n)
	if l.count < from {
		n.unpack()
		if len(n.Items()) == 0 {
			n.SetItems(nil)
		}
	}
}

// inline reads a value written on one line: a flow collection, a quoted
// scalar or a plain one.
func (r *yamlReader) inline(depth int, flow bool) (*Node, error) {
	if r.c.tooDeep(depth) {
		return nil, errUnread
	}
	off := r.i
	switch b := r.at(r.i); b {
	case '[', '{':
		return r.flow(depth)
	case '"', '\'':
		text, ok := r.quoted()
		if !ok {
			return nil, errUnread
		}
		if err := r.scalar(off); err != nil {
			return nil, err
		}
		n := r.newNode(String, off)
		n.SetScalar(text)
		return n, nil
	}
	if !isPlainStart(r.at(r.i), r.at(r.i+1), flow) {
		return nil, errUnread
	}
	text, ok := r.plain(flow)
	if !ok {
		return nil, errUnread
	}
	if err := r.scalar(off); err != nil {
		return nil, err
	}
	kind, lit, err := plainScalar(text)
	if err != nil {
		r.refuse(off, err)
	}
	n := r.newNode(kind, off)
	n.SetScalar(lit)
	return n, nil
}

// isPlainStart says whether b, followed by next, may start a plain scalar
// read here.
func isPlainStart(b, next byte, flow bool) bool {
	switch b {
	case '-':
		return !blank(next) && !(flow && isFlowIndicator(next))
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n', '\t', 0:
		return false
	}
	return true
}

func isFlowIndicator(b byte) bool {
	return b == ',' || b == '[' || b == ']' || b == '{' || b == '}'
}

// plain reads a plain scalar on one line from r.i. In a block, it ends at
// a comment or the line's end, and holds no ": "; in a flow collection,
// at a flow indicator, and holds no colon, no question mark and no
// comment.
func (r *yamlReader) plain(flow bool) (string, bool) {
	start, end := r.i, r.i
	i := r.i
	for ; i < len(r.d); i++ {
		b := r.d[i]
		if b == '\n' {
			break
		}
		// In a flow collection the library ends a plain scalar at a ?
		// too.
		if b == '\t' || b == ':' && (flow || blank(r.at(i+1))) || b == '?' && flow {
			return "", false
		}
		if b == '#' && r.d[i-1] == ' ' {
			if flow {
				return "", false
			}
			break
		}
		if flow && isFlowIndicator(b) {
			break
		}
		if b != ' ' {
			end = i + 1
		}
	}
	r.i = end
	return string(r.d[start:end]), true
}

// key reads the implicit key of a block mapping (or, flow, of a flow
// mapping) at i: its text, whether it is plain, and where what follows
// its colon starts.
func (r *yamlReader) key(i int, flow bool) (text string, plain bool, end int, ok bool) {
	save := r.i
	defer func() { r.i = save }()
	r.i = i
	switch b := r.at(i); {
	case b == '"' || b == '\'':
		text, ok = r.quoted()
		if !ok {
			return "", false, 0, false
		}
	case isPlainStart(b, r.at(i+1), flow):
		j, ok := r.plainKeyEnd(i, flow)
		if !ok {
			return "", false, 0, false
		}
		text = string(bytes.TrimRight(r.d[i:j], " "))
		if text == "<<" {
			return "", false, 0, false // a merge key
		}
		return text, true, j + 1, true
	default:
		return "", false, 0, false
	}
	if r.i-i > maxSimpleKey {
		return "", false, 0, false
	}
	for r.at(r.i) == ' ' {
		r.i++
	}
	if r.at(r.i) != ':' || !blank(r.at(r.i+1)) {
		return "", false, 0, false
	}
	return text, false, r.i + 1, true
}

// plainKeyEnd finds the colon that ends a plain key starting at i.
func (r *yamlReader) plainKeyEnd(i int, flow bool) (int, bool) {
	j := i
	for ; j < len(r.d) && j-i <= maxSimpleKey; j++ {
		c := r.d[j]
		if c == '\n' || c == '\t' || c == '#' && r.d[j-1] == ' ' || flow && isFlowIndicator(c) {
			return 0, false
		}
		if c == ':' && blank(r.at(j+1)) {
			break
		}
		if (c == ':' || c == '?') && flow {
			return 0, false
		}
	}
	return j, r.at(j) == ':' && j-i <= maxSimpleKey
}

// quoted reads a quoted scalar on one line from r.i, with the escapes the
// reader knows.
func (r *yamlReader) quoted() (string, bool) {
	q := r.d[r.i]
	i := r.i + 1
	var b []byte // the text, once it differs from what is written
	start := i
	for ; i < len(r.d); i++ {
		c := r.d[i]
		switch {
		case c == '\n' || c == '\t':
			return "", false
		case c == q && q == '\'' && r.at(i+1) == '\'':
			b = append(append(b, r.d[start:i]...), '\'')
			i++
			start = i + 1
		case c == q:
			b = append(b, r.d[start:i]...)
			r.i = i + 1
			return string(b), true
		case c == '\\' && q == '"':
			b = append(b, r.d[start:i]...)
			var w int
			var ok bool
			if b, w, ok = unescapeAt(b, r.d[i+1:]); !ok {
				return "", false
			}
			i += w
			start = i + 1
		}
	}
	return "", false
}

// unescapeAt appends what the escape whose letter starts s stands for,
// and says how many bytes of s it took.
func unescapeAt(b, s []byte) ([]byte, int, bool) {
	if len(s) == 0 {
		return b, 0, false
	}
	switch s[0] {
	case '\\', '"':
		// Not \/: the escapes of slashes are undone before (see
		// unescapeSlashes), and where that does not see one the library
		// refuses it.
		return append(b, s[0]), 1, true
	case 'n':
		return append(b, '\n'), 1, true
	case 't':
		return append(b, '\t'), 1, true
	case 'r':
		return append(b, '\r'), 1, true
	case 'b':
		return append(b, '\b'), 1, true
	case 'f':
		return append(b, '\f'), 1, true
	case 'u', 'U':
		w := 4
		if s[0] == 'U' {
			w = 8
		}
		if len(s) < 1+w {
			return b, 0, false
		}
		v, err := strconv.ParseUint(string(s[1:1+w]), 16, 32)
		if err != nil || v >= 0xd800 && v <= 0xdfff || v > utf8.MaxRune {
			return b, 0, false
		}
		return utf8.AppendRune(b, rune(v)), 1 + w, true
	}
	return b, 0, false
}

// flow reads a flow collection that ends on its line.
func (r *yamlReader) flow(depth int) (*Node, error) {
	if r.c.tooDeep(depth) {
		return nil, errUnread
	}
	if err := r.value(r.i); err != nil {
		return nil, err
	}
	seq := r.d[r.i] == '['
	kind, closing := Object, byte('}')
	if seq {
		kind, closing = Array, ']'
	}
	n := r.newNode(kind, r.i)
	r.i++
	r.spaces()
	if r.at(r.i) == closing {
		r.i++
		return n, nil
	}
	var l list
	l.begin(n.Pos)
	l.flow = true
	for {
		if seq {
			it, err := r.listItem(depth+1, true)
			if err != nil {
				return nil, err
			}
			r.put(&l, it)
		} else {
			text, plain, end, ok := r.key(r.i, true)
			if !ok {
				return nil, errUnread
			}
			key := text
			if plain {
				key = plainKey(text)
			}
			if err := r.value(r.i); err != nil {
				return nil, err
			}
			if smallDuplicate(n.Fields(), key) {
				return nil, errUnread
			}
			f := Field{Key: key, KeyPos: r.pos(r.i)}
			r.i = end
			r.spaces()
			v, err := r.inline(depth+1, true)
			if err != nil {
				return nil, err
			}
			f.Value = v
			if r.err == nil {
				if len(n.Fields()) == countFrom {
					growFields(n, 1+r.countMembers(r.i, 0, true))
				}
				n.SetFields(append(n.Fields(), f))
			}
		}
		r.spaces()
		switch r.at(r.i) {
		case ',':
			r.i++
			r.spaces()
			if r.at(r.i) == closing {
				return nil, errUnread // a trailing comma
			}
			continue
		case closing:
			r.i++
		default:
			return nil, errUnread
		}
		break
	}
	if seq {
		l.done(n, 1) // packed however short (see packFrom)
		if r.err == nil {
			n = r.c.packFlow(n)
		}
	} else if hasDuplicate(n.Fields()) {
		return nil, errUnread
	} else {
		fitFields(n)
	}
	return n, nil
}

// spaces skips spaces, on the line.
func (r *yamlReader) spaces() {
	for r.at(r.i) == ' ' {
		r.i++
	}
}

// smallDuplicate says whether key is among fs while they are few: a key
// twice is found where the library finds it, before what follows it is
// read.
func smallDuplicate(fs []Field, key string) bool {
	return len(fs) <= smallMapping && slices.ContainsFunc(fs, func(f Field) bool { return f.Key == key })
}

// countFrom is how many members a mapping has read when the reader counts
// the members that follow, to grow its slice once to their number:
// grown by appending, a slice of a million members takes twice and a
// quarter its size at once as it grows by a quarter, the peak of a large
// mapping of scalars (a member of 32 bytes and a node of 40 for ten bytes
// of input: 10 bytes a byte at that peak where the members hold 8).
const countFrom = 1024

// countMembers counts the members that follow in the mapping being read:
// from off, in a block mapping whose keys are at indent, the lines at
// indent where a key reads, up to the first line at indent that is
// neither a key nor a list item; in a flow mapping, the commas before its
// closing brace on the line, outside quotes and the collections in it,
// and nothing when the brace is not on the line or an empty member or a
// comment comes first (a comment of commas would count each). A text the
// reader refuses may count wrong: the count only sizes a slice, which
// fitFields trims when the mapping is read, so that what the text makes
// the count believe is held only while the mapping is read. What it goes
// through counts against c.counted, at most the document's size: past it,
// it counts nothing, so that counting ahead stays linear however large
// mappings nest (each would count the lines of those in it again).
func (r *yamlReader) countMembers(off, indent int, flow bool) int {
	if r.c.counted >= len(r.d) {
		return 0
	}
	end := len(r.d)
	if flow {
		if k := bytes.IndexByte(r.d[off:], '\n'); k >= 0 {
			end = off + k
		}
	}
	count, i := 0, off
	defer func() { r.c.counted += i - off }()
	if !flow {
		for i < end {
			j := r.pastSpaces(i)
			switch {
			case j == end || r.d[j] == '\n' || r.d[j] == '#':
			case j-i < indent:
				return count
			case j-i > indent || r.d[j] == '-' && blank(r.at(j+1)):
			case r.keyStartsAt(j):
				count++
			default:
				return count
			}
			k := bytes.IndexByte(r.d[j:], '\n')
			if k < 0 {
				i = end
				break
			}
			i = j + k + 1
		}
		return count
	}
	depth, start, empty := 0, true, false // start: where a quoted scalar may start; empty: no member since the last comma
	for ; i < end; i++ {
		b := r.d[i]
		if b == ' ' {
			continue
		}
		if b != ',' {
			empty = false
		}
		switch {
		case b == '#' && r.d[i-1] == ' ':
			return 0 // a comment, to the end of the line
		case start && (b == '"' || b == '\''):
			// A quoted scalar, to its closing quote: not one escaped by a
			// backslash (double quotes), nor one of two (single quotes).
			for i++; i < end; i++ {
				if c := r.d[i]; b == '"' && c == '\\' {
					i++
				} else if c == b && !(b == '\'' && r.at(i+1) == '\'') {
					break
				} else if c == b {
					i++
				}
			}
		case b == '[' || b == '{':
			depth++
			start = true
			continue
		case (b == ']' || b == '}') && depth == 0:
			return count
		case b == ']' || b == '}':
			depth--
		case b == ',' && depth == 0 && empty:
			return 0 // an empty member, which the reader refuses
		case b == ',':
			if depth == 0 {
				count++
				empty = true
			}
			start = true
			continue
		case b == ':' && blank(r.at(i+1)):
			start = true
			continue
		}
		start = false
	}
	return 0 // the mapping goes on past the line
}

// keyStartsAt says whether a key of a block mapping reads at i, as key
// reads one, for counting members ahead: an estimate, which a merge key
// (<<), refused later, passes.
func (r *yamlReader) keyStartsAt(i int) bool {
	if b := r.at(i); b == '"' || b == '\'' {
		_, _, _, ok := r.key(i, false)
		return ok
	}
	_, ok := r.plainKeyEnd(i, false)
	return ok && isPlainStart(r.at(i), r.at(i+1), false)
}

// fitFields trims the slice of n's members to their number when it has
// room for many more, as a count ahead that was misled would leave it: a
// mapping is counted ahead past countFrom members only, and one grown by
// appending has a quarter more room at most.
func fitFields(n *Node) {
	if fs := n.Fields(); len(fs) > countFrom && cap(fs) > len(fs)+len(fs)/4+16 {
		n.SetFields(append(make([]Field, 0, len(fs)), fs...))
	}
}

// growFields gives n room for k members more, and no more.
func growFields(n *Node, k int) {
	fs := n.Fields()
	n.SetFields(append(make([]Field, 0, len(fs)+k), fs...))
}

// smallMapping is how many members a mapping has for its keys to be
// looked through as they are read.
const smallMapping = 16

// hasDuplicate says whether two of fs have one key, once they are many:
// sorted indices, four bytes a member where a set of the keys would take
// ten times that.
func hasDuplicate(fs []Field) bool {
	if len(fs) <= smallMapping {
		return false
	}
	idx := make([]int32, len(fs))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int { return strings.Compare(fs[a].Key, fs[b].Key) })
	for i := 1; i < len(idx); i++ {
		if fs[idx[i]].Key == fs[idx[i-1]].Key {
			return true
		}
	}
	return false
}

// mark is where the reader is, to read again from there.
type mark struct {
	i, line, ls, indent int
	eof                 bool
	err                 error
	bud                 budget
}

func (r *yamlReader) mark() mark {
	return mark{r.i, r.line, r.ls, r.indent, r.eof, r.err, *r.c.bud}
}

// reset goes back to m, as if nothing since had been read.
func (r *yamlReader) reset(m mark) {
	r.i, r.line, r.ls, r.indent, r.eof, r.err = m.i, m.line, m.ls, m.indent, m.eof, m.err
	*r.c.bud = m.bud
}

// first says whether m is at the first character of its line, which is
// indented indent: where an entry or an item that starts there can be cut
// from the lines around it.
func (m mark) first(indent int) bool { return m.i == m.ls+indent && m.indent == indent }

// cutEnd is where the lines from r.ls end that are cut from the rest: at
// the first line after r.ls's that says something indented indent or
// less. They are an entry of a block mapping whose keys are at indent,
// or an item of a block sequence whose dashes are. Whatever the whole
// document makes of those lines, they say the same on their own, or the
// library refuses them.
func (r *yamlReader) cutEnd(indent int) int {
	end := len(r.d)
	if k := bytes.IndexByte(r.d[r.ls:], '\n'); k >= 0 {
		end = r.ls + k + 1
	}
	for end < len(r.d) {
		j := r.pastSpaces(end)
		if j < len(r.d) && r.d[j] != '\n' && j-end <= indent {
			break
		}
		k := bytes.IndexByte(r.d[j:], '\n')
		if k < 0 {
			end = len(r.d)
			break
		}
		end = j + k + 1
	}
	return end
}

// library parses the lines cut from r.ls with the YAML library, which must
// find a block collection of kind k, and moves past them.
func (r *yamlReader) library(indent int, k yaml.Kind) (*yaml.Node, error) {
	return r.libraryPart(r.d[r.ls:r.cutEnd(indent)], indent, k)
}

// libraryPart parses text, the lines from r.ls, with the YAML library,
// which must find a block collection of kind k, and moves past them.
func (r *yamlReader) libraryPart(text []byte, indent int, k yaml.Kind) (*yaml.Node, error) {
	doc, err := parsePart(text)
	if err != nil {
		return nil, errUnread // the library words the error, on the whole
	}
	if len(doc.Content) != 1 {
		return nil, errUnread
	}
	// A block collection, whose first character is the first of the
	// lines on their own, where the reader stands: a mapping of one
	// entry, or a sequence.
	top := doc.Content[0]
	if top.Kind != k || top.Style&yaml.FlowStyle != 0 || top.Anchor != "" || top.Line != 1 || top.Column != indent+1 ||
		k == yaml.MappingNode && (len(top.Content) != 2 || top.Tag != "!!map") ||
		k == yaml.SequenceNode && (len(top.Content) == 0 || top.Tag != "!!seq") {
		return nil, errUnread
	}
	r.c.lineOffset = r.line - 1
	r.i, r.ls = r.ls+len(text), r.ls+len(text)
	r.line += bytes.Count(text, []byte("\n"))
	r.eof = false
	return top, r.skipBlank()
}

// keep records err, an error of the library's conversion, unless it is the
// context's.
func (r *yamlReader) keep(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if r.err == nil {
		r.err = err
	}
	return nil
}

// libraryEntry reads the entry of mapping n at r.i with the library, and
// converts it as convert would.
func (r *yamlReader) libraryEntry(n *Node, depth, indent int) (Field, error) {
	top, err := r.library(indent, yaml.MappingNode)
	if err != nil {
		return Field{}, err
	}
	k, v := top.Content[0], top.Content[1]
	if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
		return Field{}, errUnread // it merges into n
	}
	c := r.c
	key, err := c.key(k)
	if err != nil {
		return Field{}, r.keep(err)
	}
	if smallDuplicate(n.Fields(), key) {
		return Field{}, errUnread
	}
	if r.err != nil {
		return Field{}, nil
	}
	if err := c.grow(k, key); err != nil {
		return Field{}, r.keep(err)
	}
	c.depth = depth
	val, err := c.convert(v)
	if err != nil {
		return Field{}, r.keep(err)
	}
	return Field{Key: key, KeyPos: c.pos(k), Value: val}, nil
}

// libraryItems reads the item of a block sequence at r.i with the
// library, and the items after it up to itemsPart bytes, and converts
// them as convert would: a plain scalar as one to be packed, if l is.
func (r *yamlReader) libraryItems(l *list, depth, indent int) error {
	end := r.cutEnd(indent)
	for end-r.ls < itemsPart(bigEntry) && end < len(r.d) && r.atIndent(end, indent) && r.d[end+indent] == '-' && blank(r.at(end+indent+1)) {
		save := r.ls
		r.ls = end
		end = r.cutEnd(indent)
		r.ls = save
	}
	top, err := r.libraryPart(r.d[r.ls:end], indent, yaml.SequenceNode)
	if err != nil || r.err != nil {
		return err
	}
	c := r.c
	for i, y := range top.Content {
		c.depth = depth
		it, err := c.pendingItem(y)
		if err != nil {
			return r.keep(err)
		}
		r.put(l, it)
		top.Content[i] = nil
	}
	return nil
}

// atIndent says whether the line that starts at off says something at
// indent exactly.
func (r *yamlReader) atIndent(off, indent int) bool {
	j := r.pastSpaces(off)
	return j-off == indent && j < len(r.d) && r.d[j] != '\n'
}
