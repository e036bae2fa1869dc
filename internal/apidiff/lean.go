package apidiff

import (
	"bytes"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// What the library reads costs far more than the text it is given: it
// reads every nested object of a schema some four times over (kin-openapi
// decodes each level, and again into a map for its extensions), so an
// example or a description deep in a schema is read once for each level
// above it. None of its checks reads a description, a summary, an example
// or external docs (they are in its diff, which no check looks at for
// these): so the text it is given leaves them out where they are those
// fields of an OpenAPI 3 object, and the report is the same, from about
// half the text (measured on real releases: a tenth to a fifth less time,
// and as much less memory on GitHub's description).
//
// But the library matches the subschemas of allOf, anyOf and oneOf written
// inline by their whole content, descriptions too, and compares each
// content with what it refers to: so those lists are given as they are,
// with every unit they reach (verbatimUnits).
//
// A unit is walked as what it is (a path item, a schema, a response...),
// so that a member that is a name (a property called "description", a
// response header, an example's value) is never taken for a field; what
// the walk does not know (an extension, a link, a Swagger 2.0 document)
// is given as it is.

// shape is what a JSON value is in an OpenAPI 3 document, as far as
// leaving out the unread fields goes.
type shape uint8

const (
	asIs shape = iota // given as it is
	pathItemShape
	operationShape
	parameterShape // a parameter or a header
	requestBodyShape
	responseShape
	mediaTypeShape
	encodingShape
	schemaShape
	callbackShape // a map of expressions to path items
	// maps of names to a shape, and lists of a shape
	schemasShape
	parametersShape // a list
	schemaListShape
	responsesShape
	mediaTypesShape
	headersShape
	encodingsShape
	callbacksShape
	// subschemasShape is allOf, anyOf or oneOf: given as it is.
	subschemasShape
)

// unitShapes are the shapes of the units of OpenAPI 3, by section.
var unitShapes = map[string]shape{
	"paths":                    pathItemShape,
	"components/schemas":       schemaShape,
	"components/responses":     responseShape,
	"components/parameters":    parameterShape,
	"components/requestBodies": requestBodyShape,
	"components/headers":       parameterShape,
	"components/callbacks":     callbackShape,
	"components/pathItems":     pathItemShape,
}

// unread says whether key, as written in the text, names a field of an
// object of shape s that no check reads.
func unread(s shape, key []byte) bool {
	switch string(key) {
	case `"description"`:
		return s == pathItemShape || s == operationShape || s == parameterShape ||
			s == requestBodyShape || s == responseShape || s == schemaShape
	case `"summary"`:
		return s == pathItemShape || s == operationShape
	case `"example"`, `"examples"`:
		return s == parameterShape || s == mediaTypeShape || s == schemaShape
	case `"externalDocs"`:
		return s == operationShape || s == schemaShape
	}
	return false
}

// memberShape is the shape of the value of key in an object of shape s.
func memberShape(s shape, key []byte) shape {
	k := string(key)
	switch s {
	case pathItemShape:
		switch k {
		case `"get"`, `"put"`, `"post"`, `"delete"`, `"options"`, `"head"`, `"patch"`, `"trace"`:
			return operationShape
		case `"parameters"`:
			return parametersShape
		}
	case operationShape:
		switch k {
		case `"parameters"`:
			return parametersShape
		case `"requestBody"`:
			return requestBodyShape
		case `"responses"`:
			return responsesShape
		case `"callbacks"`:
			return callbacksShape
		}
	case parameterShape:
		switch k {
		case `"schema"`:
			return schemaShape
		case `"content"`:
			return mediaTypesShape
		}
	case requestBodyShape:
		if k == `"content"` {
			return mediaTypesShape
		}
	case responseShape:
		switch k {
		case `"headers"`:
			return headersShape
		case `"content"`:
			return mediaTypesShape
		}
	case mediaTypeShape:
		switch k {
		case `"schema"`:
			return schemaShape
		case `"encoding"`:
			return encodingsShape
		}
	case encodingShape:
		if k == `"headers"` {
			return headersShape
		}
	case schemaShape:
		switch k {
		case `"properties"`, `"patternProperties"`, `"$defs"`, `"dependentSchemas"`:
			return schemasShape
		case `"items"`, `"additionalProperties"`, `"not"`, `"contains"`, `"if"`, `"then"`, `"else"`,
			`"propertyNames"`, `"unevaluatedItems"`, `"unevaluatedProperties"`, `"contentSchema"`:
			return schemaShape
		case `"prefixItems"`:
			return schemaListShape
		case `"allOf"`, `"anyOf"`, `"oneOf"`:
			return subschemasShape
		}
	case callbackShape:
		if !extension(key) {
			return pathItemShape
		}
	case schemasShape:
		return schemaShape
	case parametersShape:
		return parameterShape
	case schemaListShape:
		return schemaShape
	case responsesShape:
		if !extension(key) {
			return responseShape
		}
	case mediaTypesShape:
		return mediaTypeShape
	case headersShape:
		return parameterShape
	case encodingsShape:
		return encodingShape
	case callbacksShape:
		return callbackShape
	}
	return asIs
}

// extension says whether key, as written in the text, names an
// extension (x-...), which the library reads as it is written.
func extension(key []byte) bool { return bytes.HasPrefix(key, []byte(`"x-`)) }

// isList says whether a shape is a list of another.
func isList(s shape) bool { return s == parametersShape || s == schemaListShape }

// lean appends raw, a value of shape s, to dst without the fields no check
// reads; raw as it is when it is not JSON the walk reads.
func lean(dst, raw []byte, s shape) []byte {
	if s == asIs {
		return append(dst, raw...)
	}
	w := walk{dst: dst}
	if err := w.value(jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true)), s); err != nil {
		return append(dst[:len(dst):len(dst)], raw...)
	}
	return w.dst
}

