package apidiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-json-experiment/json/jsontext"
)

// kin-openapi reads an object of a description at every level above it:
// each of its types decodes its object into itself (encoding/json handing
// every nested object to that object's type, which decodes it again), and
// decodes it again whole into a map for its extensions; and its paths and
// responses encode each of their values again before decoding it. So text
// nested ten levels deep, as a schema's properties are, is read some thirty
// times: two-thirds of a comparison's time went there.
//
// readDirect builds the same values reading the text once. It walks the
// text, and at each object of a type that holds others (a schema, an
// operation, a path item, a map or a list of them...) it gives that type's
// own UnmarshalJSON the object with each nested value of those types
// written as an empty one, and then puts in their place the values it built
// from them. So every object is decoded by the library's own code, once,
// with its own rules (its extensions, its defaults); a value the walk does
// not know (an example, a server, an extension) is decoded by the library
// where it stands. A $ref, with whatever is written beside it, goes to the
// library as it is. A text the walk finds anything wrong with is read by
// the library itself, so that its error is the library's.

// how is the way the walk builds a value of a type.
type how uint8

const (
	leaf       how = iota // decoded by the library as it stands
	object                // a pointer to a struct: its own UnmarshalJSON, nested values put in
	reference             // a pointer to a ...Ref: as its value, unless it holds a $ref
	mapLike               // *Paths, *Responses, *Callback: members set with Set
	goMap                 // a map of names to values the walk builds
	goSlice               // a list of values the walk builds
	boolSchema            // a schema or a boolean (additionalProperties...)
)

// objectTypes are the library's types that hold the values of others.
var objectTypes = map[reflect.Type]how{
	reflect.TypeFor[*openapi3.T]():              object,
	reflect.TypeFor[*openapi3.Components]():     object,
	reflect.TypeFor[*openapi3.PathItem]():       object,
	reflect.TypeFor[*openapi3.Operation]():      object,
	reflect.TypeFor[*openapi3.Parameter]():      object,
	reflect.TypeFor[*openapi3.Header]():         object,
	reflect.TypeFor[*openapi3.RequestBody]():    object,
	reflect.TypeFor[*openapi3.Response]():       object,
	reflect.TypeFor[*openapi3.MediaType]():      object,
	reflect.TypeFor[*openapi3.Encoding]():       object,
	reflect.TypeFor[*openapi3.Schema]():         object,
	reflect.TypeFor[*openapi3.SchemaRef]():      reference,
	reflect.TypeFor[*openapi3.ParameterRef]():   reference,
	reflect.TypeFor[*openapi3.HeaderRef]():      reference,
	reflect.TypeFor[*openapi3.RequestBodyRef](): reference,
	reflect.TypeFor[*openapi3.ResponseRef]():    reference,
	reflect.TypeFor[*openapi3.CallbackRef]():    reference,
	reflect.TypeFor[*openapi3.Paths]():          mapLike,
	reflect.TypeFor[*openapi3.Responses]():      mapLike,
	reflect.TypeFor[*openapi3.Callback]():       mapLike,
	reflect.TypeFor[openapi3.BoolSchema]():      boolSchema,
}

// shapeInfo is what the walk knows of a type.
type shapeInfo struct {
	how    how
	fields map[string]fieldInfo // of an object: by JSON name, those the walk builds
	names  []string             // the keys of fields, to match as encoding/json does
	set    reflect.Value        // of a mapLike: its Set method's function
}

type fieldInfo struct {
	index []int
	typ   reflect.Type
}

var shapes sync.Map // reflect.Type → *shapeInfo

// shapeOf is what the walk knows of t.
func shapeOf(t reflect.Type) *shapeInfo {
	if s, ok := shapes.Load(t); ok {
		return s.(*shapeInfo)
	}
	s := &shapeInfo{how: objectTypes[t]}
	switch {
	case s.how == object:
		s.fields = map[string]fieldInfo{}
		for _, f := range reflect.VisibleFields(t.Elem()) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "" || name == "-" || shapeOf(f.Type).how == leaf {
				continue
			}
			s.fields[name] = fieldInfo{f.Index, f.Type}
			s.names = append(s.names, name)
		}
	case s.how == mapLike:
		m, _ := t.MethodByName("Set")
		s.set = m.Func
	case s.how == leaf && (t.Kind() == reflect.Map && t.Key().Kind() == reflect.String || t.Kind() == reflect.Slice) && shapeOf(t.Elem()).how != leaf:
		if t.Kind() == reflect.Map {
			s.how = goMap
		} else {
			s.how = goSlice
		}
	}
	shapes.Store(t, s)
	return s
}

