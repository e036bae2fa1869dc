package emulator

import (
	"fmt"
	"html/template"
	"strings"
)

// A schema is shown as a nested property table: named schemas (under
// definitions or components/schemas) are followed and shown inline, a
// named schema already open above is a link to its own section (a cycle),
// and so is one beyond the budget of nested rows, which keeps a page
// bounded when a large description nests big schemas in each other.

// maxNestedRows is how many rows one schema shows below its top level.
const maxNestedRows = 60

// maxDepth bounds nesting even within the budget (deep anonymous objects).
const maxDepth = 12

// schemaView is a schema as the page shows it.
type schemaView struct {
	Type        string // object, array, string, "string | null"...
	Format      string
	Name, Href  string // a named schema and its section
	Cut         string // why it is not expanded here: "cycle" or "budget"
	Title       string
	Description template.HTML
	Facts       []string // constraints and flags: "≥ 1", "read-only"
	Enum        []string
	Default     string
	Example     string
	Props       []property
	More        int         // properties not shown (budget)
	Additional  *schemaView // additionalProperties
	Items       *schemaView
	Combo       string // "one of", "any of", "all of"
	Variants    []*schemaView
	Not         *schemaView
}

// property is a row of a property table.
type property struct {
	Name     string
	Required bool
	Schema   *schemaView
}

// Nested reports whether the view has rows or parts shown below its type.
func (v *schemaView) Nested() bool {
	if v == nil || v.Cut != "" {
		return false
	}
	return len(v.Props) > 0 || v.More > 0 || v.Additional != nil || v.Items.Nested() || len(v.Variants) > 0 || v.Not != nil
}

// schemas expands the schemas of one description.
type schemas struct {
	root   *object
	prefix string // where named schemas live: "#/definitions/"
	href   func(name string) string
	md     *markdown
}

// expansion is one schema tree being expanded: its budget and the named
// schemas open above the current one.
type expansion struct {
	*schemas
	rows int
	open []string // named schemas and references being expanded
}

// view expands s, a schema object, a boolean schema, or a reference.
func (sc *schemas) view(s any) *schemaView {
	e := &expansion{schemas: sc}
	return e.schema(s, 0)
}

// named expands the named schema's own section: the schema itself, not a
// link to it.
func (sc *schemas) named(name string, s any) *schemaView {
	e := &expansion{schemas: sc, open: []string{sc.prefix + escapePointer(name)}}
	return e.schema(s, 0)
}

func (e *expansion) schema(s any, depth int) *schemaView {
	switch t := s.(type) {
	case bool:
		if t {
			return &schemaView{Type: "any"}
		}
		return &schemaView{Type: "never"}
	case *object:
		if ref, ok := t.get("$ref").(string); ok {
			return e.ref(ref, t, depth)
		}
		return e.inline(t, depth)
	}
	return &schemaView{Type: "any"}
}

// ref follows a reference: a named schema is expanded unless it is open
// above (a cycle) or the budget is spent, in which cases it is a link.
func (e *expansion) ref(ref string, at *object, depth int) *schemaView {
	name, isNamed := componentKey(ref, e.prefix)
	for _, o := range e.open {
		if o == ref {
			return e.link(name, isNamed, ref, "cycle")
		}
	}
	if depth > 0 && (e.rows >= maxNestedRows || depth >= maxDepth) {
		return e.link(name, isNamed, ref, "budget")
	}
	target := resolve(e.root, ref)
	if target == nil {
		return &schemaView{Type: ref, Cut: "unresolved"}
	}
	e.open = append(e.open, ref)
	v := e.schema(target, depth)
	e.open = e.open[:len(e.open)-1]
	if isNamed {
		v.Name, v.Href = name, e.href(name)
	}
	// Siblings of $ref (OpenAPI 3.1): a description beside the reference
	// wins over the target's.
	if d := at.str("description"); d != "" {
		v.Description = e.md.render(d)
	}
	return v
}

func (e *expansion) link(name string, isNamed bool, ref, why string) *schemaView {
	if !isNamed {
		return &schemaView{Type: ref, Cut: why}
	}
	return &schemaView{Name: name, Href: e.href(name), Cut: why}
}

// inline expands a schema object.
func (e *expansion) inline(s *object, depth int) *schemaView {
	v := &schemaView{
		Type: typeOf(s), Format: s.str("format"), Title: s.str("title"),
		Description: e.md.render(s.str("description")),
		Facts:       constraints(s),
	}
	if v.Title == s.str("description") {
		v.Title = "" // said once is enough
	}
	for _, x := range enumOf(s) {
		v.Enum = append(v.Enum, literal(x, maxLiteral))
	}
	if s.has("default") {
		v.Default = literal(s.get("default"), maxLiteral)
	}
	if ex, ok := exampleOf(s); ok {
		v.Example = literal(ex, maxLiteral)
	}
	if depth >= maxDepth {
		v.Cut = "budget"
		return v
	}
	if items := s.get("items"); items != nil {
		v.Items = e.schema(items, depth+1)
		if v.Type == "" {
			v.Type = "array"
		}
	}
	e.properties(v, s, depth)
	e.combination(v, s, depth)
	if not := s.get("not"); not != nil {
		v.Not = e.schema(not, depth+1)
	}
	return v
}

