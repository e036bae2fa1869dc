package emulator

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"strings"
	"time"
)

// The rendered site: one page that lists every operation with its parameters
// and responses, and the shared parameters and shared responses as components
// the operations link to.

type site struct {
	Title, Version, Description, Format string
	Operations                          []operation
	SharedParams                        []shared
	SharedResponses                     []shared
}

type operation struct {
	Anchor, Method, Path, Summary, ID string
	Params                            []param
	Responses                         []response
}

type param struct {
	Name, In, Type, Description string
	Required                    bool
	Shared                      string // anchor of the shared parameter, if a reference
	SharedKey                   string
}

type response struct {
	Status, Description string
	Shared              string
	SharedKey           string
}

type shared struct {
	Anchor, Key, Name, In, Type, Default, Description string
	Headers                                           []string
	UsedBy                                            []operation
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// renderSite renders a stored description as a static site, zipped:
// collect what the page shows, render it, zip the page and its assets.
func renderSite(content []byte) ([]byte, error) {
	v, err := decodeOrdered(content)
	if err != nil {
		return nil, fmt.Errorf("stored file is not JSON: %w", err)
	}
	root, ok := v.(*object)
	if !ok {
		return nil, errors.New("stored file is not a JSON object")
	}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, collect(root)); err != nil {
		return nil, err
	}
	return zipSite([]siteFile{{"index.html", page.Bytes()}, {"assets/style.css", []byte(styleCSS)}, {"assets/app.js", []byte(appJS)}})
}

// collector gathers what the page shows of a description.
type collector struct {
	site                        *site
	paramPrefix, responsePrefix string  // where shared components are referred to
	params, responses           *object // the shared components
	usedParams, usedResponses   map[string][]operation
}

// collect gathers the site's model: the description's operations, and its
// shared parameters and responses with the operations that use them.
func collect(root *object) *site {
	c := &collector{
		site: &site{
			Title:       cmp.Or(root.obj("info").str("title"), "API documentation"),
			Version:     root.obj("info").str("version"),
			Description: root.obj("info").str("description"),
			Format:      "Swagger " + root.str("swagger"),
		},
		paramPrefix: "#/parameters/", responsePrefix: "#/responses/",
		params: root.obj("parameters"), responses: root.obj("responses"),
		usedParams: map[string][]operation{}, usedResponses: map[string][]operation{},
	}
	if ver := root.str("openapi"); ver != "" {
		c.site.Format = "OpenAPI " + ver
		c.paramPrefix, c.responsePrefix = "#/components/parameters/", "#/components/responses/"
		c.params, c.responses = root.obj("components").obj("parameters"), root.obj("components").obj("responses")
	}
	paths := root.obj("paths")
	for _, path := range keysOf(paths) {
		item := paths.obj(path)
		for _, m := range methods {
			if op := item.obj(m); op != nil {
				c.site.Operations = append(c.site.Operations, c.operation(path, m, item, op))
			}
		}
	}
	c.sharedComponents()
	return c.site
}

func keysOf(o *object) []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// operation gathers one operation: its parameters and responses, shared
// ones linked to their component.
func (c *collector) operation(path, method string, item, op *object) operation {
	o := operation{
		Anchor: "op-" + slug(method+" "+path), Method: strings.ToUpper(method), Path: path,
		Summary: op.str("summary"), ID: op.str("operationId"),
	}
	for _, list := range []any{item.get("parameters"), op.get("parameters")} {
		arr, _ := list.([]any)
		for _, pv := range arr {
			if p, _ := pv.(*object); p != nil {
				o.Params = append(o.Params, c.param(p, o))
			}
		}
	}
	rs := op.obj("responses")
	for _, status := range keysOf(rs) {
		o.Responses = append(o.Responses, c.response(status, rs.obj(status), o))
	}
	return o
}