// walk writes a value without the fields no check reads, and calls
// subschemas, when set, with each list of subschemas it gives as it is.
type walk struct {
	dst        []byte
	subschemas func(raw []byte)
}

func (w *walk) value(dec *jsontext.Decoder, s shape) error {
	kind := dec.PeekKind()
	if s == asIs || s == subschemasShape || kind != '{' && kind != '[' || kind == '[' && !isList(s) || kind == '{' && isList(s) {
		v, err := dec.ReadValue()
		if err == nil && s == subschemasShape && w.subschemas != nil {
			w.subschemas(v)
		}
		w.dst = append(w.dst, v...)
		return err
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if kind == '[' {
		w.dst = append(w.dst, '[')
		for i := 0; dec.PeekKind() != ']'; i++ {
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			if err := w.value(dec, memberShape(s, nil)); err != nil {
				return err
			}
		}
		_, err := dec.ReadToken()
		w.dst = append(w.dst, ']')
		return err
	}
	w.dst = append(w.dst, '{')
	first := true
	for dec.PeekKind() != '}' {
		key, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if unread(s, key) {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if !first {
			w.dst = append(w.dst, ',')
		}
		first = false
		w.dst = append(append(w.dst, key...), ':')
		if err := w.value(dec, memberShape(s, key)); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	w.dst = append(w.dst, '}')
	return err
}

// subschemaWords are what a unit that holds a list of subschemas holds.
var subschemaWords = [][]byte{[]byte(`"allOf"`), []byte(`"anyOf"`), []byte(`"oneOf"`)}

// verbatimUnits are the units of written, on either side, that a list of
// subschemas reaches, there or through other units: each given as it is,
// since the library matches the subschemas by their whole content.
func verbatimUnits(written map[unitKey]bool, sides ...*doc) map[unitKey]bool {
	var seeds []unitKey
	for _, d := range sides {
		w := walk{subschemas: func(raw []byte) { seeds = append(seeds, d.refersTo(raw)...) }}
		for k := range written {
			raw, ok := d.units[k]
			s := d.shapeOf(k.sec)
			if !ok || s == asIs || !slices.ContainsFunc(subschemaWords, func(word []byte) bool { return bytes.Contains(raw, word) }) {
				continue
			}
			w.dst = w.dst[:0]
			// A unit the walk cannot read is given as it is anyway.
			_ = w.value(jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true)), s)
		}
	}
	out := map[unitKey]bool{}
	for len(seeds) > 0 {
		k := seeds[len(seeds)-1]
		seeds = seeds[:len(seeds)-1]
		if out[k] {
			continue
		}
		out[k] = true
		for _, d := range sides {
			seeds = append(seeds, d.refs[k]...)
		}
	}
	return out
}
