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
// example is the example's text. Extensions (x-...) are walked: a local
// reference inside one must be rewritten like any other.
// Under responses, "default" is the default response, not data.
func skipKey(p place, k string) bool {
	if p.s == sResponses || p.s == sNamed || p.s == sPaths {
		return false
	}
	switch k {
	case "example", "default", "enum", "const", "x-example", "x-examples":
		return true
	}
	return false
}

// child is the place of the value under key k (or of an array item, k == "")
// in a value at p.
func child(p place, k string, v3 bool) place {
	if p.s == sNamed {
		return at(p.elem)
	}
	switch p.s {
	case sDoc:
		switch k {
		case "paths":
			return at(sPaths)
		case "components":
			return at(sComponents)
		case "webhooks":
			return named(sPathItem)
		case "parameters":
			return named(sParam)
		case "responses":
			return named(sResponse)
		case "definitions":
			return named(sSchema)
		}
	case sComponents:
		switch k {
		case "schemas":
			return named(sSchema)
		case "parameters":
			return named(sParam)
		case "responses":
			return named(sResponse)
		case "headers":
			return named(sHeader)
		case "requestBodies":
			return named(sRequestBody)
		case "examples":
			return named(sExample)
		case "securitySchemes":
			return named(sSecurityScheme)
		case "links":
			return named(sLink)
		case "callbacks":
			return named(sCallback)
		case "pathItems":
			return named(sPathItem)
		}
	case sPaths, sCallback:
		return at(sPathItem)
	case sPathItem:
		if k == "parameters" {
			return at(sParamList)
		}
		for _, m := range methods {
			if k == m {
				return at(sOperation)
			}
		}
	case sOperation:
		switch k {
		case "parameters":
			return at(sParamList)
		case "responses":
			return at(sResponses)
		case "requestBody":
			return at(sRequestBody)
		case "callbacks":
			return named(sCallback)
		}
	case sParamList:
		return at(sParam)
	case sParam, sHeader:
		switch k {
		case "schema", "items":
			return at(sSchema)
		case "content":
			return at(sMediaMap)
		case "examples":
			if v3 {
				return named(sExample)
			}
		}
	case sResponses:
		return at(sResponse)
	case sResponse:
		switch k {
		case "schema":
			return at(sSchema)
		case "headers":
			return named(sHeader)
		case "content":
			return at(sMediaMap)
		case "links":
			return named(sLink)
		}
	case sRequestBody:
		if k == "content" {
			return at(sMediaMap)
		}
	case sMediaMap:
		return at(sMedia)
	case sMedia:
		switch k {
		case "schema":
			return at(sSchema)
		case "examples":
			return named(sExample)
		}
	case sSchema:
		switch k {
		case "properties", "patternProperties", "definitions", "$defs", "dependentSchemas":
			return named(sSchema)
		case "items", "additionalProperties", "not", "if", "then", "else", "contains",
			"propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems":
			return at(sSchema)
		case "allOf", "anyOf", "oneOf", "prefixItems":
			return at(sSchemaList)
		}
	case sSchemaList:
		return at(sSchema)
	}
	return at(sOther)
}

// section is where a component of slot s lives, or "" when this version of
// the format has no place for it (the target is then inlined).
func section(s slot, version int, minor31 bool) []string {
	if version == 2 {
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
	name := map[slot]string{
		sSchema: "schemas", sParam: "parameters", sResponse: "responses", sHeader: "headers",
		sRequestBody: "requestBodies", sExample: "examples", sSecurityScheme: "securitySchemes",
		sLink: "links", sCallback: "callbacks",
	}[s]
	if s == sPathItem && minor31 {
		name = "pathItems"
	}
	if name == "" {
		return nil
	}
	return []string{"components", name}
}
