package emulator

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// specJSON reads a description as the JSON a client uploads; YAML is
// converted with its keys in the order written.
func specJSON(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".json") {
		return raw
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := yamlJSON(&b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b.Bytes()
}

// yamlJSON writes a YAML node as JSON, keys in order (a test's converter;
// the client has its own).
func yamlJSON(b *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		return yamlJSON(b, n.Content[0])
	case yaml.AliasNode:
		return yamlJSON(b, n.Alias)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			b.Write(k)
			b.WriteByte(':')
			if err := yamlJSON(b, n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := yamlJSON(b, c); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		var v any
		if err := n.Decode(&v); err != nil {
			return err
		}
		if n.Tag == "!!timestamp" || n.Tag == "!!binary" {
			v = n.Value
		}
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(data)
	}
	return nil
}

// site renders a description and returns the site's files by name.
func site(t *testing.T, raw []byte) map[string]string {
	t.Helper()
	z, err := renderSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	return files
}

// pages joins the site's HTML pages.
func pages(files map[string]string) string {
	var names []string
	for name := range files {
		if strings.HasSuffix(name, ".html") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(files[n])
	}
	return b.String()
}

// element returns the element with id on the site's pages, up to its
// closing tag (elements of one kind are not nested in each other).
func element(all, id string) string {
	i := strings.Index(all, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(all[:i], "<")
	tag := all[start+1 : start+1+strings.IndexAny(all[start+1:], " >")]
	end := strings.Index(all[i:], "</"+tag+">")
	if end < 0 {
		return all[start:]
	}
	return all[start : i+end]
}

// operationsOf lists "METHOD path" of every operation of a description.
func operationsOf(t *testing.T, raw []byte) []string {
	t.Helper()
	var doc struct {
		Paths    map[string]map[string]json.RawMessage `json:"paths"`
		Webhooks map[string]map[string]json.RawMessage `json:"webhooks"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, set := range []map[string]map[string]json.RawMessage{doc.Paths, doc.Webhooks} {
		for path, item := range set {
			for m, op := range item {
				if slices.Contains(methods, m) {
					out = append(out, strings.ToUpper(m)+" "+path)
				}
				if m == "additionalOperations" {
					var extra map[string]json.RawMessage
					json.Unmarshal(op, &extra)
					for em := range extra {
						out = append(out, strings.ToUpper(em)+" "+path)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// schemaNamesOf lists the names of a description's named schemas.
func schemaNamesOf(t *testing.T, raw []byte) []string {
	t.Helper()
	var doc struct {
		Definitions map[string]json.RawMessage `json:"definitions"`
		Components  struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for name := range doc.Definitions {
		out = append(out, name)
	}
	for name := range doc.Components.Schemas {
		out = append(out, name)
	}
	return out
}

// checkEveryPart checks every operation of the description is on the
// site, and every named schema has its section.
func checkEveryPart(t *testing.T, raw []byte, files map[string]string) {
	t.Helper()
	shown := map[string]bool{}    // "METHOD path" of each operation
	sections := map[string]bool{} // named schemas
	for name, body := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		walkHTML(t, body, func(tok html.Token) {
			switch attr(tok, "class") {
			case "operation", "operation deprecated":
				f := strings.Fields(attr(tok, "data-search"))
				if len(f) >= 2 {
					shown[f[0]+" "+f[1]] = true
				}
			case "component schema":
				sections[attr(tok, "data-search")] = true
			}
		})
	}
	ops := operationsOf(t, raw)
	if len(ops) == 0 {
		t.Fatal("the description has no operations: the test checks nothing")
	}
	for _, op := range ops {
		if !shown[op] {
			t.Errorf("operation %s is not on the site", op)
		}
	}
	for _, name := range schemaNamesOf(t, raw) {
		if !sections[name] {
			t.Errorf("schema %s has no section", name)
		}
	}
}

// checkLinks checks that every link inside the site leads to a file of the
// site and an element on it, and that nothing is loaded from elsewhere.
func checkLinks(t *testing.T, files map[string]string) {
	t.Helper()
	ids := map[string]map[string]bool{}
	for name, body := range files {
		if strings.HasSuffix(name, ".html") {
			ids[name] = map[string]bool{}
			walkHTML(t, body, func(tok html.Token) {
				if id := attr(tok, "id"); id != "" {
					ids[name][id] = true
				}
			})
		}
	}
	for name, body := range files {
		if !strings.HasSuffix(name, ".html") {
			if strings.Contains(body, "url(") || strings.Contains(body, "@import") {
				t.Errorf("%s loads something", name)
			}
			continue
		}
		walkHTML(t, body, func(tok html.Token) {
			if attr(tok, "rel") == "nofollow noopener" {
				return // a link the description's Markdown makes
			}
			for _, a := range tok.Attr {
				if a.Key != "href" && a.Key != "src" {
					continue
				}
				u, err := url.Parse(a.Val)
				if err != nil {
					t.Errorf("%s: <%s %s=%q> is no address", name, tok.Data, a.Key, a.Val)
					continue
				}
				loads := a.Key == "src" || tok.Data == "link"
				switch {
				case u.Scheme != "" || u.Host != "":
					if loads {
						t.Errorf("%s: <%s %s=%q> loads from elsewhere", name, tok.Data, a.Key, a.Val)
					}
				case u.Path == "" && u.Fragment == "":
					// A dropped address (an unsafe one): goes nowhere.
				default:
					target := cmpOr(u.Path, name)
					if _, ok := files[target]; !ok {
						t.Errorf("%s: <%s %s=%q>: the site has no %s", name, tok.Data, a.Key, a.Val, target)
					} else if u.Fragment != "" && !ids[target][u.Fragment] {
						t.Errorf("%s: <%s %s=%q>: %s has no element %s", name, tok.Data, a.Key, a.Val, target, u.Fragment)
					}
				}
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func walkHTML(t *testing.T, page string, f func(html.Token)) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatal(z.Err())
			}
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			f(z.Token())
		}
	}
}

func attr(tok html.Token, key string) string {
	for _, a := range tok.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestRenderedSamples renders the four samples and checks what the site
// shows of them.
func TestRenderedSamples(t *testing.T) {
	t.Parallel()
	swagger := []check{
		{"overview", `<code>limit</code> and <code>offset</code>`}, // Markdown
		{"overview", "<code>https://api.bookstore.example/v1</code>"},
		{"tag-books", `id="op-get-books"`},
		{"tag-books", `id="op-post-books"`},
		{"tag-authors", `id="op-get-authors"`},
		{"op-post-books", `Request body <span class="req">required</span>`},
		{"op-post-books", `<a class="ref" href="#schema-book">Book</a>`},
		{"op-post-books", `<code>authorId</code> <span class="req">required</span>`},
		{"op-get-books", `array of</span> <a class="ref" href="#schema-book">Book</a>`},
		{"op-get-authors", `<a class="ref" href="#schema-author">Author</a>`},
		{"response-error", `<a class="ref" href="#schema-error">Error</a>`},
		{"response-error", `<code>X-Request-Id</code>`},
		{"response-error", `<code>tracking_id</code> <span class="req">required</span>`},
		{"param-limit", "<li>≥ 1</li><li>≤ 100</li>"},
		{"param-limit", "Default: <code>20</code>"},
		{"schema-book", "<li>pattern ^[0-9-]{10,17}$</li>"},
		{"schema-book", `<span class="format">date</span>`},
		{"schema-book", `Example: <code>12.5</code>`},
	}
	openapi := []check{
		{"overview", "<code>https://api.bookstore.example/v2</code>"},
		{"tag-operations", `id="op-get-books-bookid"`}, // untagged: one group
		{"op-get-books", `array of</span> <a class="ref" href="#schema-book">Book</a>`},
		{"op-get-books", `<code>application/json</code>`},
		{"op-get-books-bookid", `<code>bookId</code> <span class="req">required</span>`},
		{"op-get-authors", `<a class="ref" href="#schema-author">Author</a>`},
		{"response-error", `<a class="ref" href="#schema-error">Error</a>`},
		{"param-limit", "<li>≥ 1</li><li>≤ 100</li>"},
	}
	cases := []struct {
		file   string
		checks []check
	}{
		{"bookstore.swagger2.json", swagger},
		{"bookstore.swagger2.yaml", swagger},
		{"bookstore.openapi3.json", openapi},
		{"bookstore.openapi3.yaml", openapi},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			raw := specJSON(t, filepath.Join("..", "..", "testdata", "specs", tc.file))
			files := site(t, raw)
			for _, name := range []string{"index.html", "assets/style.css", "assets/app.js"} {
				if files[name] == "" {
					t.Errorf("site has no %s", name)
				}
			}
			checkEveryPart(t, raw, files)
			checkLinks(t, files)
			runChecks(t, pages(files), tc.checks)
		})
	}
}

// check is a text an element of the site must hold.
type check struct{ id, want string }

func runChecks(t *testing.T, all string, checks []check) {
	t.Helper()
	for _, c := range checks {
		el := element(all, c.id)
		if el == "" {
			t.Errorf("the site has no element %s", c.id)
		} else if !strings.Contains(el, c.want) {
			t.Errorf("%s lacks %s:\n%s", c.id, c.want, el)
		}
	}
}

// TestRenderedFeatures renders descriptions that use what the samples do
// not: security, form data, webhooks, OpenAPI 3.1's and 3.2's additions.
func TestRenderedFeatures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file   string
		checks []check
	}{
		{"petshop.swagger2.json", []check{
			{"overview", "<strong>for sale</strong>"},
			{"overview", `<a href="mailto:help@pets.example">Pet shop support</a>`},
			{"overview", "Every operation needs"},
			{"security-api-key", "<code>X-API-Key</code>"},
			{"security-api-key", "<em>account</em>"},
			{"security-oauth", "OAuth 2 flow accessCode"},
			{"security-oauth", "<code>https://pets.example/oauth/token</code>"},
			{"security-oauth", "<code>pets:write</code></td><td>Change pets"},
			{"tag-pets", "<code>Pet</code>s."},
			{"op-get-pets", `<dd><a href="#security-api-key">api_key</a></dd>`},
			{"op-get-pets", "array of</span> <span class=\"t\">string</span>"},
			{"op-get-pets", "One of: <code>&#34;available&#34;</code>"},
			{"op-get-pets", "<li>length 1–40</li>"},
			{"op-get-pets", "<code>X-Total</code>"},
			{"op-get-pets", "How many pets there are."},
			{"op-get-pets", "&#34;name&#34;: &#34;Rex&#34;"},
			{"op-post-pets", `<a href="#security-oauth">oauth</a> (scopes pets:write) or <a href="#security-basic">basic</a>`},
			{"op-post-pets", "The pet to add."},
			{"op-post-pets", `<a class="ref" href="#schema-owner">Owner</a>`},
			{"op-post-pets", `<a class="ref" href="#schema-pet">Pet</a> <span class="cycle"`},
			{"op-post-pets", "<li>read-only</li>"},
			{"op-post-pets", "<li>items ≤ 10</li><li>unique items</li>"},
			{"op-post-pets", "Default: <code>&#34;available&#34;</code>"},
			{"op-post-pets-petid-photo", "<code>multipart/form-data</code>"},
			{"op-post-pets-petid-photo", `<code>file</code> <span class="req">required</span></td><td><span class="t">file</span>`},
			{"op-post-pets-petid-photo", "<li>length ≤ 140</li>"},
			{"op-post-pets-petid-photo", "<li>≥ 1</li>"},
			{"op-get-health", "<dd>no authentication</dd>"},
			{"tag-other-operations", `id="op-get-health"`},
		}},
		{"events.openapi31.json", []check{
			{"overview", `<td align="left"><code>kind</code></td>`}, // a Markdown table
			{"overview", "Events and their hooks."},
			{"overview", "<code>https://{region}.events.example/v1</code>"},
			{"overview", "(one of <code>eu</code> <code>us</code> )"},
			{"security-bearer", "<code>JWT</code>"},
			{"security-mtls", "mutualTLS"},
			{"security-oidc", "https://events.example/.well-known/openid-configuration"},
			{"op-get-events", "string | null"},
			{"op-get-events", "<li>&gt; 0</li><li>≤ 500</li><li>multiple of 10</li>"},
			{"op-get-events", "<code>RateLimit-Remaining</code>"},
			{"op-get-events", "Requests left in this hour."},
			{"op-get-events", "Example <code>one</code>: One click"},
			{"op-get-events", `<a class="shared" href="#response-problem">Problem</a>`},
			{"op-post-events", "The event to record."},
			{"op-post-events", `<span class="badge">NewEvent</span>`},
			{"op-post-events", "&#34;kind&#34;: &#34;click&#34;"},
			{"op-post-events", "one of:"},
			{"op-post-events", `<a class="ref" href="#schema-click">Click</a>`},
			{"op-post-events", "discriminator: type"},
			{"op-post-events", "Other properties: <span class=\"t\">string</span>"},
			{"op-post-events", "<li>≥ 0</li><li>&lt; 1</li>"},
			{"op-post-events", "One of: <code>&#34;click&#34;</code> <code>&#34;view&#34;</code>"},
			{"op-delete-events-id", `<span class="badge warn">deprecated</span>`},
			{"op-delete-events-id", `<a class="shared" href="#param-eventid">id</a>`},
			{"op-delete-events-id", `<a href="#security-bearer">bearer</a> or <a href="#security-mtls">mtls</a>`},
			{"schema-view", "all of:"},
			{"schema-click", "const &#34;click&#34;"},
			{"param-eventid", "<li>pattern ^[a-f0-9-]{36}$</li>"},
			{"response-problem", "<code>application/problem&#43;json</code>"},
			{"tag-webhooks", `id="op-post-eventrecorded"`},
			{"op-post-eventrecorded", `<span class="badge">webhook</span>`},
		}},
		{"search.openapi32.json", []check{
			{"op-query-search", `<span class="method m-QUERY">QUERY</span>`},
			{"op-query-search", "Each item:"},
			{"op-query-search", `<a class="ref" href="#schema-hit">Hit</a>`},
			{"op-query-search", "<code>rank</code>"},
			{"op-query-search", `<a href="#security-oauth">oauth</a> (scopes search)`},
			{"op-purge-search", "Empty the index"},
			{"security-oauth", "OAuth 2 flow deviceAuthorization"},
			{"security-oauth", "<code>https://search.example/device</code>"},
			{"tag-search", "Finding things."},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			raw := specJSON(t, filepath.Join("testdata", "site", tc.file))
			files := site(t, raw)
			checkEveryPart(t, raw, files)
			checkLinks(t, files)
			runChecks(t, pages(files), tc.checks)
		})
	}
}

// TestRenderedSiteGolden keeps the page of a small sample as it is, so a
// change to it is seen in review: go test -run Golden -update.
func TestRenderedSiteGolden(t *testing.T) {
	t.Parallel()
	files := site(t, specJSON(t, "../../testdata/specs/bookstore.swagger2.json"))
	golden := filepath.Join("testdata", "site", "bookstore.swagger2.index.html")
	if *update {
		if err := os.WriteFile(golden, []byte(files["index.html"]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), files["index.html"]); diff != "" {
		t.Errorf("index.html differs from %s (-want +got; -update rewrites it):\n%s", golden, diff)
	}
}

// allowedMarkup is every element and attribute the site writes; anything
// else on a page came from the description unescaped.
var (
	allowedElements = strings.Fields("html head meta title link script body header a span input button nav ul ol li main section article " +
		"h1 h2 h3 h4 h5 h6 div p code pre dl dt dd table thead tbody tr th td details summary em strong blockquote hr br del")
	allowedAttrs = strings.Fields("lang charset name content rel href src defer id class type placeholder aria-label data-search title colspan align")
)

// TestHostileDescription: a description is untrusted; script, markup and
// javascript: addresses in any of its texts never reach a page as markup.
func TestHostileDescription(t *testing.T) {
	t.Parallel()
	files := site(t, specJSON(t, filepath.Join("testdata", "site", "hostile.openapi3.json")))
	checkLinks(t, files)
	var text strings.Builder
	for name, page := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		z := html.NewTokenizer(strings.NewReader(page))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			tok := z.Token()
			switch tt {
			case html.TextToken:
				text.WriteString(tok.Data)
			case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
				checkMarkup(t, name, tok)
			}
		}
	}
	// The payloads were shown, as text: the test rendered them.
	for _, shown := range []string{"<script>alert(1)</script>", `"><img src=x onerror=alert(2)>`, `<a href="javascript:alert(11)">raw</a>`, `<div onmouseover="alert(13)">block</div>`} {
		if !strings.Contains(text.String(), shown) {
			t.Errorf("the page's text does not show %s", shown)
		}
	}
}

func checkMarkup(t *testing.T, page string, tok html.Token) {
	t.Helper()
	if !slices.Contains(allowedElements, tok.Data) {
		t.Errorf("%s: element <%s> from the description", page, tok.Data)
	}
	if tok.Data == "script" && tok.Type != html.EndTagToken && attr(tok, "src") != "assets/app.js" {
		t.Errorf("%s: a script that is not the site's: %v", page, tok)
	}
	for _, a := range tok.Attr {
		if !slices.Contains(allowedAttrs, a.Key) {
			t.Errorf("%s: attribute %s=%q on <%s>", page, a.Key, a.Val, tok.Data)
		}
		if a.Key == "href" || a.Key == "src" {
			v := strings.ToLower(strings.Map(func(r rune) rune {
				if r <= ' ' {
					return -1
				}
				return r
			}, a.Val))
			for _, bad := range []string{"javascript:", "vbscript:", "data:"} {
				if strings.HasPrefix(v, bad) {
					t.Errorf("%s: <%s %s=%q>", page, tok.Data, a.Key, a.Val)
				}
			}
		}
	}
}

// TestSchemasBounded: recursive schemas are links to their own section,
// and schemas that nest each other many times over show a bounded number
// of rows, the rest a link.
func TestSchemasBounded(t *testing.T) {
	t.Parallel()
	// S0 has two properties of S1, S1 two of S2...: 2^20 rows if every
	// reference were expanded.
	schemas := map[string]any{}
	for i := range 20 {
		schemas[fmt.Sprint("S", i)] = map[string]any{"type": "object", "properties": map[string]any{
			"left": map[string]any{"$ref": fmt.Sprint("#/definitions/S", i+1)}, "right": map[string]any{"$ref": fmt.Sprint("#/definitions/S", i+1)},
		}}
	}
	schemas["S20"] = map[string]any{"type": "string"}
	schemas["Node"] = map[string]any{"type": "object", "properties": map[string]any{
		"children": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/Node"}},
	}}
	doc := map[string]any{
		"swagger": "2.0", "info": map[string]any{"title": "Deep", "version": "1"}, "definitions": schemas,
		"paths": map[string]any{"/deep": map[string]any{"get": map[string]any{"responses": map[string]any{
			"200": map[string]any{"description": "ok", "schema": map[string]any{"$ref": "#/definitions/S0"}},
			"201": map[string]any{"description": "ok", "schema": map[string]any{"$ref": "#/definitions/Node"}},
		}}}},
	}
	raw, _ := json.Marshal(doc)
	files := site(t, raw)
	checkLinks(t, files)
	all := pages(files)
	op := element(all, "op-get-deep")
	if rows := strings.Count(op, "<tr>"); rows > 2*maxNestedRows {
		t.Errorf("one operation shows %d rows, want at most about %d", rows, maxNestedRows)
	}
	if !strings.Contains(op, `more properties: see <a href="#schema-`) && !strings.Contains(op, `<a class="ref" href="#schema-s`) {
		t.Error("the rows beyond the budget are not links to their schema")
	}
	if !regexp.MustCompile(`<code>children</code></td><td><span class="t">array of</span> <a class="ref" href="#schema-node">Node</a> <span class="cycle"`).MatchString(op) {
		t.Errorf("a recursive schema is not a link to its section:\n%s", op)
	}
	if len(all) > 1<<20 {
		t.Errorf("the site is %d bytes for a 3 KB description", len(all))
	}
}

// TestLargeDescriptionSplitIntoPages: beyond a size, the site is an
// overview, a page per tag, the schemas and the shared components, linked
// to each other.
func TestLargeDescriptionSplitIntoPages(t *testing.T) {
	t.Parallel()
	paths := map[string]any{}
	for i := range splitOperations + 5 {
		tag := []string{"alpha", "beta"}[i%2]
		paths[fmt.Sprint("/things/", i)] = map[string]any{"get": map[string]any{
			"tags":       []string{tag},
			"parameters": []any{map[string]any{"$ref": "#/components/parameters/limit"}},
			"responses": map[string]any{
				"200":     map[string]any{"description": "ok", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Thing"}}}},
				"default": map[string]any{"$ref": "#/components/responses/Error"},
			},
		}}
	}
	doc := map[string]any{
		"openapi": "3.0.3", "info": map[string]any{"title": "Many", "version": "1"}, "paths": paths,
		"components": map[string]any{
			"schemas":    map[string]any{"Thing": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}}},
			"parameters": map[string]any{"limit": map[string]any{"name": "limit", "in": "query", "schema": map[string]any{"type": "integer"}}},
			"responses":  map[string]any{"Error": map[string]any{"description": "failed"}},
		},
	}
	raw, _ := json.Marshal(doc)
	files := site(t, raw)
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"assets/app.js", "assets/style.css", "components.html", "index.html", "schemas.html", "tag-alpha.html", "tag-beta.html"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("site files (-want +got):\n%s", diff)
	}
	checkEveryPart(t, raw, files)
	checkLinks(t, files)
	if !strings.Contains(files["tag-alpha.html"], `<a class="ref" href="schemas.html#schema-thing">Thing</a>`) ||
		!strings.Contains(files["tag-alpha.html"], `href="components.html#param-limit"`) {
		t.Error("a tag page does not link to the schemas and components pages")
	}
	if !strings.Contains(files["index.html"], `href="tag-beta.html#op-get-things-1"`) {
		t.Error("the overview does not list the operations of every tag")
	}
}
