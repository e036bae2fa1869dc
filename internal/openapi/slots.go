package openapi

// slot is what a value is, by where it stands in a description. A $ref to
// another file is lifted into the components of its slot's kind.
type slot uint8

const (
	sOther slot = iota
	sDoc
	sComponents
	sPaths
	sPathItem
	sOperation
	sParamList
	sParam
	sResponses
	sResponse
	sSchema
	sSchemaList
	sHeader
	sMediaMap
	sMedia
	sRequestBody
	sExample
	sLink
	sCallback
	sSecurityScheme
	sNamed // a map of names; its values are of the slot in elem
	sData  // an example, a default, an enum: data, where a $ref may be text
)

// place is a slot, with the element slot of a named map.
type place struct {
	s    slot
	elem slot
}

func named(s slot) place { return place{sNamed, s} }
func at(s slot) place    { return place{s: s} }

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// skipKey says a key holds data, not description: a "$ref" key inside an
// example may be the example's text. Extensions (x-...) are description:
// a local reference inside one must be rewritten like any other. Under
// responses, "default" is the default response, not data.
func skipKey(p place, k string) bool {
	if p.s == sResponses || p.s == sNamed || p.s == sPaths || p.s == sData {
		return false
	}
	switch k {
	case "example", "default", "enum", "const", "x-example", "x-examples":
		return true
	case "examples":
		return p.s == sResponse // Swagger 2.0: media type → example
	}
	return false
}

// children is where each key leads from a slot, for slots whose keys differ.
var children = map[slot]map[string]place{
	sDoc: {
		"paths": at(sPaths), "components": at(sComponents), "webhooks": named(sPathItem),
		"parameters": named(sParam), "responses": named(sResponse), "definitions": named(sSchema),
	},
	sComponents: {
		"schemas": named(sSchema), "parameters": named(sParam), "responses": named(sResponse),
		"headers": named(sHeader), "requestBodies": named(sRequestBody), "examples": named(sExample),
		"securitySchemes": named(sSecurityScheme), "links": named(sLink), "callbacks": named(sCallback),
		"pathItems": named(sPathItem), "mediaTypes": named(sMedia),
	},
	sPathItem: {
		"parameters": at(sParamList),
		"get":        at(sOperation), "put": at(sOperation), "post": at(sOperation), "delete": at(sOperation),
		"options": at(sOperation), "head": at(sOperation), "patch": at(sOperation), "trace": at(sOperation),
		"query": at(sOperation), "additionalOperations": named(sOperation), // OpenAPI 3.2
	},
	sOperation: {
		"parameters": at(sParamList), "responses": at(sResponses), "requestBody": at(sRequestBody),
		"callbacks": named(sCallback),
	},
	sParam:       {"schema": at(sSchema), "items": at(sSchema), "content": at(sMediaMap)},
	sHeader:      {"schema": at(sSchema), "items": at(sSchema), "content": at(sMediaMap)},
	sResponse:    {"schema": at(sSchema), "headers": named(sHeader), "content": at(sMediaMap), "links": named(sLink)},
	sRequestBody: {"content": at(sMediaMap)},
	sMedia:       {"schema": at(sSchema), "examples": named(sExample)},
	sSchema: {
		"properties": named(sSchema), "patternProperties": named(sSchema), "definitions": named(sSchema),
		"$defs": named(sSchema), "dependentSchemas": named(sSchema),
		"items": at(sSchema), "additionalProperties": at(sSchema), "not": at(sSchema), "if": at(sSchema),
		"then": at(sSchema), "else": at(sSchema), "contains": at(sSchema), "propertyNames": at(sSchema),
		"unevaluatedItems": at(sSchema), "unevaluatedProperties": at(sSchema), "additionalItems": at(sSchema),
		"allOf": at(sSchemaList), "anyOf": at(sSchemaList), "oneOf": at(sSchemaList), "prefixItems": at(sSchemaList),
	},
}

// everyChild is the place of every key's value (or item) of a slot whose
// keys are names: paths, status codes, media types.
var everyChild = map[slot]place{
	sPaths: at(sPathItem), sCallback: at(sPathItem), sParamList: at(sParam),
	sResponses: at(sResponse), sMediaMap: at(sMedia), sSchemaList: at(sSchema),
	sData: at(sData),
}

// childrenOf and everyChildOf are children and everyChild by slot, for a
// lookup per key that costs no more than it must: the single pass asks
// for every key of a description.
var (
	childrenOf   [sData + 1]*keyTable[place]
	everyChildOf [sData + 1]*place
)

func init() {
	for s, m := range children {
		childrenOf[s] = newKeyTable(m)
	}
	for s, p := range everyChild {
		everyChildOf[s] = &p
	}
}

// child is the place of the value under key k (or of an array item, k == "")
// in a value at p.
func child(p place, k string, v3 bool) place {
	if p.s == sNamed {
		return at(p.elem)
	}
	if skipKey(p, k) {
		return at(sData)
	}
	if c := everyChildOf[p.s]; c != nil {
		return *c
	}
	if k == "examples" && v3 && (p.s == sParam || p.s == sHeader) {
		return named(sExample) // Swagger 2.0's examples are data
	}
	if c, ok := childrenOf[p.s].get(k); ok {
		return c
	}
	return at(sOther)
}

// sectionNames are the OpenAPI 3 components sections, by slot.
var sectionNames = map[slot]string{
	sSchema: "schemas", sParam: "parameters", sResponse: "responses", sHeader: "headers",
	sRequestBody: "requestBodies", sExample: "examples", sSecurityScheme: "securitySchemes",
	sLink: "links", sCallback: "callbacks",
}

// section is where a component of slot s lives, or nil when this format
// has no place for it (the target is then inlined).
func section(s slot, f format) []string {
	if f.major == 2 {
		switch s {
		case sParam:
			return []string{"parameters"}
		case sResponse:
			return []string{"responses"}
		case sSchema:
			return []string{"definitions"}
		}
		return nil
	}
	name := sectionNames[s]
	switch {
	case s == sPathItem && f.minor >= 1:
		name = "pathItems"
	case s == sMedia && f.minor >= 2:
		name = "mediaTypes" // OpenAPI 3.2
	}
	if name == "" {
		return nil
	}
	return []string{"components", name}
}
