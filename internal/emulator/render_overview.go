package emulator

import (
	"cmp"
	"strings"
)

// The overview: the description's title and words, where the API is
// served, and how it is authenticated.

// collector builds the page models from the outline.
type collector struct {
	*outline
	md *markdown
	sc *schemas
}

func newCollector(o *outline) *collector {
	md := newMarkdown()
	return &collector{outline: o, md: md, sc: &schemas{root: o.root, prefix: o.schemaPrefix, href: o.schemaHref, md: md}}
}

func (c *collector) head() *head {
	info := c.root.obj("info")
	h := &head{
		Title:       cmp.Or(info.str("title"), "API documentation"),
		Version:     info.str("version"),
		Format:      "Swagger " + c.root.str("swagger"),
		Description: c.md.render(info.str("description")),
		Security:    c.requirements(c.root.get("security")),
	}
	if c.oas3 {
		h.Format = "OpenAPI " + c.root.str("openapi")
		h.Servers = c.servers(c.root.get("servers"))
	} else {
		h.Servers = c.swaggerServers()
	}
	if s := info.str("summary"); s != "" { // OpenAPI 3.1
		h.Facts = append(h.Facts, fact{Label: "Summary", Value: s})
	}
	if ct := info.obj("contact"); ct != nil {
		h.Facts = append(h.Facts, fact{Label: "Contact", Value: cmp.Or(ct.str("name"), ct.str("email"), ct.str("url")), Href: safeLink(contactHref(ct))})
	}
	if l := info.obj("license"); l != nil {
		h.Facts = append(h.Facts, fact{Label: "License", Value: cmp.Or(l.str("name"), l.str("identifier")), Href: safeLink(l.str("url"))})
	}
	if t := info.str("termsOfService"); t != "" {
		h.Facts = append(h.Facts, fact{Label: "Terms of service", Value: t, Href: safeLink(t)})
	}
	h.ExternalDocs = extDocOf(c.root)
	for _, sc := range c.schemes {
		h.Schemes = append(h.Schemes, c.scheme(sc))
	}
	return h
}

func contactHref(ct *object) string {
	if u := ct.str("url"); u != "" {
		return u
	}
	if e := ct.str("email"); e != "" {
		return "mailto:" + e
	}
	return ""
}

func extDocOf(o *object) *extDoc {
	ed := o.obj("externalDocs")
	if ed == nil || ed.str("url") == "" {
		return nil
	}
	return &extDoc{URL: safeLink(ed.str("url")), Description: cmp.Or(ed.str("description"), ed.str("url"))}
}

// safeLink is u when a link may lead there (see safeURL), else empty.
func safeLink(u string) string {
	if !safeURL(u) {
		return ""
	}
	return u
}

// servers lists OpenAPI 3 servers with their variables.
func (c *collector) servers(v any) []server {
	arr, _ := v.([]any)
	var out []server
	for _, sv := range arr {
		s, _ := sv.(*object)
		if s == nil {
			continue
		}
		srv := server{URL: s.str("url"), Description: c.md.render(s.str("description"))}
		vars := s.obj("variables")
		for _, name := range keysOf(vars) {
			vv := vars.obj(name)
			srv.Variables = append(srv.Variables, serverVariable{
				Name: name, Default: vv.str("default"), Enum: vv.strs("enum"), Description: c.md.render(vv.str("description")),
			})
		}
		out = append(out, srv)
	}
	return out
}

// swaggerServers makes Swagger 2.0's schemes, host and basePath into the
// addresses they mean.
func (c *collector) swaggerServers() []server {
	host := c.root.str("host")
	base := c.root.str("basePath")
	if host == "" && base == "" {
		return nil
	}
	schemes := c.root.strs("schemes")
	if host == "" {
		return []server{{URL: base, Description: c.md.render("On the host that serves this description.")}}
	}
	if len(schemes) == 0 {
		schemes = []string{"https"}
	}
	var out []server
	for _, s := range schemes {
		out = append(out, server{URL: s + "://" + host + base})
	}
	return out
}

// requirements reads a security requirement list: each element is one
// way to authenticate.
func (c *collector) requirements(v any) []requirement {
	arr, _ := v.([]any)
	var out []requirement
	for _, rv := range arr {
		r, _ := rv.(*object)
		if r == nil {
			continue
		}
		var req requirement
		for _, name := range r.keys {
			part := requirementPart{Name: name, Scopes: r.strs(name)}
			if sc := c.schemeIdx[name]; sc != nil {
				part.Href = c.href(sc.page, sc.anchor)
			}
			req.Parts = append(req.Parts, part)
		}
		out = append(out, req)
	}
	return out
}

// scheme describes a security scheme: Swagger 2.0's securityDefinitions or
// OpenAPI 3's securitySchemes.
func (c *collector) scheme(comp *component) *securityScheme {
	s := deref(c.root, comp.value)
	out := &securityScheme{Anchor: comp.anchor, Key: comp.key, Type: s.str("type"), Description: c.md.render(s.str("description"))}
	add := func(label, key string) {
		if v := s.str(key); v != "" {
			out.Facts = append(out.Facts, fact{Label: label, Value: v})
		}
	}
	switch out.Type {
	case "apiKey":
		add("Name", "name")
		add("In", "in")
	case "http":
		add("Scheme", "scheme")
		add("Bearer format", "bearerFormat")
	case "openIdConnect":
		add("OpenID Connect URL", "openIdConnectUrl")
	case "oauth2":
		if flows := s.obj("flows"); flows != nil { // OpenAPI 3
			for _, name := range flows.keys {
				out.Flows = append(out.Flows, oauthFlowOf(name, flows.obj(name)))
			}
		} else { // Swagger 2.0: one flow, on the scheme itself
			out.Flows = append(out.Flows, oauthFlowOf(s.str("flow"), s))
		}
	}
	return out
}

func oauthFlowOf(name string, f *object) oauthFlow {
	out := oauthFlow{Name: name}
	for _, k := range []struct{ label, key string }{
		{"Authorization URL", "authorizationUrl"}, {"Token URL", "tokenUrl"},
		{"Refresh URL", "refreshUrl"}, {"Device authorization URL", "deviceAuthorizationUrl"},
	} {
		if v := f.str(k.key); v != "" {
			out.Facts = append(out.Facts, fact{Label: k.label, Value: v})
		}
	}
	scopes := f.obj("scopes")
	for _, sc := range keysOf(scopes) {
		out.Scopes = append(out.Scopes, fact{Label: sc, Value: scopes.str(sc)})
	}
	return out
}

// navItem is a link to an operation.
func (c *collector) navItem(op *opOutline) navItem {
	return navItem{Href: c.href(op.page, op.anchor), Method: strings.ToUpper(op.method), Label: op.path, Deprecated: op.op.isTrue("deprecated")}
}
