package openapi

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// Schema Objects, checked against what the description's version allows:
// a misspelt type, a string where a number goes, required: true inside a
// schema, enum given one value. Each is an error at the value's file, line
// and column, all of them in one run.
//
// The checks read each schema's own keywords where it is written (a $ref is
// not followed: its target is checked where it stands), so the tree and the
// single pass check the same values. The single pass cannot afford to keep
// every schema: it reads the keywords of each schema into nodes it lets go
// of once they are checked (schemaPass).
//
// Chosen by measurement (GitHub's REST description, 13 MB of JSON, on a
// shared 2-core machine, 2026-11-24): the OpenAPI Initiative's JSON Schema
// for 3.0 run through github.com/santhosh-tekuri/jsonschema/v6 took 2.0 s
// and 100 MB of peak memory (0.8 s to read the document into Go values,
// 1.1 s to validate it), before mapping a single error back to a line,
// where a whole dry run takes under 0.1 s and 30 MB. These checks, made in
// the single pass as it reads, took the dry run from 0.084 s to 0.093 s of
// CPU time (means of 20 runs each), from 13.2 MB to 13.3 MB allocated, and
// left its peak memory at 30 MB.
//
// What each version allows: in Swagger 2.0 and OpenAPI 3.0 a schema is a
// mapping (additionalProperties may also be true or false), type is one
// name (Swagger 2.0 adds file), nullable is OpenAPI 3.0's, and
// exclusiveMinimum and exclusiveMaximum are true or false. From OpenAPI 3.1
// on, schemas are JSON Schema 2020-12: true and false are schemas, type may
// be a list and may name null, and exclusiveMinimum and exclusiveMaximum are
// numbers. Keywords a version does not define are left alone (const,
// prefixItems, $defs and the like are JSON Schema's, and extensions are
// everyone's), as are a $ref's siblings before 3.1, which those versions
// ignore.
//
// What no version allows is an error. What another version allows (null or
// a list of types before 3.1, a boolean schema before 3.1, exclusiveMinimum
// in the other versions' form, nullable outside 3.0), and a null or a list
// where a schema goes, is a warning: published descriptions have them (the
// corpus of FIDELITY.md holds several), the tools that render them show
// something sensible, and a run that published them yesterday should not
// stop today unless fail-on-warnings asks it to.

// report adds a finding: an error unless it says otherwise.
type report func(n *Node, msg string, sev ...Severity)

// checkedAs is what an object at a place is checked as.
type checkedAs uint8

const (
	notChecked checkedAs = iota
	asSchema
	// asItems: a Swagger 2.0 parameter or header, whose restrictions
	// (enum, maxLength and the rest) are written on the object itself;
	// its type and required are checked with the parameter.
	asItems
)

// schemaRules are the checks of one format.
type schemaRules struct{ f format }

// as is what an object at p is checked as.
func (r schemaRules) as(p place) checkedAs {
	switch {
	case p.s == sSchema:
		return asSchema
	case r.f.major == 2 && (p.s == sParam || p.s == sHeader):
		return asItems
	}
	return notChecked
}

// ignoresSiblings reports whether a $ref makes the other keywords of its
// object meaningless: before OpenAPI 3.1 they are ignored.
func (r schemaRules) ignoresSiblings() bool { return !r.f.since31() }

// typeNames are the names type may take.
func (r schemaRules) typeNames() []string {
	switch {
	case r.f.major == 2:
		return typeNames2
	case r.f.since31():
		return typeNames31
	}
	return typeNames30
}

var (
	typeNames30 = []string{"string", "number", "integer", "boolean", "array", "object"}
	// Swagger 2.0: a file, as a response's schema (and a form
	// parameter's type, checked with the parameter).
	typeNames2  = append(typeNames30[:6:6], "file")
	typeNames31 = append(typeNames30[:6:6], "null")
)

