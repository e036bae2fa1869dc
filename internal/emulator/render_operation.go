package emulator

import "strings"

// An operation as the page shows it: its parameters, its request body
// (OpenAPI 3's requestBody, Swagger 2.0's body and formData parameters) and
// its responses with their media types, headers, schemas and examples.

func (c *collector) group(g *groupOutline) *group {
	out := &group{Anchor: g.anchor, Name: g.name, Description: c.md.render(g.description)}
	for _, op := range g.ops {
		out.Ops = append(out.Ops, c.operation(op))
	}
	for _, op := range g.also {
		out.Also = append(out.Also, c.navItem(op))
	}
	return out
}

func (c *collector) operation(op *opOutline) *operation {
	o := op.op
	out := &operation{
		Anchor: op.anchor, Method: strings.ToUpper(op.method), Path: op.path,
		Summary: o.str("summary"), ID: o.str("operationId"),
		Description: c.md.render(o.str("description")),
		Deprecated:  o.isTrue("deprecated"), Webhook: op.webhook,
		ExternalDocs: extDocOf(o),
	}
	if tags := o.strs("tags"); len(tags) > 1 {
		out.OtherTags = tags[1:]
	}
	if c.oas3 {
		out.Servers = c.servers(o.get("servers"))
		if out.Servers == nil {
			out.Servers = c.servers(op.item.get("servers"))
		}
	}
	// security: [] turns authentication off; without security the
	// description's applies. Where no scheme is declared, nothing is shown.
	out.Security = c.requirements(c.root.get("security"))
	if o.has("security") {
		out.Security = c.requirements(o.get("security"))
	}
	if len(out.Security) == 0 && (o.has("security") || len(c.schemes) > 0) {
		out.Security = []requirement{{}}
	}
	out.Params, out.Body = c.parameters(op)
	if c.oas3 {
		out.Body = c.requestBody(o.get("requestBody"))
	}
	rs := o.obj("responses")
	for _, status := range keysOf(rs) {
		out.Responses = append(out.Responses, c.response(status, rs.obj(status), op))
	}
	return out
}

// parameters reads the path item's and the operation's parameters (the
// operation's win); Swagger 2.0's body and formData parameters make the
// request body.
func (c *collector) parameters(op *opOutline) ([]param, *requestBody) {
	type entry struct{ raw, p *object }
	var list []entry
	seen := map[string]int{}
	for _, v := range []any{op.item.get("parameters"), op.op.get("parameters")} {
		arr, _ := v.([]any)
		for _, pv := range arr {
			raw, _ := pv.(*object)
			p := deref(c.root, raw)
			if p == nil {
				continue
			}
			key := p.str("in") + "\x00" + p.str("name")
			if i, ok := seen[key]; ok {
				list[i] = entry{raw, p}
				continue
			}
			seen[key] = len(list)
			list = append(list, entry{raw, p})
		}
	}
	var params []param
	var body *requestBody
	var form []property
	for _, e := range list {
		switch e.p.str("in") {
		case "body":
			body = c.bodyParameter(e.raw, e.p, op)
		case "formData":
			form = append(form, property{Name: e.p.str("name"), Required: e.p.isTrue("required"), Schema: c.sc.view(e.p)})
		default:
			params = append(params, c.param(e.raw, e.p))
		}
	}
	if len(form) > 0 {
		body = &requestBody{Media: []mediaType{{Type: c.formType(op, form), Schema: &schemaView{Type: "object", Props: form}}}}
	}
	return params, body
}

// param describes a parameter; a shared one links to its component.
func (c *collector) param(raw, p *object) param {
	out := param{Name: p.str("name"), In: p.str("in"), Required: p.isTrue("required"), Deprecated: p.isTrue("deprecated")}
	if key, ok := componentKey(raw.str("$ref"), c.paramPrefix); ok && c.paramIdx[key] != nil {
		out.SharedKey, out.SharedHref = key, c.href(c.paramIdx[key].page, c.paramIdx[key].anchor)
	}
	switch {
	case !c.oas3: // Swagger 2.0: the parameter is its own schema
		out.Schema = c.sc.view(p)
		out.Description, out.Schema.Description = out.Schema.Description, ""
	case p.has("schema"):
		out.Schema = c.sc.view(p.get("schema"))
		out.Description = c.md.render(p.str("description"))
	default: // OpenAPI 3: content instead of schema
		out.Description = c.md.render(p.str("description"))
		if ms := c.media(p.obj("content")); len(ms) > 0 {
			out.Schema = ms[0].Schema
		}
	}
	out.Examples = c.examples(p)
	return out
}

