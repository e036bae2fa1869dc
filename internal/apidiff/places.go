package apidiff

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-json-experiment/json/jsontext"
)

// The library places what it reads only through its YAML reader: each
// object's openapi3.Origin, from the lines of the YAML nodes. Reading a
// part that way costs several times reading it as JSON, directly
// (direct.go), and some 130 times the text in memory. readPlaced reads the
// text directly and gives the values the origins the YAML reader would
// record, with a line for each member and item of the text (lines): what
// oasdiff reports a change at is a line, which names a JSON pointer.
//
// What the YAML reader records (oasdiff/yaml3's addOrigin, kin-openapi's
// applyOrigins): an object that is a member's value has an origin whose
// key is that member; one that is an item, its first member; the
// document, its first member under the name "". An origin holds the line
// of every member (Fields), and of each scalar item of a member that is a
// list (Sequences). The library then walks its values with those origins:
// a struct with an Origin field takes its object's; a struct's fields take
// their members'; a ...Ref's value and a BoolSchema's schema, the same as
// the struct holding them; a map's values and a Paths', Responses' or
// Callback's, their members'; a list's items, its items'. A struct's field
// that is a map of scalars puts the lines of its keys, by name, among the
// struct's Sequences.
//
// TestPlacedAsTheLibrary holds these origins to the library's own on the
// test data, the releases and oasdiff's test data.

// onode is what the YAML reader records of a value's places, for the
// values that hold an origin: nil for the others.
type onode struct {
	origin  bool  // an object the reader gives an origin
	line    int32 // of the origin's key
	name    string
	members []omember // of an object
	items   []*onode  // of a list
}

// omember is a member of an object: its name, its line, the places its
// value holds, and the scalar items of a list.
type omember struct {
	name  string
	line  int32
	child *onode
	seq   []oitem
}

type oitem struct {
	name string
	line int32
}

// placer reads a text's places.
type placer struct {
	dec   *jsontext.Decoder
	lines lines
	// oddRef is a $ref to something other than a component: the library
	// gives its target the origins it kept of the text when the target is
	// an untyped value, where the document has extensions.
	oddRef bool
}

// where a value stands: how the reader names its origin.
type where uint8

const (
	atRoot where = iota
	inObject
	inList
)

// newLine is a line about tok under the place of line parent.
func (p *placer) newLine(parent int32, tok string) int32 {
	p.lines.parent = append(p.lines.parent, parent)
	p.lines.tok = append(p.lines.tok, tok)
	return int32(len(p.lines.parent) - 1)
}

// places reads the places of text, a JSON document, the lines that name
// them, and whether it holds a $ref to something other than a component.
// A key written twice in an object, which the YAML reader refuses (so the
// library placed nothing), is placed: a pointer names the key, whichever
// of its values the library keeps.
func places(text []byte) (n *onode, ls *lines, oddRef bool, err error) {
	p := &placer{
		dec:   jsontext.NewDecoder(bytes.NewReader(text), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)),
		lines: lines{parent: []int32{-1}, tok: []string{""}},
	}
	root := p.newLine(0, "")
	n, _, err = p.value(root, "", atRoot)
	return n, &p.lines, p.oddRef, err
}

// value reads the value on line at, named name, standing where; and, of a
// scalar, its text as the YAML reader holds it.
func (p *placer) value(at int32, name string, w where) (*onode, string, error) {
	switch p.dec.PeekKind() {
	case '{':
		n, err := p.object(at, name, w)
		return n, "", err
	case '[':
		n, _, err := p.list(at)
		return n, "", err
	}
	if p.dec.PeekKind() == '"' {
		tok, err := p.dec.ReadToken()
		return nil, tok.String(), err
	}
	// A number, true, false or null: as written.
	raw, err := p.dec.ReadValue()
	return nil, string(raw), err
}

func (p *placer) object(at int32, name string, w where) (*onode, error) {
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, err
	}
	n := &onode{}
	held := false // whether a member holds places
	for p.dec.PeekKind() != '}' {
		tok, err := p.dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := tok.String()
		line := p.newLine(at, key)
		m := omember{name: key, line: line}
		switch p.dec.PeekKind() {
		case '[':
			m.child, m.seq, err = p.list(line)
		case '{':
			m.child, err = p.object(line, key, inObject)
		default:
			if !strings.EqualFold(key, "$ref") {
				err = p.dec.SkipValue() // its text is not needed
				break
			}
			var text string
			_, text, err = p.value(line, key, inObject)
			p.oddRef = p.oddRef || !componentRef(text)
		}
		if err != nil {
			return nil, err
		}
		held = held || m.child != nil
		n.members = append(n.members, m)
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, err
	}
	switch {
	case w == inObject:
		n.origin, n.line, n.name = true, at, name
	case len(n.members) > 0:
		n.origin, n.line, n.name = true, n.members[0].line, n.members[0].name
		if w == atRoot {
			n.name = ""
		}
	}
	if !n.origin && !held {
		return nil, nil
	}
	return n, nil
}

