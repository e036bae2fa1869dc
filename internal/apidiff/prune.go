package apidiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// The comparison costs what the change costs: the library is given only the
// parts of the two documents that can carry a change, which on a large API
// with a few edits is a small fraction of it.
//
// A document is cut into units: each path item, and each named component
// (components.<section>.<name> in OpenAPI 3, definitions, parameters and
// responses in Swagger 2). Everything else (openapi, info, servers,
// security, tags, webhooks, extensions, security schemes) is document-level
// and always given whole. A unit is changed when its JSON differs between the
// sides, or when it exists on one side only (but for a path whose only
// difference from one of the other side is the names of its path
// parameters: the same path, renamedPaths); and, through the $refs of
// either side, every unit that reaches a changed unit is changed too, since
// what the library compares is the content with its $refs followed. The
// library gets the changed path items (with every path that matches the
// same template, as it matches paths with their parameters' names left
// out), the changed components, the document-level parts, and whatever
// these refer to, which is the same on both sides and so adds nothing to
// the report; extensions that are the same on both sides are left out (the
// library reads them as written, without their $refs). The library compares
// info, tags, externalDocs, servers and extensions as the document's own,
// so they may differ; when any other document-level part differs (a global
// security requirement, a security scheme, the version of OpenAPI), or
// reaches a changed unit, every operation may be concerned and the
// documents are compared whole.

// unitKey names one unit: the section it is in ("paths",
// "components/schemas", "definitions") and its name there.
type unitKey struct{ sec, name string }

// doc is one side, indexed: the raw JSON of each top-level member and of
// each unit, and the units each part refers to.
type doc struct {
	swagger bool
	top     []member // the top-level members, in order
	// sections are the members of each unit section, in order.
	sections map[string][]member
	units    map[unitKey][]byte
	// level are the document-level parts outside the units, keyed by their
	// place ("info", "components/securitySchemes").
	level map[string][]byte
	refs  map[unitKey][]unitKey // what each unit refers to
	// levelRefs is what the document-level parts refer to.
	levelRefs []unitKey
	// wide is set by a reference to the whole document, which the units
	// cannot follow.
	wide bool
	// verbatim are the units given as they are written, with the fields
	// no check reads (lean.go).
	verbatim map[unitKey]bool
}

type member struct {
	key string
	raw []byte
}

// errNotIndexed is a document the index does not take apart: it is
// compared whole.
var errNotIndexed = errors.New("not an object")

// unitSections are the sections of named components that are units, by
// version.
var unitSections3 = map[string]bool{"schemas": true, "responses": true, "parameters": true, "examples": true,
	"requestBodies": true, "headers": true, "links": true, "callbacks": true, "pathItems": true}
var unitSections2 = map[string]bool{"definitions": true, "parameters": true, "responses": true}

// index takes a bundled JSON document apart.
func index(data []byte) (*doc, error) {
	top, err := members(data)
	if err != nil {
		return nil, err
	}
	d := &doc{top: top, sections: map[string][]member{}, units: map[unitKey][]byte{},
		level: map[string][]byte{}, refs: map[unitKey][]unitKey{}}
	for _, m := range top {
		if m.key == "swagger" {
			d.swagger = true
		}
	}
	addSection := func(sec string, raw []byte) error {
		ms, err := members(raw)
		if err != nil {
			return err
		}
		d.sections[sec] = ms
		for _, m := range ms {
			d.units[unitKey{sec, m.key}] = m.raw
		}
		return nil
	}
	for _, m := range top {
		switch {
		case m.key == "paths", d.swagger && unitSections2[m.key]:
			if err := addSection(m.key, m.raw); err != nil {
				return nil, err
			}
		case m.key == "components" && !d.swagger:
			comps, err := members(m.raw)
			if err != nil {
				return nil, err
			}
			for _, c := range comps {
				if unitSections3[c.key] {
					if err := addSection("components/"+c.key, c.raw); err != nil {
						return nil, err
					}
				} else {
					d.level["components/"+c.key] = c.raw
				}
			}
		default:
			d.level[m.key] = m.raw
		}
	}
	for k, raw := range d.units {
		d.refs[k] = d.refersTo(raw)
	}
	for k, raw := range d.level {
		if !isExtension(k) {
			d.levelRefs = append(d.levelRefs, d.refersTo(raw)...)
		}
	}
	return d, nil
}