// bodyParameter is Swagger 2.0's body parameter as a request body, in the
// media types the operation consumes.
func (c *collector) bodyParameter(raw, p *object, op *opOutline) *requestBody {
	out := &requestBody{Description: c.md.render(p.str("description")), Required: p.isTrue("required")}
	if key, ok := componentKey(raw.str("$ref"), c.paramPrefix); ok && c.paramIdx[key] != nil {
		out.SharedKey, out.SharedHref = key, c.href(c.paramIdx[key].page, c.paramIdx[key].anchor)
	}
	out.Media = []mediaType{{Type: strings.Join(c.mediaTypes(op, "consumes"), ", "), Schema: c.sc.view(p.get("schema"))}}
	return out
}

// mediaTypes are Swagger 2.0's consumes or produces, the operation's or
// else the description's.
func (c *collector) mediaTypes(op *opOutline, key string) []string {
	if op != nil && op.op.has(key) {
		return op.op.strs(key)
	}
	return c.root.strs(key)
}

// formType is the media type of Swagger 2.0's form parameters.
func (c *collector) formType(op *opOutline, form []property) string {
	var forms []string
	for _, t := range c.mediaTypes(op, "consumes") {
		if strings.HasPrefix(t, "multipart/form-data") || strings.HasPrefix(t, "application/x-www-form-urlencoded") {
			forms = append(forms, t)
		}
	}
	if len(forms) > 0 {
		return strings.Join(forms, ", ")
	}
	for _, f := range form {
		if f.Schema.Type == "file" {
			return "multipart/form-data"
		}
	}
	return "application/x-www-form-urlencoded"
}

// requestBody is OpenAPI 3's request body.
func (c *collector) requestBody(v any) *requestBody {
	raw, _ := v.(*object)
	rb := deref(c.root, raw)
	if rb == nil {
		return nil
	}
	out := &requestBody{Description: c.md.render(rb.str("description")), Required: rb.isTrue("required"), Media: c.media(rb.obj("content"))}
	if key, ok := componentKey(raw.str("$ref"), "#/components/requestBodies/"); ok {
		out.SharedKey = key
	}
	return out
}

// media lists OpenAPI 3's content: each media type with its schema and
// examples.
func (c *collector) media(content *object) []mediaType {
	var out []mediaType
	for _, name := range keysOf(content) {
		mt := deref(c.root, content.obj(name))
		m := mediaType{Type: name, Examples: c.examples(mt)}
		if mt.has("schema") {
			m.Schema = c.sc.view(mt.get("schema"))
		}
		if mt.has("itemSchema") {
			m.ItemSchema = c.sc.view(mt.get("itemSchema"))
		}
		out = append(out, m)
	}
	return out
}

// examples reads example and examples (a map of example objects in OpenAPI
// 3; Swagger 2.0's response examples are read by response).
func (c *collector) examples(o *object) []example {
	var out []example
	if o.has("example") {
		out = append(out, example{Value: pretty(o.get("example"), maxExample)})
	}
	exs, _ := o.get("examples").(*object)
	for _, name := range keysOf(exs) {
		ex := deref(c.root, exs.obj(name))
		if ex == nil {
			continue
		}
		e := example{Name: name, Summary: ex.str("summary"), Description: c.md.render(ex.str("description")), External: ex.str("externalValue")}
		e.ExternalHref = safeLink(e.External)
		for _, k := range []string{"value", "dataValue", "serializedValue"} {
			if ex.has(k) {
				e.Value = pretty(ex.get(k), maxExample)
				break
			}
		}
		out = append(out, e)
	}
	return out
}