// list reads a list on line at: the places its items hold, nil when none
// does, and its scalar items.
func (p *placer) list(at int32) (*onode, []oitem, error) {
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, nil, err
	}
	var items []*onode
	var seq []oitem
	held := false
	for i := 0; p.dec.PeekKind() != ']'; i++ {
		line := p.newLine(at, strconv.Itoa(i))
		kind := p.dec.PeekKind()
		child, text, err := p.value(line, "", inList)
		if err != nil {
			return nil, nil, err
		}
		if kind != '{' && kind != '[' {
			seq = append(seq, oitem{text, line})
		}
		items = append(items, child)
		held = held || child != nil
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, nil, err
	}
	if !held {
		return nil, seq, nil
	}
	return &onode{items: items}, seq, nil
}

// componentRef is whether ref names a component of a section the library
// types: it resolves it through its types, keeping the origins its value
// has. A name with an escape (%, ~) is no such ref here, whatever it
// decodes to.
func componentRef(ref string) bool {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	section, name, ok2 := strings.Cut(rest, "/")
	return ok && ok2 && typedSections[section] && name != "" && !strings.ContainsAny(name, "/%~")
}

// typedSections are the sections of components the library reads into
// its types.
var typedSections = map[string]bool{
	"schemas": true, "parameters": true, "headers": true, "requestBodies": true, "responses": true,
	"securitySchemes": true, "examples": true, "links": true, "callbacks": true, "pathItems": true,
}

// newOrigin is the origin the library gives a struct read from n.
func (n *onode) newOrigin() *openapi3.Origin {
	o := &openapi3.Origin{Key: &openapi3.Location{Line: int(n.line), Name: n.name}}
	if len(n.members) > 0 {
		o.Fields = make(openapi3.FieldLocations, len(n.members))
	}
	for i, m := range n.members {
		o.Fields[i] = openapi3.Location{Line: int(m.line), Name: m.name}
		if len(m.seq) == 0 {
			continue
		}
		if o.Sequences == nil {
			o.Sequences = map[string][]openapi3.Location{}
		}
		locs := make([]openapi3.Location, len(m.seq))
		for j, it := range m.seq {
			locs[j] = openapi3.Location{Line: int(it.line), Name: it.name}
		}
		o.Sequences[m.name] = locs
	}
	return o
}

// placeInfo is what placing needs of a type.
type placeInfo struct {
	holds    bool           // whether a value of it can hold an origin
	origin   []int          // the Origin field's index; nil when none
	fields   map[string]int // the fields with a JSON name, by it
	wrappers [][]int        // Value and Schema fields without one
	ref      []int          // the Ref field's index; nil when none
	hasMap   bool           // whether a pointer to it has a Map method
}

// placeInfos is what placing needs of each type a document's values have,
// known once for all: the walks of the two sides read it at once.
var placeInfos = sync.OnceValue(func() map[reflect.Type]*placeInfo {
	m := map[reflect.Type]*placeInfo{}
	learnPlaces(m, reflect.TypeFor[*openapi3.T]())
	return m
})

var originType = reflect.TypeFor[*openapi3.Origin]()

// placeInfoOf is what placing needs of t: nothing for a type no document
// value has.
func placeInfoOf(t reflect.Type) *placeInfo {
	if pi, ok := placeInfos()[t]; ok {
		return pi
	}
	return &placeInfo{}
}

// learnPlaces adds to m what placing needs of t and of the types its values
// hold.
func learnPlaces(m map[reflect.Type]*placeInfo, t reflect.Type) *placeInfo {
	if pi, ok := m[t]; ok {
		return pi
	}
	pi := &placeInfo{holds: true} // until known: a type may hold itself
	m[t] = pi
	holds := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		// Interfaces hold what encoding/json makes: no origins.
		holds = learnPlaces(m, t.Elem()).holds
	case reflect.Struct:
		if f, ok := t.FieldByName("Origin"); ok && f.Type == originType && f.Tag.Get("json") == "-" {
			pi.origin = f.Index
			holds = true
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "" || name == "-" {
				continue
			}
			if pi.fields == nil {
				pi.fields = map[string]int{}
			}
			pi.fields[name] = i
			holds = learnPlaces(m, f.Type).holds || holds
		}
		if f, ok := t.FieldByName("Ref"); ok && f.Type.Kind() == reflect.String {
			pi.ref = f.Index
		}
		for _, name := range []string{"Value", "Schema"} {
			if f, ok := t.FieldByName(name); ok && f.Type.Kind() == reflect.Pointer && f.Tag.Get("json") == "" {
				pi.wrappers = append(pi.wrappers, f.Index)
				holds = learnPlaces(m, f.Type).holds || holds
			}
		}
		if mt, ok := reflect.PointerTo(t).MethodByName("Map"); ok && mt.Type.NumIn() == 1 && mt.Type.NumOut() == 1 {
			pi.hasMap = true
			holds = learnPlaces(m, mt.Type.Out(0)).holds || holds
		}
	}
	pi.holds = holds
	return pi
}

