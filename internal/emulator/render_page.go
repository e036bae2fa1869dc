package emulator

import (
	"html/template"
	"strings"
	"sync"
)

// The page template. html/template escapes every text of the description;
// only Markdown rendered by render_markdown.go is inserted as HTML.

var pageFuncs = template.FuncMap{
	"join": strings.Join,
	// statusClass is the class of a status code: s2 for 2XX, sd for default.
	"statusClass": func(status string) string {
		if status == "" || status[0] < '1' || status[0] > '5' {
			return "sd"
		}
		return "s" + status[:1]
	},
}

// pageTemplate is parsed when a site is first rendered, not at start-up:
// a run that publishes renders none.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(pageFuncs).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Head.Title}}{{with .Head.Version}} {{.}}{{end}}</title>
<link rel="stylesheet" href="assets/style.css">
<script src="assets/app.js" defer></script>
</head>
<body>
<header class="top">
<a class="title" href="index.html">{{.Head.Title}}</a>{{with .Head.Version}} <span class="version">{{.}}</span>{{end}} <span class="spec">{{.Head.Format}}</span>
<input id="filter" type="search" placeholder="Filter" aria-label="Filter operations and schemas">
<button id="expand" type="button">Expand all</button>
</header>
<nav class="side">
<ul>
{{- range .Nav}}
<li{{if .Current}} class="current"{{end}}><a href="{{.Href}}">{{.Label}}</a>
{{- with .Items}}<ul>
{{- range .}}
<li data-search="{{.Method}} {{.Label}}"><a href="{{.Href}}"{{if .Deprecated}} class="deprecated"{{end}}>{{with .Method}}<span class="method m-{{.}}">{{.}}</span> {{end}}{{.Label}}</a></li>
{{- end}}
</ul>{{end}}</li>
{{- end}}
</ul>
</nav>
<main>
{{- if .Overview}}{{template "overview" .}}{{end}}
{{- range .Groups}}
<section class="group" id="{{.Anchor}}">
<h2>{{.Name}}</h2>
{{- with .Description}}
<div class="md">{{.}}</div>
{{- end}}
{{- range .Ops}}{{template "operation" .}}{{end}}
{{- with .Also}}
<p class="also">Also under this tag: {{range .}}<a href="{{.Href}}">{{.Method}} {{.Label}}</a> {{end}}</p>
{{- end}}
</section>
{{- end}}
{{- with .Params}}
<section id="shared-parameters">
<h2>Shared parameters</h2>
{{- range .}}
<article class="component" id="{{.Anchor}}" data-search="{{.Key}}">
<h3>{{.Key}}</h3>
{{- template "params" .Params}}
<p class="used-by">Used by: {{range .UsedBy}}<a href="{{.Href}}">{{.Method}} {{.Label}}</a> {{else}}no operation{{end}}</p>
</article>
{{- end}}
</section>
{{- end}}
{{- with .Resps}}
<section id="shared-responses">
<h2>Shared responses</h2>
{{- range .}}
<article class="component" id="{{.Anchor}}" data-search="{{.Key}}">
<h3>{{.Key}}</h3>
{{- template "response" .Response}}
<p class="used-by">Used by: {{range .UsedBy}}<a href="{{.Href}}">{{.Method}} {{.Label}}</a> {{else}}no operation{{end}}</p>
</article>
{{- end}}
</section>
{{- end}}
{{- with .Schemas}}
<section id="schemas">
<h2>Schemas</h2>
{{- range .}}
<article class="component schema" id="{{.Anchor}}" data-search="{{.Name}}">
<h3>{{.Name}}</h3>
{{- template "schema" .Schema}}
</article>
{{- end}}
</section>
{{- end}}
</main>
</body>
</html>
{{define "overview"}}
<section id="overview" class="overview">
<h1>{{.Head.Title}}</h1>
<p class="meta">{{with .Head.Version}}Version {{.}} · {{end}}{{.Head.Format}}</p>
{{- with .Head.Facts}}
<dl class="facts">{{range .}}<dt>{{.Label}}</dt><dd>{{if .Href}}<a href="{{.Href}}">{{.Value}}</a>{{else}}{{.Value}}{{end}}</dd>{{end}}</dl>
{{- end}}
{{- with .Head.Description}}
<div class="md">{{.}}</div>
{{- end}}
{{- with .Head.ExternalDocs}}
<p class="external">{{if .URL}}<a href="{{.URL}}">{{.Description}}</a>{{else}}{{.Description}}{{end}}</p>
{{- end}}
{{- with .Head.Servers}}
<h2 id="servers">Servers</h2>
{{- template "servers" .}}
{{- end}}
{{- if or .Head.Schemes .Head.Security}}
<h2 id="authentication">Authentication</h2>
{{- with .Head.Security}}
<p class="auth">Every operation needs {{template "security" .}}, unless it says otherwise.</p>
{{- end}}
{{- range .Head.Schemes}}
<article class="component scheme" id="{{.Anchor}}">
<h3>{{.Key}} <span class="badge">{{.Type}}</span></h3>
{{- with .Description}}
<div class="md">{{.}}</div>
{{- end}}
{{- with .Facts}}
<dl class="facts">{{range .}}<dt>{{.Label}}</dt><dd><code>{{.Value}}</code></dd>{{end}}</dl>
{{- end}}
{{- range .Flows}}
<h4>OAuth 2 flow {{.Name}}</h4>
{{- with .Facts}}
<dl class="facts">{{range .}}<dt>{{.Label}}</dt><dd><code>{{.Value}}</code></dd>{{end}}</dl>
{{- end}}
{{- with .Scopes}}
<table class="scopes"><thead><tr><th>Scope</th><th>Description</th></tr></thead><tbody>{{range .}}<tr><td><code>{{.Label}}</code></td><td>{{.Value}}</td></tr>{{end}}</tbody></table>
{{- end}}
{{- end}}
</article>
{{- end}}
{{- end}}
{{- with .Contents}}
<h2 id="contents">Operations</h2>
{{- range .}}
<h3><a href="{{.Href}}">{{.Name}}</a></h3>
<ul class="contents">{{range .Ops}}<li data-search="{{.Method}} {{.Label}}"><a href="{{.Href}}"><span class="method m-{{.Method}}">{{.Method}}</span> {{.Label}}</a></li>{{end}}</ul>
{{- end}}
{{- end}}
</section>
{{- end}}
{{define "servers"}}
<ul class="servers">{{range .}}<li><code>{{.URL}}</code>{{with .Description}} {{.}}{{end}}
{{- with .Variables}}
<table class="vars"><thead><tr><th>Variable</th><th>Default</th><th>Description</th></tr></thead><tbody>{{range .}}<tr><td><code>{{.Name}}</code></td><td><code>{{.Default}}</code>{{with .Enum}} (one of {{range .}}<code>{{.}}</code> {{end}}){{end}}</td><td>{{.Description}}</td></tr>{{end}}</tbody></table>
{{- end}}</li>{{end}}</ul>
{{- end}}
{{define "security"}}{{range $i, $r := .}}{{if $i}} or {{end}}{{if not .Parts}}no authentication{{end}}{{range $j, $p := .Parts}}{{if $j}} and {{end}}{{if .Href}}<a href="{{.Href}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}{{with .Scopes}} (scopes {{join . ", "}}){{end}}{{end}}{{end}}{{end}}
{{define "operation"}}
<article class="operation{{if .Deprecated}} deprecated{{end}}" id="{{.Anchor}}" data-search="{{.Method}} {{.Path}} {{.Summary}} {{.ID}}">
<h3><span class="method m-{{.Method}}">{{.Method}}</span> <code class="path">{{.Path}}</code>{{if .Webhook}} <span class="badge">webhook</span>{{end}}{{if .Deprecated}} <span class="badge warn">deprecated</span>{{end}}</h3>
{{- with .Summary}}
<p class="summary">{{.}}</p>
{{- end}}
{{- with .Description}}
<div class="md">{{.}}</div>
{{- end}}
<dl class="facts">
{{- with .ID}}<dt>Operation id</dt><dd><code>{{.}}</code></dd>{{end}}
{{- with .Security}}<dt>Authorization</dt><dd>{{template "security" .}}</dd>{{end}}
{{- with .OtherTags}}<dt>Also tagged</dt><dd>{{join . ", "}}</dd>{{end}}
{{- with .ExternalDocs}}<dt>See</dt><dd>{{if .URL}}<a href="{{.URL}}">{{.Description}}</a>{{else}}{{.Description}}{{end}}</dd>{{end -}}
</dl>
{{- with .Servers}}
<h4>Servers</h4>
{{- template "servers" .}}
{{- end}}
{{- with .Params}}
<h4>Parameters</h4>
{{- template "params" .}}
{{- end}}
{{- with .Body}}
<h4>Request body{{if .Required}} <span class="req">required</span>{{end}}{{if .SharedHref}} <a class="shared" href="{{.SharedHref}}">{{.SharedKey}}</a>{{else if .SharedKey}} <span class="badge">{{.SharedKey}}</span>{{end}}</h4>
{{- with .Description}}
<div class="md">{{.}}</div>
{{- end}}
{{- range .Media}}{{template "media" .}}{{end}}
{{- end}}
{{- with .Responses}}
<h4>Responses</h4>
{{- range .}}{{template "response" .}}{{end}}
{{- end}}
</article>
{{- end}}
{{define "params"}}
<table class="params"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>
{{- range .}}
<tr><td class="name">{{if .SharedHref}}<a class="shared" href="{{.SharedHref}}">{{.Name}}</a>{{else}}<code>{{.Name}}</code>{{end}}{{if .Required}} <span class="req">required</span>{{end}}{{if .Deprecated}} <span class="badge warn">deprecated</span>{{end}}</td><td>{{.In}}</td><td>{{template "type" .Schema}}</td><td>{{.Description}}{{template "facts" .Schema}}{{with .Examples}}{{template "examples" .}}{{end}}{{if .Schema.Nested}}<details><summary>Schema</summary>{{template "nested" .Schema}}</details>{{end}}</td></tr>
{{- end}}
</tbody></table>
{{- end}}
{{define "response"}}
<div class="response">
<h5>{{with .Status}}<span class="status {{statusClass .}}">{{.}}</span>{{end}}{{if .SharedHref}} <a class="shared" href="{{.SharedHref}}">{{.SharedKey}}</a>{{end}}</h5>
{{- with .Description}}
<div class="md">{{.}}</div>
{{- end}}
{{- with .Headers}}
<table class="headers"><thead><tr><th>Header</th><th>Type</th><th>Description</th></tr></thead><tbody>
{{- range .}}
<tr><td><code>{{.Name}}</code>{{if .Required}} <span class="req">required</span>{{end}}</td><td>{{template "type" .Schema}}</td><td>{{.Description}}{{template "facts" .Schema}}</td></tr>
{{- end}}
</tbody></table>
{{- end}}
{{- range .Media}}{{template "media" .}}{{end}}
</div>
{{- end}}
{{define "media"}}
<div class="media">
<p class="mt">{{with .Type}}<code>{{.}}</code>{{else}}Body{{end}}</p>
{{- with .Schema}}{{template "schema" .}}{{end}}
{{- with .ItemSchema}}
<p>Each item:</p>
{{- template "schema" .}}
{{- end}}
{{- with .Examples}}{{template "examples" .}}{{end}}
</div>
{{- end}}
{{define "examples"}}{{range .}}
<div class="example"><p class="example-title">Example{{with .Name}} <code>{{.}}</code>{{end}}{{with .Summary}}: {{.}}{{end}}</p>{{.Description}}{{with .Value}}<pre><code>{{.}}</code></pre>{{end}}{{if .ExternalHref}}<p>External value: <a href="{{.ExternalHref}}">{{.External}}</a></p>{{else if .External}}<p>External value: <code>{{.External}}</code></p>{{end}}</div>
{{- end}}{{end}}
{{define "schema"}}
<div class="schema">
<p class="type">{{template "type" .}}{{with .Title}} <span class="title">{{.}}</span>{{end}}</p>
{{- with .Description}}
<div class="md">{{.}}</div>
{{- end}}
{{- template "facts" .}}
{{- template "nested" .}}
</div>
{{- end}}
{{define "type"}}{{if .}}{{if .Href}}<a class="ref" href="{{.Href}}">{{.Name}}</a>{{if eq .Cut "cycle"}} <span class="cycle" title="contains itself: see its section">recursive</span>{{end}}{{if and .Type (ne .Type "object") (not .Cut)}} <span class="t">{{.Type}}</span>{{end}}{{else if .Items}}<span class="t">array of</span> {{template "type" .Items}}{{else}}<span class="t">{{or .Type "any"}}</span>{{end}}{{with .Format}} <span class="format">{{.}}</span>{{end}}{{end}}{{end}}
{{define "facts"}}{{if .}}{{with .Facts}}<ul class="facts">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}{{with .Enum}}<p class="enum">One of: {{range .}}<code>{{.}}</code> {{end}}</p>{{end}}{{with .Default}}<p class="default">Default: <code>{{.}}</code></p>{{end}}{{with .Example}}<p class="example">Example: <code>{{.}}</code></p>{{end}}{{with .Items}}{{if not .Nested}}{{template "facts" .}}{{end}}{{end}}{{end}}{{end}}
{{define "nested"}}{{if .}}
{{- if or .Props .More}}
<table class="props"><tbody>
{{- range .Props}}
<tr><td class="name"><code>{{.Name}}</code>{{if .Required}} <span class="req">required</span>{{end}}</td><td>{{template "type" .Schema}}{{with .Schema.Title}} <span class="title">{{.}}</span>{{end}}{{.Schema.Description}}{{template "facts" .Schema}}{{if .Schema.Nested}}<details><summary>{{.Name}}</summary>{{template "nested" .Schema}}</details>{{end}}</td></tr>
{{- end}}
{{- if .More}}
<tr><td colspan="2" class="more">{{.More}} more {{if eq .More 1}}property{{else}}properties{{end}}{{if .Href}}: see <a href="{{.Href}}">{{.Name}}</a>{{end}}</td></tr>
{{- end}}
</tbody></table>
{{- end}}
{{- with .Additional}}
<p class="additional">Other properties: {{template "type" .}}</p>
{{- template "facts" .}}{{template "nested" .}}
{{- end}}
{{- with .Items}}{{if .Nested}}{{.Description}}{{template "facts" .}}{{template "nested" .}}{{end}}{{end}}
{{- with .Variants}}
<div class="variants"><p>{{$.Combo}}:</p><ol>{{range .}}<li>{{template "type" .}}{{.Description}}{{template "facts" .}}{{template "nested" .}}</li>{{end}}</ol></div>
{{- end}}
{{- with .Not}}
<p class="not">Not: {{template "type" .}}</p>
{{- end}}
{{- end}}{{end}}
`))
})