// errNotDirect is a text the walk leaves to the library.
var errNotDirect = errors.New("not read directly")

// direct is one walk of a text.
type direct struct {
	data []byte
	dec  *jsontext.Decoder
	bufs [][]byte // the objects given to the library, by depth
}

// readDirect is data, an OpenAPI 3 document as JSON, as kin-openapi's
// loader reads it, refs resolved; the loader's own reading when the walk
// cannot read it.
func readDirect(data []byte, loader *openapi3.Loader) (*openapi3.T, error) {
	doc, err := decodeDirect(data)
	if err != nil {
		return loader.LoadFromData(data)
	}
	if err := loader.ResolveRefsIn(doc, nil); err != nil {
		return nil, err
	}
	return doc, nil
}

// decodeDirect is data decoded as kin-openapi decodes it, before its refs
// are resolved.
func decodeDirect(data []byte) (*openapi3.T, error) {
	d := &direct{data: data, dec: jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))}
	if d.dec.PeekKind() != '{' {
		return nil, errNotDirect
	}
	v, err := d.value(reflect.TypeFor[*openapi3.T](), 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		return nil, errNotDirect
	}
	return v.Interface().(*openapi3.T), nil
}

// value reads the next value as one of type t, at a depth.
func (d *direct) value(t reflect.Type, depth int) (reflect.Value, error) {
	s := shapeOf(t)
	kind := d.dec.PeekKind()
	if s.how == leaf || (kind == '[') != (s.how == goSlice) || kind != '{' && kind != '[' {
		raw, err := d.dec.ReadValue()
		if err != nil {
			return reflect.Value{}, err
		}
		p := reflect.New(t)
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			return reflect.Value{}, err
		}
		return p.Elem(), nil
	}
	switch s.how {
	case goSlice:
		d.dec.ReadToken()
		out := reflect.MakeSlice(t, 0, 0)
		for d.dec.PeekKind() != ']' {
			v, err := d.value(t.Elem(), depth+1)
			if err != nil {
				return reflect.Value{}, err
			}
			out = reflect.Append(out, v)
		}
		_, err := d.dec.ReadToken()
		return out, err
	case goMap:
		d.dec.ReadToken()
		out := reflect.MakeMap(t)
		for d.dec.PeekKind() != '}' {
			tok, err := d.dec.ReadToken()
			if err != nil {
				return reflect.Value{}, err
			}
			key := tok.String()
			v, err := d.value(t.Elem(), depth+1)
			if err != nil {
				return reflect.Value{}, err
			}
			out.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), v)
		}
		_, err := d.dec.ReadToken()
		return out, err
	case boolSchema:
		v, err := d.value(reflect.TypeFor[*openapi3.SchemaRef](), depth)
		if err != nil {
			return reflect.Value{}, err
		}
		return reflect.ValueOf(openapi3.BoolSchema{Schema: v.Interface().(*openapi3.SchemaRef)}), nil
	case reference:
		value, _ := t.Elem().FieldByName("Value")
		start := int(d.dec.InputOffset())
		v, ref, err := d.object(value.Type, depth, true)
		if err != nil {
			return reflect.Value{}, err
		}
		p := reflect.New(t.Elem())
		if ref {
			// What a $ref holds beside it is the library's to read.
			raw := bytes.TrimLeft(d.data[start:d.dec.InputOffset()], " \t\r\n,:")
			if err := json.Unmarshal(raw, p.Interface()); err != nil {
				return reflect.Value{}, err
			}
			return p, nil
		}
		p.Elem().FieldByIndex(value.Index).Set(v)
		return p, nil
	}
	v, _, err := d.object(t, depth, false)
	return v, err
}