// members are the members of a JSON object, each with its raw value, a
// slice of data.
func members(data []byte) ([]member, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil {
		return nil, err
	} else if tok.Kind() != '{' {
		return nil, errNotIndexed
	}
	var out []member
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := k.String()
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		out = append(out, member{key, data[end-int64(len(v)) : end]})
	}
	return out, nil
}

// refersTo is every unit that raw may refer to: the target of each string
// that is a local reference ("#/components/schemas/Book", a $ref, a link's
// operationRef, a discriminator's mapping) and, where a discriminator
// mapping may name a schema without a reference, each schema named by any
// string. It errs on the side of more: a reference too many costs a little
// more work, never a change missed.
func (d *doc) refersTo(raw []byte) []unitKey {
	var out []unitKey
	rest := raw
	for {
		i := bytes.Index(rest, []byte(`"#/`))
		if i < 0 {
			break
		}
		s, n := stringAt(rest[i:])
		rest = rest[i+max(n, 1):]
		if k, ok := d.target(s); ok {
			out = append(out, k)
		} else {
			out = append(out, d.section(s)...)
		}
	}
	if bytes.Contains(raw, []byte(`"mapping"`)) {
		sec := "components/schemas"
		if d.swagger {
			sec = "definitions"
		}
		for rest := raw; ; {
			i := bytes.IndexByte(rest, '"')
			if i < 0 {
				break
			}
			s, n := stringAt(rest[i:])
			rest = rest[i+max(n, 1):]
			if _, ok := d.units[unitKey{sec, s}]; ok {
				out = append(out, unitKey{sec, s})
			}
		}
	}
	return out
}

// stringAt reads the JSON string that starts b, and how many bytes it
// takes: its text is "" when it is not one.
func stringAt(b []byte) (string, int) {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			s, err := jsontext.AppendUnquote(nil, b[:i+1])
			if err != nil {
				return "", i + 1
			}
			return string(s), i + 1
		}
	}
	return "", len(b)
}

// target is the unit a local reference points into. A reference to the
// document-level parts needs no unit (they are given whole), nor does one
// to a whole section (section gives its units); one to the whole document
// sets wide.
func (d *doc) target(ref string) (unitKey, bool) {
	k, ok, whole := refUnit(ref, d.swagger)
	if whole {
		d.wide = true
	}
	return k, ok
}

// refUnit is the unit ref names in a document of the version swagger
// says, or in it; and whether it names the whole document.
func refUnit(ref string, swagger bool) (k unitKey, ok, whole bool) {
	frag, toks, ok := refTokens(ref)
	if !ok {
		return unitKey{}, false, false
	}
	sec, n := toks[0], 1
	if sec == "components" && !swagger {
		if len(toks) < 2 || !unitSections3[toks[1]] {
			return unitKey{}, false, false
		}
		sec, n = "components/"+toks[1], 2
	} else if sec != "paths" && !(swagger && unitSections2[sec]) {
		return unitKey{}, false, frag == "" || frag == "/"
	}
	if len(toks) <= n {
		return unitKey{}, false, false
	}
	return unitKey{sec, toks[n]}, true, false
}

// refTokens are the fragment of a local reference and its tokens,
// unescaped.
func refTokens(ref string) (string, []string, bool) {
	frag, err := url.PathUnescape(strings.TrimPrefix(ref, "#"))
	if err != nil {
		return "", nil, false
	}
	toks := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return frag, toks, true
}

// section is every unit of the section a reference names whole
// (#/components/schemas, #/paths, #/definitions), or of every section of
// components (#/components): what the library reads through it. None for
// any other reference.
func (d *doc) section(ref string) []unitKey {
	_, toks, ok := refTokens(ref)
	if !ok {
		return nil
	}
	var secs []string
	switch {
	case !d.swagger && len(toks) == 1 && toks[0] == "components":
		for sec := range unitSections3 {
			secs = append(secs, "components/"+sec)
		}
	case !d.swagger && len(toks) == 2 && toks[0] == "components" && unitSections3[toks[1]]:
		secs = []string{"components/" + toks[1]}
	case len(toks) == 1 && (toks[0] == "paths" || d.swagger && unitSections2[toks[0]]):
		secs = []string{toks[0]}
	}
	var out []unitKey
	for _, sec := range secs {
		for _, m := range d.sections[sec] {
			out = append(out, unitKey{sec, m.key})
		}
	}
	return out
}

// isExtension says whether a document-level part is an extension (x-...):
// the library reads it as it is written, without following its $refs.
func isExtension(key string) bool {
	_, name, _ := strings.Cut(key, "/")
	if name == "" {
		name = key
	}
	return strings.HasPrefix(name, "x-")
}