func (c *collector) param(p *object, o operation) param {
	if ref := p.str("$ref"); strings.HasPrefix(ref, c.paramPrefix) {
		key := unescapePointer(strings.TrimPrefix(ref, c.paramPrefix))
		target := c.params.obj(key)
		c.usedParams[key] = append(c.usedParams[key], o)
		return param{
			Name: target.str("name"), In: target.str("in"), Type: typeOf(target),
			Description: target.str("description"), Required: target.str("required") == "true",
			Shared: "param-" + slug(key), SharedKey: key,
		}
	}
	return param{
		Name: p.str("name"), In: p.str("in"), Type: typeOf(p),
		Description: p.str("description"), Required: p.str("required") == "true",
	}
}

func (c *collector) response(status string, r *object, o operation) response {
	if ref := r.str("$ref"); strings.HasPrefix(ref, c.responsePrefix) {
		key := unescapePointer(strings.TrimPrefix(ref, c.responsePrefix))
		c.usedResponses[key] = append(c.usedResponses[key], o)
		return response{
			Status: status, Description: c.responses.obj(key).str("description"),
			Shared: "response-" + slug(key), SharedKey: key,
		}
	}
	return response{Status: status, Description: r.str("description")}
}

// sharedComponents lists the shared parameters and responses, each with
// the operations that use it.
func (c *collector) sharedComponents() {
	for _, key := range keysOf(c.params) {
		p := c.params.obj(key)
		c.site.SharedParams = append(c.site.SharedParams, shared{
			Anchor: "param-" + slug(key), Key: key, Name: p.str("name"), In: p.str("in"),
			Type: typeOf(p), Default: defaultOf(p), Description: p.str("description"),
			UsedBy: uniqueOps(c.usedParams[key]),
		})
	}
	for _, key := range keysOf(c.responses) {
		r := c.responses.obj(key)
		sh := shared{Anchor: "response-" + slug(key), Key: key, Description: r.str("description"), UsedBy: uniqueOps(c.usedResponses[key])}
		sh.Headers = keysOf(r.obj("headers"))
		c.site.SharedResponses = append(c.site.SharedResponses, sh)
	}
}

// siteFile is a file of the rendered site.
type siteFile struct {
	name string
	data []byte
}

// zipSite zips the site's files, in their order and with a fixed time, so
// that a build of the same description is the same zip.
func zipSite(files []siteFile) ([]byte, error) {
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	stamp := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: stamp})
		if err != nil {
			return nil, err
		}
		w.Write(f.data)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// uniqueOps lists each operation once, even when it uses a component twice
// (a shared response under two status codes).
func uniqueOps(ops []operation) []operation {
	var out []operation
	seen := map[string]bool{}
	for _, o := range ops {
		if !seen[o.Anchor] {
			seen[o.Anchor] = true
			out = append(out, o)
		}
	}
	return out
}

func typeOf(p *object) string {
	if t := p.str("type"); t != "" {
		return t
	}
	if sc := p.obj("schema"); sc != nil {
		if t := sc.str("type"); t != "" {
			return t
		}
		if ref := sc.str("$ref"); ref != "" {
			return ref[strings.LastIndex(ref, "/")+1:]
		}
	}
	return ""
}