// value checks the kind of a value where a schema goes, under key (or an
// item of a list of schemas, key "").
func (r schemaRules) value(v *Node, key string, add report) {
	switch {
	case v.Kind == Object:
	case v.Kind == Bool && (r.f.since31() || key == "additionalProperties"):
	case v.Kind == Array && key == "items" && r.f.major == 2:
		// Swagger 2.0's JSON Schema draft 4 lets items be a list.
	case v.Kind == Bool:
		add(v, fmt.Sprintf("true and false are schemas from OpenAPI 3.1 on: before, write {} for any value, not %s", v.Scalar()), Warning)
	case v.Kind == Array && key == "items":
		fix := "a list of schemas, one for each position, is prefixItems from OpenAPI 3.1 on"
		if r.f.since31() {
			fix = "for a schema for each position, use prefixItems"
		}
		add(v, "items is one schema, for every item of the array, not a list: "+fix, Warning)
	default:
		want := "a mapping of keywords, such as {type: string}"
		if r.f.since31() {
			want += ", or true or false"
		}
		msg := fmt.Sprintf("a schema must be %s, not %s", want, shown(v))
		if v.Kind == Null || v.Kind == Array {
			// Tools differ on these (most show any value), and published
			// descriptions have them.
			add(v, msg, Warning)
		} else {
			add(v, msg)
		}
	}
}

// keyword checks one keyword's value of an object checked as as.
func (r schemaRules) keyword(as checkedAs, key string, v *Node, add report) {
	if as == asItems && (key == "type" || key == "required") {
		return
	}
	bad := func(format string, args ...any) { add(v, key+" "+fmt.Sprintf(format, args...)) }
	// What a version does not define is ignored by its tools: a warning.
	moot := func(format string, args ...any) { add(v, key+" "+fmt.Sprintf(format, args...), Warning) }
	switch key {
	case "type":
		r.checkType(v, add)
	case "required":
		if v.Kind != Array {
			fix := ""
			if v.Kind == Bool {
				fix = ": required: true belongs on a parameter or a request body"
			}
			bad("inside a schema lists the names of the properties that must be present, such as required: [id, name], not %s%s", shown(v), fix)
			return
		}
		for _, it := range v.Elems() {
			if it.Kind != String {
				add(it, fmt.Sprintf("required lists property names, which are strings, not %s", shown(it)))
			}
		}
	case "properties", "patternProperties", "$defs", "dependentSchemas":
		if key != "properties" && !r.f.since31() {
			return // not a keyword before 3.1: left alone
		}
		if v.Kind != Object {
			bad("must be a mapping of names to schemas, not %s", shown(v))
		}
	case "enum":
		switch {
		case v.Kind != Array:
			bad("must be a list of the allowed values, such as enum: [red, green] (one value is enum: [red]), not %s", shown(v))
		case len(v.Elems()) == 0:
			bad("lists no value: list the allowed values, or remove enum")
		}
	case "allOf", "anyOf", "oneOf", "prefixItems":
		if key == "prefixItems" && !r.f.since31() {
			return
		}
		switch {
		case v.Kind != Array:
			bad("must be a list of schemas, not %s", shown(v))
		case len(v.Elems()) == 0:
			bad("lists no schema: list at least one, or remove %s", key)
		}
	case "minimum", "maximum":
		if v.Kind != Number {
			bad("must be a number, not %s", shown(v))
		}
	case "multipleOf":
		if n := num(v); n == nil || n.Sign() <= 0 {
			bad("must be a number greater than 0, not %s", shown(v))
		}
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
		if (key == "minContains" || key == "maxContains") && !r.f.since31() {
			return
		}
		if n := num(v); n == nil || n.Sign() < 0 || !n.IsInt() {
			bad("must be a whole number, 0 or more, not %s", shown(v))
		}
	case "exclusiveMinimum", "exclusiveMaximum":
		bound := strings.ToLower(strings.TrimPrefix(key, "exclusive"))
		now, then := "is the bound itself from OpenAPI 3.1 on, a number", fmt.Sprintf("write %s: 10 in place of %s: 10 and %s: true", key, bound, key)
		if !r.f.since31() {
			now, then = fmt.Sprintf("is true or false before OpenAPI 3.1 (it makes %s exclusive)", bound), fmt.Sprintf("write %s: 10 and %s: true in place of %s: 10", bound, key, key)
		}
		switch {
		case v.Kind == Number && r.f.since31(), v.Kind == Bool && !r.f.since31():
		case v.Kind == Number || v.Kind == Bool: // the other versions' form
			moot("%s, not %s: %s", now, shown(v), then)
		default:
			bad("%s, not %s", now, shown(v))
		}
	case "nullable":
		switch {
		case r.f.since31():
			moot(`has no effect from OpenAPI 3.1 on: add "null" to type, such as type: [string, "null"]`)
		case r.f.major == 2:
			moot("has no effect in Swagger 2.0 (it came with OpenAPI 3.0): write x-nullable: true, which Swagger 2.0 tools read")
		case v.Kind != Bool:
			bad("must be true or false, not %s", shown(v))
		}
	}
}