// object reads an object of type t. The library keeps none of the fields
// the walk builds among its extensions (TestWalkedFieldsAreNoExtensions),
// so what it was given in their place is nowhere once they are put in.
//
// object reads an object of type t, a pointer to an object type or a
// mapLike; and, for the value of a reference, whether it holds a $ref,
// which leaves the object to the library (and no value).
func (d *direct) object(t reflect.Type, depth int, reference bool) (reflect.Value, bool, error) {
	s := shapeOf(t)
	for len(d.bufs) <= depth {
		d.bufs = append(d.bufs, nil)
	}
	buf := append(d.bufs[depth][:0], '{')
	type built struct {
		key   string
		field fieldInfo
		v     reflect.Value
	}
	var puts []built
	var last map[string]int // of a mapLike: where in puts each key's value is
	var fields []string     // of an object, those written
	ref := false
	if _, err := d.dec.ReadToken(); err != nil {
		return reflect.Value{}, false, err
	}
	for d.dec.PeekKind() != '}' {
		quoted, err := d.dec.ReadValue()
		if err != nil {
			return reflect.Value{}, false, err
		}
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		buf = append(append(buf, quoted...), ':')
		name, err := jsontext.AppendUnquote(nil, quoted)
		if err != nil {
			return reflect.Value{}, false, err
		}
		key := string(name)
		if reference && strings.EqualFold(key, "$ref") {
			// encoding/json reads the library's Ref in any case.
			if len(puts) > 0 {
				// Values built before it would be read again by the
				// library, at every level of a chain of such: read
				// by the library once, the whole text.
				return reflect.Value{}, false, errNotDirect
			}
			ref = true
		}
		if ref {
			if err := d.dec.SkipValue(); err != nil {
				return reflect.Value{}, false, err
			}
			continue
		}
		var f fieldInfo
		var known bool
		switch s.how {
		case object:
			f, known = s.fields[key]
			if known && slices.Contains(fields, key) || !known && slices.ContainsFunc(s.names, func(n string) bool { return strings.EqualFold(n, key) }) {
				// encoding/json merges what a field written twice
				// holds, in any case: the library reads it.
				return reflect.Value{}, false, errNotDirect
			}
			fields = append(fields, key)
		case mapLike:
			if !bytes.HasPrefix(name, []byte("x-")) {
				f, known = fieldInfo{typ: s.set.Type().In(2)}, true
			}
		}
		kind := d.dec.PeekKind()
		if !known || kind != '{' && kind != '[' {
			raw, err := d.dec.ReadValue()
			if err != nil {
				return reflect.Value{}, false, err
			}
			buf = append(buf, raw...)
			// The library decodes this member where it stands: a value
			// built for the same path or response before it no longer
			// counts, the last one written does.
			if i, ok := last[key]; ok {
				puts[i].v = reflect.Value{}
				delete(last, key)
			}
			continue
		}
		d.bufs[depth] = buf
		v, err := d.value(f.typ, depth+1)
		if err != nil {
			return reflect.Value{}, false, err
		}
		buf = d.bufs[depth]
		if kind == '[' {
			buf = append(buf, "[]"...)
		} else {
			buf = append(buf, "{}"...)
		}
		if s.how == mapLike {
			if last == nil {
				last = map[string]int{}
			}
			last[key] = len(puts) // Set in order: the last one written counts
		}
		puts = append(puts, built{key, f, v})
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return reflect.Value{}, false, err
	}
	if ref {
		return reflect.Value{}, true, nil
	}
	buf = append(buf, '}')
	d.bufs[depth] = buf
	p := reflect.New(t.Elem())
	if err := json.Unmarshal(buf, p.Interface()); err != nil {
		return reflect.Value{}, false, err
	}
	for _, b := range puts {
		if !b.v.IsValid() {
			continue // written again after
		}
		if s.how == mapLike {
			s.set.Call([]reflect.Value{p, reflect.ValueOf(b.key), b.v})
			continue
		}
		p.Elem().FieldByIndex(b.field.index).Set(b.v)
	}
	return p, ref, nil
}