func defaultOf(p *object) string {
	d := p.get("default")
	if d == nil && p.obj("schema") != nil {
		d = p.obj("schema").get("default")
	}
	if d == nil {
		return ""
	}
	b, _ := json.Marshal(d)
	if s, ok := d.(string); ok {
		return s
	}
	return string(b)
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} {{.Version}}</title>
<link rel="stylesheet" href="assets/style.css">
<script src="assets/app.js" defer></script>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<p class="meta"><span class="version">Version {{.Version}}</span> · {{.Format}}</p>
{{with .Description}}<p class="description">{{.}}</p>{{end}}
<input id="filter" type="search" placeholder="Filter operations" aria-label="Filter operations">
</header>
<nav>
<h2>Operations</h2>
<ul>{{range .Operations}}<li><a href="#{{.Anchor}}"><span class="method {{.Method}}">{{.Method}}</span> {{.Path}}</a></li>{{end}}</ul>
{{if .SharedParams}}<h2>Shared parameters</h2><ul>{{range .SharedParams}}<li><a href="#{{.Anchor}}">{{.Key}}</a></li>{{end}}</ul>{{end}}
{{if .SharedResponses}}<h2>Shared responses</h2><ul>{{range .SharedResponses}}<li><a href="#{{.Anchor}}">{{.Key}}</a></li>{{end}}</ul>{{end}}
</nav>
<main>
<section id="operations">
{{range .Operations}}<article class="operation" id="{{.Anchor}}" data-search="{{.Method}} {{.Path}} {{.Summary}} {{.ID}}">
<h3><span class="method {{.Method}}">{{.Method}}</span> <code>{{.Path}}</code></h3>
{{with .Summary}}<p>{{.}}</p>{{end}}
{{if .Params}}<h4>Parameters</h4>
<table class="params"><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr>
{{range .Params}}<tr><td>{{if .Shared}}<a class="shared" href="#{{.Shared}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</td><td>{{.In}}</td><td>{{.Type}}</td><td>{{if .Required}}yes{{end}}</td><td>{{.Description}}</td></tr>
{{end}}</table>{{end}}
{{if .Responses}}<h4>Responses</h4>
<table class="responses"><tr><th>Status</th><th>Description</th></tr>
{{range .Responses}}<tr><td>{{.Status}}</td><td>{{if .Shared}}<a class="shared" href="#{{.Shared}}">{{.SharedKey}}</a>: {{end}}{{.Description}}</td></tr>
{{end}}</table>{{end}}
</article>
{{end}}</section>
{{if .SharedParams}}<section id="shared-parameters"><h2>Shared parameters</h2>
{{range .SharedParams}}<article class="component" id="{{.Anchor}}">
<h3>{{.Key}}</h3>
<p><code>{{.Name}}</code> in {{.In}}{{with .Type}}, {{.}}{{end}}{{with .Default}}, default {{.}}{{end}}</p>
{{with .Description}}<p>{{.}}</p>{{end}}
<p class="used-by">Used by: {{range .UsedBy}}<a href="#{{.Anchor}}">{{.Method}} {{.Path}}</a> {{else}}no operation{{end}}</p>
</article>
{{end}}</section>{{end}}
{{if .SharedResponses}}<section id="shared-responses"><h2>Shared responses</h2>
{{range .SharedResponses}}<article class="component" id="{{.Anchor}}">
<h3>{{.Key}}</h3>
<p>{{.Description}}</p>
{{if .Headers}}<p>Headers: {{range .Headers}}<code>{{.}}</code> {{end}}</p>{{end}}
<p class="used-by">Used by: {{range .UsedBy}}<a href="#{{.Anchor}}">{{.Method}} {{.Path}}</a> {{else}}no operation{{end}}</p>
</article>
{{end}}</section>{{end}}
</main>
</body>
</html>
`))

const styleCSS = `body{font-family:system-ui,sans-serif;margin:0;display:grid;grid-template-columns:18rem 1fr;grid-template-areas:"head head" "nav main";color:#1d2330}
header{grid-area:head;padding:1rem 2rem;background:#1d2330;color:#fff}
header .meta{opacity:.8}
#filter{padding:.4rem;width:20rem}
nav{grid-area:nav;padding:1rem;border-right:1px solid #ddd;font-size:.9rem}
nav ul{list-style:none;padding:0}
main{grid-area:main;padding:1rem 2rem}
.operation,.component{border:1px solid #ddd;border-radius:6px;padding:0 1rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4rem;font-weight:700}
.method.GET{color:#1a7f37}.method.POST{color:#0969da}.method.PUT{color:#9a6700}.method.DELETE{color:#cf222e}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;padding:.3rem;text-align:left}
a.shared{font-weight:600}
.hidden{display:none}
`

const appJS = `document.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("filter");
  if (!box) return;
  box.addEventListener("input", function () {
    var q = box.value.toLowerCase();
    document.querySelectorAll(".operation").forEach(function (op) {
      var text = (op.getAttribute("data-search") || "").toLowerCase();
      op.classList.toggle("hidden", q !== "" && text.indexOf(q) < 0);
    });
  });
});
`