// anyTypeNames are the type names of every version.
var anyTypeNames = []string{"string", "number", "integer", "boolean", "array", "object", "null", "file"}

// checkType checks a type: one name, or from 3.1 on a list of them. A name
// or a list another version allows is a warning.
func (r schemaRules) checkType(v *Node, add report) {
	if v.Kind != Array {
		r.typeName(v, false, add)
		return
	}
	switch {
	case r.f.major == 2:
		add(v, "type is a single type name in Swagger 2.0, not a list: lists of types came with OpenAPI 3.1", Warning)
	case !r.f.since31():
		add(v, `type is a single type name before OpenAPI 3.1, not a list: write nullable: true in place of "null", or oneOf for several types`, Warning)
	}
	if len(v.Elems()) == 0 {
		add(v, "type lists no type: list at least one, or remove type")
	}
	for i, t := range v.Elems() {
		r.typeName(t, true, add)
		if t.Kind == String && slices.ContainsFunc(v.Elems()[:i], func(u *Node) bool { return u.Kind == String && u.Scalar() == t.Scalar() }) {
			add(t, fmt.Sprintf("type lists %q twice", t.Scalar()), Warning)
		}
	}
}

// typeName checks one name of a type, listed or not.
func (r schemaRules) typeName(t *Node, listed bool, add report) {
	names := r.typeNames()
	switch {
	case t.Kind == Null:
		// YAML reads an unquoted null as no value: the name was meant.
		add(t, `type names null, not the type name "null": write it quoted, "null"`, Warning)
	case t.Kind != String:
		add(t, fmt.Sprintf("type must be a type name, one of %s, not %s", strings.Join(names, ", "), shown(t)))
	case slices.Contains(names, t.Scalar()):
	case slices.Contains(anyTypeNames, t.Scalar()):
		if !listed || r.f.since31() { // else the list is the news
			add(t, r.otherVersionsType(t.Scalar()), Warning)
		}
	default:
		add(t, fmt.Sprintf("type %q is not one of %s%s", t.Scalar(), strings.Join(names, ", "), didYouMean(t.Scalar(), names)))
	}
}

// otherVersionsType says what to write for a type name this version does
// not have.
func (r schemaRules) otherVersionsType(name string) string {
	switch {
	case name == "file":
		return `type "file" is Swagger 2.0's: from OpenAPI 3.0 on, a file is {type: string, format: binary}`
	case name == "null" && r.f.major == 2:
		return `type "null" came with OpenAPI 3.1: in Swagger 2.0 write x-nullable: true`
	case name == "null":
		return `type "null" came with OpenAPI 3.1: before 3.1 write nullable: true`
	}
	return fmt.Sprintf("type %q is not in this version", name)
}

// shown is a value as a message names it: its kind, and a number's or a
// boolean's text. A string's text is not shown: the single pass reads only
// the kind of most values it checks.
func shown(v *Node) string {
	kind := article(v.Kind) + " " + v.Kind.String()
	if (v.Kind == Number || v.Kind == Bool) && len(v.Scalar()) <= 40 {
		return kind + " (" + v.Scalar() + ")"
	}
	return kind
}