// response describes a response; a shared one links to its component.
func (c *collector) response(status string, raw *object, op *opOutline) response {
	r := deref(c.root, raw)
	if key, ok := componentKey(raw.str("$ref"), c.responsePrefix); ok && c.responseIdx[key] != nil {
		comp := c.responseIdx[key]
		return response{Status: status, Description: c.md.render(r.str("description")), SharedKey: key, SharedHref: c.href(comp.page, comp.anchor)}
	}
	return c.responseDetail(status, r, op)
}

// responseDetail describes a response in full: op is nil for a shared
// response.
func (c *collector) responseDetail(status string, r *object, op *opOutline) response {
	out := response{Status: status, Description: c.md.render(r.str("description")), Headers: c.headers(r.obj("headers"))}
	if c.oas3 {
		out.Media = c.media(r.obj("content"))
		return out
	}
	if !r.has("schema") && !r.has("examples") {
		return out
	}
	m := mediaType{Type: strings.Join(c.mediaTypes(op, "produces"), ", ")}
	if r.has("schema") {
		m.Schema = c.sc.view(r.get("schema"))
	}
	exs := r.obj("examples")
	for _, mime := range keysOf(exs) {
		m.Examples = append(m.Examples, example{Name: mime, Value: pretty(exs.get(mime), maxExample)})
	}
	out.Media = []mediaType{m}
	return out
}

// headers lists response headers: OpenAPI 3's header objects hold a schema
// (or content), Swagger 2.0's are their own schema.
func (c *collector) headers(hs *object) []header {
	var out []header
	for _, name := range keysOf(hs) {
		h := deref(c.root, hs.obj(name))
		if h == nil {
			continue
		}
		hd := header{Name: name, Required: h.isTrue("required"), Deprecated: h.isTrue("deprecated")}
		switch {
		case !c.oas3:
			hd.Schema = c.sc.view(h)
			hd.Description, hd.Schema.Description = hd.Schema.Description, ""
		case h.has("schema"):
			hd.Schema = c.sc.view(h.get("schema"))
			hd.Description = c.md.render(h.str("description"))
		default:
			hd.Description = c.md.render(h.str("description"))
			if ms := c.media(h.obj("content")); len(ms) > 0 {
				hd.Schema = ms[0].Schema
			}
		}
		out = append(out, hd)
	}
	return out
}

// sharedParams describes the shared parameters with their users.
func (c *collector) sharedParams() []*sharedParam {
	var out []*sharedParam
	for _, comp := range c.params {
		sp := &sharedParam{Anchor: comp.anchor, Key: comp.key, UsedBy: c.users(comp)}
		if p := deref(c.root, comp.value); p != nil {
			pv := c.param(&object{}, p)
			if p.str("in") == "body" { // a Swagger 2.0 body parameter: its schema
				pv.Schema = c.sc.view(p.get("schema"))
			}
			sp.Params = []param{pv}
		}
		out = append(out, sp)
	}
	return out
}

// sharedResponses describes the shared responses with their users.
func (c *collector) sharedResponses() []*sharedResponse {
	var out []*sharedResponse
	for _, comp := range c.responses {
		sr := &sharedResponse{Anchor: comp.anchor, Key: comp.key, UsedBy: c.users(comp)}
		if r := deref(c.root, comp.value); r != nil {
			sr.Response = c.responseDetail("", r, nil)
		}
		out = append(out, sr)
	}
	return out
}

func (c *collector) users(comp *component) []navItem {
	var out []navItem
	for _, op := range comp.usedBy {
		out = append(out, c.navItem(op))
	}
	return out
}

// namedSchemas gives each named schema its own section.
func (c *collector) namedSchemas() []*namedSchema {
	var out []*namedSchema
	for _, comp := range c.schemas {
		var s any = comp.value
		if comp.value == nil { // a boolean schema (OpenAPI 3.1)
			s = c.root.obj("components").obj("schemas").get(comp.key)
		}
		out = append(out, &namedSchema{Anchor: comp.anchor, Name: comp.key, Schema: c.sc.named(comp.key, s)})
	}
	return out
}