// applyPlaces gives v, and what it holds, the origins n records, as the
// library gives a value read from YAML.
func applyPlaces(v reflect.Value, n *onode) {
	if n == nil || !placeInfoOf(v.Type()).holds {
		return
	}
	var ptr reflect.Value
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			ptr = v
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		placeStruct(v, ptr, n)
	case reflect.Map:
		placeMap(v, n)
	case reflect.Slice:
		for i := 0; i < v.Len() && i < len(n.items); i++ {
			applyPlaces(v.Index(i), n.items[i])
		}
	}
}

func placeStruct(v, ptr reflect.Value, n *onode) {
	pi := placeInfoOf(v.Type())
	var o *openapi3.Origin
	if n.origin && pi.origin != nil {
		o = n.newOrigin()
		v.FieldByIndex(pi.origin).Set(reflect.ValueOf(o))
	}
	for _, m := range n.members {
		i, ok := pi.fields[m.name]
		if m.child == nil || !ok {
			continue
		}
		f := v.Field(i)
		if o != nil && scalarMap(f) && m.child.origin && len(m.child.members) > 0 {
			// Its keys by name: the library sorts them.
			locs := m.child.newOrigin().Fields
			sortLocations(locs)
			if o.Sequences == nil {
				o.Sequences = map[string][]openapi3.Location{}
			}
			o.Sequences[m.name] = locs
		}
		applyPlaces(f, m.child)
	}
	// The value of a $ref is written where the $ref leads: it has the
	// places of that text, not of the $ref's (when resolved already).
	resolved := pi.ref != nil && v.FieldByIndex(pi.ref).String() != ""
	for _, i := range pi.wrappers {
		if f := v.FieldByIndex(i); !f.IsNil() && !resolved {
			applyPlaces(f, n)
		}
	}
	if pi.hasMap {
		recv := ptr
		if !recv.IsValid() && v.CanAddr() {
			recv = v.Addr()
		}
		if recv.IsValid() {
			placeMap(recv.MethodByName("Map").Call(nil)[0], n)
		}
	}
}

func placeMap(v reflect.Value, n *onode) {
	if v.Type().Key().Kind() != reflect.String || !placeInfoOf(v.Type().Elem()).holds {
		return
	}
	for _, m := range n.members {
		if m.child == nil {
			continue
		}
		key := reflect.ValueOf(m.name).Convert(v.Type().Key())
		e := v.MapIndex(key)
		switch {
		case !e.IsValid():
		case e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface:
			applyPlaces(e, m.child)
		case e.Kind() == reflect.Struct:
			// As the library does, though no map of its holds structs
			// with origins today.
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			placeStruct(c, reflect.Value{}, m.child)
			v.SetMapIndex(key, c)
		}
	}
}

// scalarMap is whether v is a map of scalars with something in it: the
// library puts its keys' lines among its struct's sequences.
func scalarMap(v reflect.Value) bool {
	if v.Kind() != reflect.Map || v.IsNil() || v.Len() == 0 {
		return false
	}
	switch v.Type().Elem().Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func sortLocations(locs []openapi3.Location) {
	slices.SortFunc(locs, func(a, b openapi3.Location) int { return strings.Compare(a.Name, b.Name) })
}

// member is the places the member name of n holds, or nil.
func (n *onode) member(name string) *onode {
	if n == nil {
		return nil
	}
	for _, m := range n.members {
		if m.name == name {
			return m.child
		}
	}
	return nil
}

// placePathItemRefs gives each path item of doc that is a $ref to
// components/pathItems the places of the component's text, n being the
// document's. The library does not type that section (it holds path
// items from OpenAPI 3.1 on): it resolves such a $ref by reading the
// component again from an untyped value, which keeps no places, so that a
// change inside a path item given by $ref (the way a bundle lifts a path
// item from a file of its own) would have no place. It is placed where the
// component writes it, and the values it refers to keep their own places.
func placePathItemRefs(doc *openapi3.T, n *onode) {
	section := n.member("components").member("pathItems")
	if section == nil || doc.Paths == nil {
		return
	}
	for _, item := range doc.Paths.Map() {
		name, ok := strings.CutPrefix(item.Ref, "#/components/pathItems/")
		if !ok || item.Origin != nil { // placed by the library itself
			continue
		}
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		applyPlaces(reflect.ValueOf(item), section.member(name))
	}
}
