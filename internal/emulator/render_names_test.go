package emulator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hostileNames are names a description may give that Markdown would turn
// into markup: a link, an image, autolinks, a mention, raw HTML, a table
// break, emphasis, an open code span, a trailing backslash.
var hostileNames = []string{
	"[Click to approve](https://evil.example/phish)",
	"![t](https://evil.example/track.png)",
	"https://evil.example/auto www.evil.example",
	"<https://evil.example/angle>",
	"@org/team",
	`<img src="https://evil.example/x.png">`,
	"</details><b>bold</b>",
	"a|b",
	"*em* _em_ **strong** ~~del~~",
	"``open code",
	`trail\`,
}

// namesDescription is a description that gives every hostile name as each
// kind of name the site shows (paths, operation ids, summaries, tags,
// parameters, headers, properties, schemas, security schemes, server
// variables, examples, the title and version), with no description field
// but one, which holds the first name's link pointing elsewhere: the
// control that Markdown, where it is meant to, does render.
func namesDescription() []byte {
	paths := map[string]any{}
	schemas := map[string]any{}
	schemes := map[string]any{}
	vars := map[string]any{}
	for i, name := range hostileNames {
		props := map[string]any{name: map[string]any{"type": "string"}}
		schemas[name] = map[string]any{"type": "object", "properties": props}
		schemes[name] = map[string]any{"type": "apiKey", "in": "header", "name": name}
		vars[fmt.Sprintf("v%d", i)] = map[string]any{"default": name, "enum": []string{name}}
		op := map[string]any{
			"operationId": name,
			"summary":     name,
			"tags":        []string{name},
			"security":    []any{map[string]any{name: []string{}}},
			"parameters": []any{map[string]any{"name": name, "in": "query", "schema": map[string]any{"type": "string"},
				"examples": map[string]any{name: map[string]any{"summary": name, "value": name}}}},
			"responses": map[string]any{"200": map[string]any{
				"description": "ok",
				"headers":     map[string]any{name: map[string]any{"schema": map[string]any{"type": "string"}}},
				"content": map[string]any{"application/json": map[string]any{
					"schema": map[string]any{"$ref": "#/components/schemas/" + jsonPointerToken(name)}}},
			}},
		}
		if i == 0 {
			op["description"] = strings.ReplaceAll(hostileNames[0], "evil.example", "described.example")
		}
		paths["/"+name] = map[string]any{"get": op}
	}
	doc := map[string]any{
		"openapi": "3.0.3",
		"info":    map[string]any{"title": hostileNames[0], "version": hostileNames[1]},
		"servers": []any{map[string]any{"url": "https://api.example.com/{v0}", "variables": vars}},
		"paths":   paths,
		"components": map[string]any{
			"schemas":         schemas,
			"securitySchemes": schemes,
		},
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return raw
}

// jsonPointerToken escapes a name as one token of a JSON pointer.
func jsonPointerToken(name string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}

// TestNamesRenderAsText: the site puts a description's names into its
// pages through html/template, never through Markdown (only description
// fields are rendered as Markdown), so a name that is Markdown for a link,
// an image, an autolink, raw HTML or emphasis shows as the text it is: no
// <a> or <img> to the names' addresses and no element from a name reach a
// page, and every name is shown verbatim. The one description field that
// holds the same Markdown does render, which shows the test would see
// Markdown rendered where it should not be.
func TestNamesRenderAsText(t *testing.T) {
	t.Parallel()
	files := site(t, namesDescription())
	var text strings.Builder
	described := 0
	for name, page := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		text.WriteString(pageText(page))
		walkHTML(t, page, func(tok html.Token) {
			checkMarkup(t, name, tok)
			switch tok.Data {
			case "img", "b", "em", "strong", "del":
				t.Errorf("%s: <%s> from a name: %v", name, tok.Data, tok)
			case "a":
				href := attr(tok, "href")
				if strings.Contains(href, "evil.example") {
					t.Errorf("%s: a link from a name: %v", name, tok)
				}
				if strings.Contains(href, "described.example") {
					described++
				}
			}
		})
	}
	if described == 0 {
		t.Error("the description field's links did not render: the control failed, so the test sees no Markdown")
	}
	shown := text.String()
	for _, name := range hostileNames {
		if !strings.Contains(shown, name) {
			t.Errorf("the pages do not show the name %q as text", name)
		}
	}
}

// pageText is the text of a page, a line for each of its text nodes.
func pageText(page string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(page))
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		if tt == html.TextToken {
			b.WriteString(z.Token().Data + "\n")
		}
	}
	return b.String()
}