// didYouMean names the one of names nearest s, for a finding that says s
// is not one of them, or is "" when none is near: the one whose start
// agrees with s's the longest, two letters or more (objekt, obj and Object
// are object), else the one fewest edits away, one for a name of up to
// five letters and two for a longer one, a swap of two letters counting
// one (qeury is query, strng is string). Every finding about a value
// outside a fixed set of names takes its suggestion from here.
func didYouMean(s string, names []string) string {
	if s == "" {
		return ""
	}
	// Only a text about as long as a name can be near one: the rest of a
	// long one is not read.
	if len(s) > maxNameLen {
		s = s[:maxNameLen]
	}
	s = strings.ToLower(s)
	best, most := "", 1
	for _, n := range names {
		low := strings.ToLower(n) // formData
		i := 0
		for i < len(s) && i < len(low) && s[i] == low[i] {
			i++
		}
		if i > most {
			best, most = n, i
		}
	}
	if best == "" {
		fewest := 0
		for _, n := range names {
			limit := 1
			if len(n) > 5 {
				limit = 2
			}
			if d := namerule.EditsApart(s, strings.ToLower(n), limit); d <= limit && (best == "" || d < fewest) {
				best, fewest = n, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// maxNameLen is more than any name didYouMean suggests is long, with room
// for the edits it allows.
const maxNameLen = 32

// schemas checks every Schema Object of the tree where it is written (and
// Swagger 2.0's parameters and headers, for their restrictions).
func (v *validator) schemas() {
	r := schemaRules{v.fmt}
	v3 := v.version == 3
	var found []Finding
	add := func(n *Node, msg string, sev ...Severity) {
		f := Finding{Severity: severity(sev), Msg: msg, Pos: n.Pos}
		if n.Src != nil {
			f.File = n.Src.Name
		} else if v.root.Src != nil {
			f.File = v.root.Src.Name
		}
		found = append(found, f)
	}
	// kind: whether the value's kind is checked. A member of a list of
	// schemas written as a mapping, or an item of a mapping of schemas
	// written as a list, is not (the container's check said it all), but
	// what it holds is.
	var walk func(n *Node, p place, key string, kind bool)
	walk = func(n *Node, p place, key string, kind bool) {
		if p.s == sSchema && kind {
			r.value(n, key, add)
		}
		switch n.Kind {
		case Object:
			as := r.as(p)
			if as != notChecked {
				if _, ref := refOf(n); ref && r.ignoresSiblings() {
					return
				}
				for _, f := range n.Fields() {
					r.keyword(as, f.Key, f.Value, add)
				}
			}
			for _, f := range n.Fields() {
				if c := child(p, f.Key, v3); f.Key != "$ref" && leadsToSchemas(c) {
					walk(f.Value, c, keywordOf(as, f.Key), p.s != sSchemaList)
				}
			}
		case Array:
			if c := child(p, "", v3); leadsToSchemas(c) {
				for _, it := range n.Elems() {
					walk(it, c, "", p.s != sNamed)
				}
			}
		}
	}
	walk(v.root, at(sDoc), "", true)
	v.findings = addNew(v.findings, found)
}

// addNew appends the schema findings fs to before, in place order, but for
// those at a value before has an error about already (a parameter's
// schema's type is checked with the parameter too), and but for repeats (a
// YAML alias is the same value in several places).
func addNew(before, fs []Finding) []Finding {
	type at struct {
		file string
		pos  Pos
	}
	seen := map[at]bool{}
	for _, f := range before {
		if f.Severity == Error {
			seen[at{f.File, f.Pos}] = true
		}
	}
	for _, f := range inPlaceOrder(fs) {
		if k := (at{f.File, f.Pos}); !seen[k] {
			before = append(before, f)
			seen[k] = true
		}
	}
	return before
}

// severity is a report's: Error unless given.
func severity(sev []Severity) Severity {
	if len(sev) > 0 {
		return sev[0]
	}
	return Error
}

// keywordOf is key when it is a keyword of an object checked as as, such
// as additionalProperties, and "" for a name (a property's, a component's).
func keywordOf(as checkedAs, key string) string {
	if as == notChecked {
		return ""
	}
	return key
}

// leadsToSchemas reports whether a value at p may hold a schema: data and
// what the description does not define do not.
func leadsToSchemas(p place) bool { return p.s != sData && p.s != sOther }

// inPlaceOrder sorts schema findings by file and place: the single pass
// meets a schema's keywords after those of the schemas inside them.
func inPlaceOrder(fs []Finding) []Finding {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return fs
}

// schemaPass checks schemas as the single pass reads them. The pass keeps
// little of a description; the keywords of a schema it does not keep are
// read into nodes of a scratch arena, checked, and let go.
//
// A description may name its version after its first schemas: until then
// the pass checks them by the rules of each format it may turn out to be
// (Swagger 2.0, OpenAPI 3.0, 3.1 and later), and keeps the findings of the
// one it is.
type schemaPass struct {
	root  *Node // the description's top, as the pass keeps it
	sets  []*ruleSet
	src   *Source
	tmp   int // > 0: nodes go to the arena
	arena arena
}

// ruleSet is the findings by one format's rules.
type ruleSet struct {
	rules    schemaRules
	findings []Finding
	add      report
}

// passObject is what the pass checks of one object it reads, by each set
// of rules.
type passObject struct {
	pl      places
	as      [3]checkedAs
	checked bool   // by any set
	start   [3]int // findings before it: a $ref may make them moot
	key     string // the member being read, when the checks look at its key
	ref     bool
	mark    arenaMark
}

// init chooses the rules, the first time a place may hold a schema.
func (s *schemaPass) init() {
	if s.sets != nil {
		return
	}
	fs := []format{{2, 0}, {3, 0}, {3, 1}}
	if s.root != nil && (s.root.Get("swagger") != nil || s.root.Get("openapi") != nil) {
		fs = []format{formatOf(s.root)}
	}
	for _, f := range fs {
		set := &ruleSet{rules: schemaRules{f}}
		src := s.src
		set.add = func(n *Node, msg string, sev ...Severity) {
			set.findings = append(set.findings, Finding{Severity: severity(sev), Msg: msg, File: src.Name, Pos: n.Pos})
		}
		s.sets = append(s.sets, set)
	}
}

// mayCheck reports whether a value at pl may be checked by some format's
// rules: the quick test the pass makes of every value.
func mayCheck(pl places) bool {
	return pl.v2.s == sSchema || pl.v3.s == sSchema || pl.v2.s == sParam || pl.v2.s == sHeader
}

// placeIn is the place that holds by a set's rules.
func placeIn(set *ruleSet, pl places) place {
	if set.rules.f.major == 2 {
		return pl.v2
	}
	return pl.v3
}

// isSchema reports whether a value at pl, in an object (item false) or an
// array (item true) at parent, is a schema by any set's rules.
func (s *schemaPass) isSchema(parent, pl places, item bool) bool {
	if !mayCheck(pl) {
		return false
	}
	s.init()
	for _, set := range s.sets {
		if schemaIn(set, parent, pl, item) {
			return true
		}
	}
	return false
}

// schemaIn reports whether a value at pl, in an object or an array at
// parent, is a schema whose kind a set's rules check: not the items of a
// mapping of schemas written as a list, nor the members of a list of
// schemas written as a mapping (the container's check said it all).
func schemaIn(set *ruleSet, parent, pl places, item bool) bool {
	if placeIn(set, pl).s != sSchema {
		return false
	}
	if item {
		return placeIn(set, parent).s != sNamed
	}
	return placeIn(set, parent).s != sSchemaList
}

// object starts an object at pl; top is the object when it is the
// description's top.
func (s *schemaPass) object(pl places, top *Node) passObject {
	o := passObject{pl: pl}
	if top != nil {
		s.root = top
	}
	if !mayCheck(pl) {
		return o
	}
	s.init()
	for i, set := range s.sets {
		o.as[i] = set.rules.as(placeIn(set, pl))
		o.start[i] = len(set.findings)
		o.checked = o.checked || o.as[i] != notChecked
	}
	return o
}

// mode is how to read the value of key, of mode kept, in the object o: a
// value to check that the pass does not keep is read into the arena. peek
// is the kind of the value: the decoder's PeekKind, asked only once key is
// no longer needed.
func (s *schemaPass) mode(o *passObject, key string, cpl places, kept mode, peek func() jsontext.Kind) mode {
	if key == "$ref" {
		o.ref = true
	}
	if !o.checked && !mayCheck(cpl) {
		return kept // the quick way, for most values of a description
	}
	// key may be the decoder's buffer, which reading the value overwrites.
	o.key = ""
	read := mCopy
	if o.checked {
		o.key, read = schemaKeyword(key)
	}
	if kept != mCopy {
		return kept
	}
	if read == mCopy && s.isSchema(o.pl, cpl, false) {
		read = mStub // its kind
	}
	if read == mStub && peek() == '{' {
		read = mCopy // a mapping: all a stub would tell
	}
	if read != mCopy {
		o.mark = s.arena.mark()
		s.tmp++
	}
	return read
}

// schemaKeyword is key when the checks look at it, as one string for all its
// uses (key may be the decoder's buffer), and how much of its value they
// read: numbers, booleans and type whole, the kind of each item of a list
// (required, enum, allOf and the like), the kind of a mapping of schemas;
// or "" and mCopy.
func schemaKeyword(key string) (string, mode) {
	switch key {
	case "type":
		return "type", mFull
	case "minimum":
		return "minimum", mFull
	case "maximum":
		return "maximum", mFull
	case "multipleOf":
		return "multipleOf", mFull
	case "minLength":
		return "minLength", mFull
	case "maxLength":
		return "maxLength", mFull
	case "minItems":
		return "minItems", mFull
	case "maxItems":
		return "maxItems", mFull
	case "minProperties":
		return "minProperties", mFull
	case "maxProperties":
		return "maxProperties", mFull
	case "minContains":
		return "minContains", mFull
	case "maxContains":
		return "maxContains", mFull
	case "exclusiveMinimum":
		return "exclusiveMinimum", mFull
	case "exclusiveMaximum":
		return "exclusiveMaximum", mFull
	case "nullable":
		return "nullable", mFull
	case "required":
		return "required", mNamedStubs
	case "enum":
		return "enum", mNamedStubs
	case "allOf":
		return "allOf", mNamedStubs
	case "anyOf":
		return "anyOf", mNamedStubs
	case "oneOf":
		return "oneOf", mNamedStubs
	case "prefixItems":
		return "prefixItems", mNamedStubs
	case "properties":
		return "properties", mStub
	case "patternProperties":
		return "patternProperties", mStub
	case "$defs":
		return "$defs", mStub
	case "dependentSchemas":
		return "dependentSchemas", mStub
	case "items":
		return "items", mCopy
	case "additionalProperties":
		return "additionalProperties", mCopy
	}
	return "", mCopy
}

// member checks the value v of the key mode was last asked about, read in
// mode read, in the object o.
func (s *schemaPass) member(o *passObject, cpl places, kept, read mode, v *Node) {
	if v != nil && (o.checked || mayCheck(cpl)) {
		s.init()
		for i, set := range s.sets {
			if schemaIn(set, o.pl, cpl, false) {
				set.rules.value(v, keywordOf(o.as[i], o.key), set.add)
			}
			if o.as[i] != notChecked {
				set.rules.keyword(o.as[i], o.key, v, set.add)
			}
		}
	}
	if kept == mCopy && read != mCopy {
		s.tmp--
		s.arena.release(o.mark)
	}
}

// end ends the object o.
func (s *schemaPass) end(o *passObject) {
	if !o.ref {
		return
	}
	for i, set := range s.sets {
		if o.as[i] != notChecked && set.rules.ignoresSiblings() {
			set.findings = set.findings[:o.start[i]]
		}
	}
}

// item is how to read an item, of mode kept, of an array at pl whose items
// are at cpl.
func (s *schemaPass) item(pl, cpl places, kept mode, peek func() jsontext.Kind) (read mode, mark arenaMark) {
	if kept != mCopy || !s.isSchema(pl, cpl, true) || peek() == '{' {
		return kept, mark
	}
	s.tmp++
	return mStub, s.arena.mark()
}

// itemRead checks an item v of a list of schemas, read in mode read.
func (s *schemaPass) itemRead(pl, cpl places, kept, read mode, mark arenaMark, v *Node) {
	if v != nil && mayCheck(cpl) {
		s.init()
		for _, set := range s.sets {
			if schemaIn(set, pl, cpl, true) {
				set.rules.value(v, "", set.add)
			}
		}
	}
	if kept == mCopy && read != mCopy {
		s.tmp--
		s.arena.release(mark)
	}
}

// done adds to before the findings by the rules of root's format. A
// description whose version changed after a schema was checked (a second
// version key) gives way.
func (s *schemaPass) done(root *Node, before []Finding) ([]Finding, error) {
	f := formatOf(root)
	if f.since31() {
		f.minor = 1 // the rules of 3.1 hold for what comes after
	}
	for _, set := range s.sets {
		if g := set.rules.f; g == f || (g.since31() && f.since31()) {
			return addNew(before, set.findings), nil
		}
	}
	if s.sets != nil {
		return nil, gaveWay("the version changed after a schema")
	}
	return before, nil
}

// arena hands out nodes that are let go of in the order they were taken:
// blocks that are never moved, reused from a mark on.
type arena struct {
	blocks [][]Node
	at     arenaMark
}

// arenaMark is a place in an arena: block and index.
type arenaMark struct{ b, i int }

func (a *arena) mark() arenaMark { return a.at }

func (a *arena) release(m arenaMark) { a.at = m }

func (a *arena) node() *Node {
	if a.at.b == len(a.blocks) {
		a.blocks = append(a.blocks, make([]Node, 1024))
	}
	n := &a.blocks[a.at.b][a.at.i]
	if a.at.i++; a.at.i == len(a.blocks[a.at.b]) {
		a.at = arenaMark{a.at.b + 1, 0}
	}
	// Keep the lists' room: a node reused holds the same kind of values.
	*n = Node{kids: n.kids, room: n.room}
	return n
}
