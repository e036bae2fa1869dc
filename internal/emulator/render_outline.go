package emulator

import "strings"

// The outline is the first pass over a description: which operations and
// components the site shows, in which group, on which page and under which
// anchor, so that any part can link to any other before anything is
// rendered.

// A description with more operations or schemas than these is split into
// pages: an overview, one page per tag, the schemas, the shared
// components.
const (
	splitOperations = 40
	splitSchemas    = 80
)

// methods are the operations of a path item, in the order shown (query is
// OpenAPI 3.2's).
var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}

type outline struct {
	root    *object
	oas3    bool
	split   bool
	ids     anchors
	groups  []*groupOutline
	byTag   map[string]*groupOutline
	schemas []*component // definitions or components/schemas
	// The shared parameters and responses, each with its users.
	params, responses []*component
	schemes           []*component // security schemes
	// Where the references to components start.
	schemaPrefix, paramPrefix, responsePrefix string
	paramIdx, responseIdx, schemeIdx          map[string]*component
	schemaIdx                                 map[string]*component
}

// component is a named part of the description shown in its own section.
type component struct {
	key, anchor, page string
	value             *object
	usedBy            []*opOutline
}

type groupOutline struct {
	name, anchor, page string
	description        string
	ops                []*opOutline // whose first tag this is
	also               []*opOutline // tagged with it besides
}

type opOutline struct {
	method, path string
	item, op     *object
	anchor, page string
	webhook      bool
}

// href is the link to anchor on page, from any page of the site.
func (o *outline) href(page, anchor string) string {
	if !o.split {
		return "#" + anchor
	}
	return page + "#" + anchor
}

func (o *outline) schemaHref(name string) string {
	if c := o.schemaIdx[name]; c != nil {
		return o.href(c.page, c.anchor)
	}
	return ""
}

func newOutline(root *object) *outline {
	o := &outline{
		root: root, ids: anchors{}, byTag: map[string]*groupOutline{},
		schemaPrefix: "#/definitions/", paramPrefix: "#/parameters/", responsePrefix: "#/responses/",
	}
	comps := root
	if root.str("openapi") != "" {
		o.oas3 = true
		comps = root.obj("components")
		o.schemaPrefix, o.paramPrefix, o.responsePrefix = "#/components/schemas/", "#/components/parameters/", "#/components/responses/"
	}
	schemaDefs, schemeDefs := root.obj("definitions"), root.obj("securityDefinitions")
	if o.oas3 {
		schemaDefs, schemeDefs = comps.obj("schemas"), comps.obj("securitySchemes")
	}
	ops := o.operations()
	o.split = len(ops) > splitOperations || len(keysOf(schemaDefs)) > splitSchemas
	o.groupOperations(ops)
	o.schemes, o.schemeIdx = o.components("security", "index.html", schemeDefs)
	o.params, o.paramIdx = o.components("param", "components.html", comps.obj("parameters"))
	o.responses, o.responseIdx = o.components("response", "components.html", comps.obj("responses"))
	o.schemas, o.schemaIdx = o.components("schema", "schemas.html", schemaDefs)
	o.noteUsers(ops)
	return o
}

// operations lists the operations under paths, then the webhooks (OpenAPI
// 3.1), in the order written.
func (o *outline) operations() []*opOutline {
	var out []*opOutline
	for _, set := range []struct {
		key     string
		webhook bool
	}{{"paths", false}, {"webhooks", true}} {
		items := o.root.obj(set.key)
		for _, path := range keysOf(items) {
			item := deref(o.root, items.obj(path))
			for _, m := range methods {
				if op := item.obj(m); op != nil {
					out = append(out, &opOutline{method: m, path: path, item: item, op: op, webhook: set.webhook})
				}
			}
			extra := item.obj("additionalOperations") // OpenAPI 3.2
			for _, m := range keysOf(extra) {
				if op := extra.obj(m); op != nil {
					out = append(out, &opOutline{method: strings.ToLower(m), path: path, item: item, op: op, webhook: set.webhook})
				}
			}
		}
	}
	return out
}