// aboutTheDocument says whether a document-level part is compared on its
// own, as the document's, and not as part of each operation's: a change to
// it is reported alike with or without the operations.
func aboutTheDocument(key string) bool {
	switch key {
	case "info", "tags", "externalDocs", "servers":
		return true
	}
	return isExtension(key)
}

// template is a path with its parameters' names left out, as the library
// matches paths: /books/{id} and /books/{bookId} are one endpoint.
var templateParam = regexp.MustCompile(`\{[^}]*\}`)

func template(path string) string { return templateParam.ReplaceAllString(path, "{}") }

// plan is what to give the library of each side; nil keeps all of it.
type plan struct {
	keep map[unitKey]bool
	// drop are the extensions (x-...) that are the same on both sides: the
	// library compares them as they are written, so they add nothing, and
	// they can be large (GitHub's x-webhooks).
	drop map[string]bool
	// same: the two documents say the same, so there is nothing to compare.
	same bool
	// changed are the units that changed (changedUnits); nil when the
	// documents are to be compared whole, or differ in what concerns
	// every operation.
	changed map[unitKey]bool
}

// changedUnits are the units of base and head that differ, or are on one
// side only (but for a path whose only difference from one of the other
// side is the names of its path parameters), and, through the $refs of
// either side, every unit that reaches one of them.
func changedUnits(base, head *doc) map[unitKey]bool {
	changed := map[unitKey]bool{}
	var queue []unitKey
	mark := func(k unitKey) {
		if !changed[k] {
			changed[k] = true
			queue = append(queue, k)
		}
	}
	renamed := renamedPaths(base, head)
	for k, v := range base.units {
		if w, ok := head.units[k]; (!ok || !bytes.Equal(v, w)) && !renamed[k] {
			mark(k)
		}
	}
	for k := range head.units {
		if _, ok := base.units[k]; !ok && !renamed[k] {
			mark(k)
		}
	}
	if len(queue) == 0 {
		return changed
	}
	referrers := map[unitKey][]unitKey{}
	for _, d := range []*doc{base, head} {
		for from, tos := range d.refs {
			for _, to := range tos {
				referrers[to] = append(referrers[to], from)
			}
		}
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, from := range referrers[k] {
			mark(from)
		}
	}
	return changed
}

// prune works out what of base and head can carry a change. A nil keep
// means the documents are to be compared whole.
func prune(base, head *doc) plan {
	if base.swagger != head.swagger || base.wide || head.wide {
		return plan{}
	}
	// The document-level parts: they are given whole, and a difference in
	// most of them concerns every operation.
	levelSame := true
	for _, l := range [][2]*doc{{base, head}, {head, base}} {
		for k, v := range l[0].level {
			if w, ok := l[1].level[k]; !ok || !bytes.Equal(v, w) {
				if !aboutTheDocument(k) {
					return plan{}
				}
				levelSame = false
			}
		}
	}
	drop := map[string]bool{}
	for k, v := range base.level {
		if isExtension(k) && bytes.Equal(v, head.level[k]) {
			drop[k] = true
		}
	}
	changed := changedUnits(base, head)
	if len(changed) == 0 {
		return plan{keep: map[unitKey]bool{}, drop: drop, same: levelSame, changed: changed}
	}
	for _, d := range []*doc{base, head} {
		for _, to := range d.levelRefs {
			if changed[to] {
				return plan{}
			}
		}
	}
	// Paths that the library matches as one endpoint go together.
	templates := map[string]bool{}
	for k := range changed {
		if k.sec == "paths" {
			templates[template(k.name)] = true
		}
	}
	keep := map[unitKey]bool{}
	for k := range changed {
		keep[k] = true
	}
	for _, d := range []*doc{base, head} {
		for _, m := range d.sections["paths"] {
			if templates[template(m.key)] {
				keep[unitKey{"paths", m.key}] = true
			}
		}
	}
	return plan{keep: keep, drop: drop, changed: changed}
}

// closure is keep with everything the kept parts refer to on either side,
// so that a unit that one side needs is given on both: a unit left out of
// one side only would read as removed or added.
func closure(keep map[unitKey]bool, sides ...*doc) map[unitKey]bool {
	out := map[unitKey]bool{}
	var queue []unitKey
	add := func(k unitKey) {
		if !out[k] {
			out[k] = true
			queue = append(queue, k)
		}
	}
	for k := range keep {
		add(k)
	}
	for _, d := range sides {
		for _, k := range d.levelRefs {
			add(k)
		}
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, d := range sides {
			for _, to := range d.refs[k] {
				add(to)
			}
		}
	}
	return out
}