// properties lists an object's properties (and allOf's, merged), as many
// as the budget allows below the top level.
func (e *expansion) properties(v *schemaView, s *object, depth int) {
	required := map[string]bool{}
	for _, r := range s.strs("required") {
		required[r] = true
	}
	props := s.obj("properties")
	for _, name := range keysOf(props) {
		if depth > 0 && e.rows >= maxNestedRows {
			v.More++
			continue
		}
		e.rows++
		v.Props = append(v.Props, property{Name: name, Required: required[name], Schema: e.schema(props.get(name), depth+1)})
	}
	if v.Type == "" && len(v.Props) > 0 {
		v.Type = "object"
	}
	switch ap := s.get("additionalProperties").(type) {
	case *object:
		v.Additional = e.schema(ap, depth+1)
	case bool:
		if ap && v.Type == "object" {
			v.Additional = &schemaView{Type: "any"}
		}
	}
}

// combination lists oneOf, anyOf and allOf parts.
func (e *expansion) combination(v *schemaView, s *object, depth int) {
	for _, c := range []struct{ key, label string }{{"allOf", "all of"}, {"oneOf", "one of"}, {"anyOf", "any of"}} {
		parts, _ := s.get(c.key).([]any)
		if len(parts) == 0 {
			continue
		}
		v.Combo = c.label
		for _, p := range parts {
			v.Variants = append(v.Variants, e.schema(p, depth+1))
		}
		if d, _ := s.get("discriminator").(*object); d != nil && d.str("propertyName") != "" {
			v.Facts = append(v.Facts, "discriminator: "+d.str("propertyName"))
		}
		return // one combination shown; a schema rarely has two
	}
}

// typeOf names a schema's type: OpenAPI 3.1's type arrays and 3.0's
// nullable read as "string | null".
func typeOf(s *object) string {
	var types []string
	switch t := s.get("type").(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok {
				types = append(types, str)
			}
		}
	}
	if s.isTrue("nullable") {
		types = append(types, "null")
	}
	if len(types) == 0 && s.has("const") {
		return "const " + literal(s.get("const"), maxLiteral)
	}
	return strings.Join(types, " | ")
}

func enumOf(s *object) []any {
	arr, _ := s.get("enum").([]any)
	return arr
}

// exampleOf answers a schema's example (or the first of 3.1's examples).
func exampleOf(s *object) (any, bool) {
	if s.has("example") {
		return s.get("example"), true
	}
	if arr, ok := s.get("examples").([]any); ok && len(arr) > 0 {
		return arr[0], true
	}
	return nil, false
}

// constraints lists what restricts a value, in the words of the docs
// people know: "≥ 1", "length ≤ 50", "pattern ^a$".
func constraints(s *object) []string {
	var out []string
	// The bounds: Swagger 2.0 and OpenAPI 3.0 make minimum exclusive with a
	// flag, OpenAPI 3.1 gives exclusiveMinimum a number of its own.
	for _, b := range []struct{ key, exclusiveKey, incl, excl string }{
		{"minimum", "exclusiveMinimum", "≥", ">"}, {"maximum", "exclusiveMaximum", "≤", "<"},
	} {
		if s.has(b.key) {
			op := b.incl
			if s.isTrue(b.exclusiveKey) {
				op = b.excl
			}
			out = append(out, op+" "+literal(s.get(b.key), maxLiteral))
		}
		if _, isFlag := s.get(b.exclusiveKey).(bool); s.has(b.exclusiveKey) && !isFlag {
			out = append(out, b.excl+" "+literal(s.get(b.exclusiveKey), maxLiteral))
		}
	}
	out = appendRange(out, s, "length", "minLength", "maxLength")
	out = appendRange(out, s, "items", "minItems", "maxItems")
	out = appendRange(out, s, "properties", "minProperties", "maxProperties")
	if s.has("multipleOf") {
		out = append(out, "multiple of "+literal(s.get("multipleOf"), maxLiteral))
	}
	if p := s.str("pattern"); p != "" {
		out = append(out, "pattern "+cut(p, maxLiteral))
	}
	for _, f := range []struct{ key, word string }{
		{"uniqueItems", "unique items"}, {"readOnly", "read-only"}, {"writeOnly", "write-only"}, {"deprecated", "deprecated"},
	} {
		if s.isTrue(f.key) {
			out = append(out, f.word)
		}
	}
	return out
}

func appendRange(out []string, s *object, what, minKey, maxKey string) []string {
	lo, hi := s.has(minKey), s.has(maxKey)
	switch {
	case lo && hi:
		return append(out, fmt.Sprintf("%s %s–%s", what, literal(s.get(minKey), maxLiteral), literal(s.get(maxKey), maxLiteral)))
	case lo:
		return append(out, fmt.Sprintf("%s ≥ %s", what, literal(s.get(minKey), maxLiteral)))
	case hi:
		return append(out, fmt.Sprintf("%s ≤ %s", what, literal(s.get(maxKey), maxLiteral)))
	}
	return out
}