// groupOperations puts each operation in the group of its first tag (and
// lists it under its other tags), untagged ones in a group of their own.
func (o *outline) groupOperations(ops []*opOutline) {
	tags, _ := o.root.get("tags").([]any)
	for _, t := range tags {
		if tag, _ := t.(*object); tag != nil && tag.str("name") != "" {
			o.group(tag.str("name")).description = tag.str("description")
		}
	}
	anyTagged := false
	for _, op := range ops {
		if len(op.op.strs("tags")) > 0 && !op.webhook {
			anyTagged = true
		}
	}
	other := "Operations"
	if anyTagged {
		other = "Other operations"
	}
	var untagged, webhooks *groupOutline
	for _, op := range ops {
		tags := op.op.strs("tags")
		names := tags
		switch {
		case op.webhook:
			names = []string{"Webhooks"}
		case len(tags) == 0:
			names = []string{other}
		}
		g := o.group(names[0])
		switch {
		case op.webhook:
			webhooks = g
		case len(tags) == 0:
			untagged = g
		}
		g.ops = append(g.ops, op)
		for _, n := range names[1:] {
			if also := o.group(n); also != g {
				also.also = append(also.also, op)
			}
		}
	}
	// Untagged operations and webhooks come last; declared tags without
	// operations are not shown.
	var kept []*groupOutline
	for _, g := range o.groups {
		if g != untagged && g != webhooks && (len(g.ops) > 0 || len(g.also) > 0) {
			kept = append(kept, g)
		}
	}
	if untagged != nil {
		kept = append(kept, untagged)
	}
	if webhooks != nil && webhooks != untagged {
		kept = append(kept, webhooks)
	}
	o.groups = kept
	for _, g := range o.groups {
		g.anchor = o.ids.make("tag", g.name)
		g.page = "index.html"
		if o.split {
			g.page = g.anchor + ".html"
		}
		for _, op := range g.ops {
			op.anchor, op.page = o.ids.make("op", op.method+" "+op.path), g.page
		}
	}
}

func (o *outline) group(name string) *groupOutline {
	if g := o.byTag[name]; g != nil {
		return g
	}
	g := &groupOutline{name: name}
	o.byTag[name] = g
	o.groups = append(o.groups, g)
	return g
}

// components lists the components under defs, each with its anchor and
// page.
func (o *outline) components(kind, page string, defs *object) ([]*component, map[string]*component) {
	if !o.split {
		page = "index.html"
	}
	var list []*component
	idx := map[string]*component{}
	for _, k := range keysOf(defs) {
		v, _ := defs.get(k).(*object)
		c := &component{key: k, anchor: o.ids.make(kind, k), page: page, value: v}
		list = append(list, c)
		idx[k] = c
	}
	return list, idx
}

// noteUsers records which operations use each shared parameter and
// response.
func (o *outline) noteUsers(ops []*opOutline) {
	for _, op := range ops {
		for _, list := range []any{op.item.get("parameters"), op.op.get("parameters")} {
			arr, _ := list.([]any)
			for _, pv := range arr {
				p, _ := pv.(*object)
				if key, ok := componentKey(p.str("$ref"), o.paramPrefix); ok && o.paramIdx[key] != nil {
					o.paramIdx[key].use(op)
				}
			}
		}
		rs := op.op.obj("responses")
		for _, status := range keysOf(rs) {
			if key, ok := componentKey(rs.obj(status).str("$ref"), o.responsePrefix); ok && o.responseIdx[key] != nil {
				o.responseIdx[key].use(op)
			}
		}
	}
}

// use notes op as a user, once even when it uses c twice.
func (c *component) use(op *opOutline) {
	if n := len(c.usedBy); n > 0 && c.usedBy[n-1] == op {
		return
	}
	c.usedBy = append(c.usedBy, op)
}