// renamedPaths are the paths of either side that differ from one of the
// other only in the names of their path parameters: OpenAPI holds templated
// paths that differ only so to be the same path, and the library matches
// them, and compares their parameters by place. A pair is the same when it
// is the only path of its template on each side, no unit refers to either,
// neither is a $ref nor has a parameter given by one (pathParams),
// and the head's path item, its path parameters' names (those its
// parameters give, with "in": "path") put back to the base's, is the base's.
// Otherwise the library has it: a path the library cannot find under its
// own name it looks for among all the paths of a part, so that a part of
// many renamed paths cost it their number squared.
func renamedPaths(base, head *doc) map[unitKey]bool {
	only := func(d, other *doc) map[string][]string {
		out := map[string][]string{}
		for _, m := range d.sections["paths"] {
			t := template(m.key)
			if _, ok := other.units[unitKey{"paths", m.key}]; ok {
				out[t] = append(out[t], "") // a path both have: t is not renamed
				continue
			}
			out[t] = append(out[t], m.key)
		}
		return out
	}
	inBase, inHead := only(base, head), only(head, base)
	referred := map[unitKey]bool{}
	for _, d := range []*doc{base, head} {
		for _, tos := range d.refs {
			for _, to := range tos {
				referred[to] = true
			}
		}
		for _, to := range d.levelRefs {
			referred[to] = true
		}
	}
	out := map[unitKey]bool{}
	for t, ps := range inBase {
		qs := inHead[t]
		if len(ps) != 1 || len(qs) != 1 || ps[0] == "" || qs[0] == "" {
			continue
		}
		p, q := unitKey{"paths", ps[0]}, unitKey{"paths", qs[0]}
		if referred[p] || referred[q] {
			continue
		}
		if sameRenamed(base.units[p], head.units[q], templateParam.FindAllString(q.name, -1), templateParam.FindAllString(p.name, -1)) {
			out[p], out[q] = true, true
		}
	}
	return out
}

// sameRenamed says whether head, a path item, is base once the names of its
// path parameters from are put back to to, place by place.
func sameRenamed(base, head []byte, from, to []string) bool {
	if len(from) != len(to) {
		return false
	}
	names := map[string]string{}
	back := map[string]bool{}
	for i := range from {
		f, t := strings.Trim(from[i], "{}"), strings.Trim(to[i], "{}")
		if _, ok := names[f]; ok || back[t] {
			return false // a name twice: the places cannot be told apart
		}
		names[f], back[t] = t, true
	}
	decode := func(data []byte) (map[string]any, bool) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v map[string]any
		return v, dec.Decode(&v) == nil && v != nil
	}
	b, okB := decode(base)
	h, okH := decode(head)
	if !okB || !okH {
		return false
	}
	// Each path parameter must be one of its path's: the library matches
	// the others by name.
	if !pathParams(b, func(o map[string]any, n string) bool { return back[n] }) {
		return false
	}
	return pathParams(h, func(o map[string]any, n string) bool {
		t, ok := names[n]
		o["name"] = t
		return ok
	}) && reflect.DeepEqual(b, h)
}

// pathParams calls each with every parameter of item, a path item, that
// is in its path, in the path item and in its operations, and its name;
// whether each said yes to all. It says no, calling each with none, to a
// path item that is a $ref or has a parameter given by a $ref (or that is
// no object): what it names, the library reads, and the names it holds
// are not the path item's to put back.
func pathParams(item map[string]any, each func(param map[string]any, name string) bool) bool {
	if has(item, "$ref") {
		return false
	}
	lists := []any{item["parameters"]}
	for _, m := range []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"} {
		if o, ok := item[m].(map[string]any); ok {
			lists = append(lists, o["parameters"])
		}
	}
	for _, params := range lists {
		list, _ := params.([]any)
		for _, p := range list {
			if o, ok := p.(map[string]any); !ok || has(o, "$ref") {
				return false
			}
		}
	}
	for _, params := range lists {
		list, _ := params.([]any)
		for _, p := range list {
			if o := p.(map[string]any); o["in"] == "path" {
				if n, ok := o["name"].(string); !ok || !each(o, n) {
					return false
				}
			}
		}
	}
	return true
}

// has says whether o has the member key, whatever its value.
func has(o map[string]any, key string) bool {
	_, ok := o[key]
	return ok
}
