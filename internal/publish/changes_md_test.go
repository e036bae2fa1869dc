package publish

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"
)

// TestChangesMarkdownKeepsTheDescriptionInert: names and values from the
// description reach a pull request comment; they may not mention anyone,
// make links or images, break the table or add HTML.
func TestChangesMarkdownKeepsTheDescriptionInert(t *testing.T) {
	t.Parallel()
	c := &Comparison{Base: "base-file @team/www.evil.example", Report: &apidiff.Report{Changes: []apidiff.Change{{
		ID: "request-parameter-removed", Level: apidiff.Breaking, Operation: "GET",
		Path: "/books/@octocat/www.evil.example/[x](https://evil.example)",
		Text: "removed the `query` request parameter `a|b</code><img src=x onerror=alert(1)>@octocat`",
	}}}}
	md := ChangesMarkdown(c, "api/openapi.yaml")
	for _, bad := range []string{"@octocat", "@team", "www.evil", "https://evil", "<img", "](", "a|b"} {
		if strings.Contains(md, bad) {
			t.Errorf("the report holds %q:\n%s", bad, md)
		}
	}
	if !strings.Contains(md, "<code>query</code>") {
		t.Errorf("a quoted value is not shown as code:\n%s", md)
	}
	var row string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| ❌ ") {
			row = l
		}
	}
	if n := strings.Count(strings.ReplaceAll(row, `\|`, ""), "|"); n != 5 {
		t.Errorf("the row has %d cell borders, want 5: %s", n, row)
	}
}

// TestCommentFitsGitHub: a report too long for a comment is cut to fit,
// and says so.
func TestCommentFitsGitHub(t *testing.T) {
	t.Parallel()
	r := &apidiff.Report{}
	for i := range 400 {
		r.Changes = append(r.Changes, apidiff.Change{ID: "api-removed-without-deprecation", Level: apidiff.Breaking, Operation: "GET",
			Path: "/" + strings.Repeat("@x/", 60) + string(rune('a'+i%26)), Text: "api removed without deprecation"})
	}
	body := commentBody(&Comparison{Base: "base-file x", Report: r}, "api/openapi.yaml", "")
	if len(body) > maxComment || !strings.Contains(body, "cut short to fit a comment") || !strings.HasPrefix(body, "### API changes in api/openapi.yaml") {
		t.Errorf("a comment of %d characters: %.200s…", len(body), body)
	}
	if full := ChangesMarkdown(&Comparison{Base: "base-file x", Report: r}, "api/openapi.yaml"); len(full) <= maxComment {
		t.Fatalf("the test's report (%d characters) fits anyway", len(full))
	}
}

// TestChangesMarkdownRendersNamesAsText renders the report, as GitHub
// would, of changes to parameters with hostile names: no link, image, HTML
// or code of the name's own comes of it, and a long name is shortened,
// saying by how much.
func TestChangesMarkdownRendersNamesAsText(t *testing.T) {
	t.Parallel()
	names := []string{
		"[Click to approve](https://evil.example/phish) ![t](https://evil.example/track.png) https://evil.example/auto",
		"@org/team", "<img src=x>", "</details><b>x</b>", "a|b", "trailing \\", "<!-- c -->", "www.evil.example",
		strings.Repeat("n", 60_000),
	}
	r := &apidiff.Report{}
	for _, n := range names {
		r.Changes = append(r.Changes,
			apidiff.Change{ID: "request-parameter-removed", Level: apidiff.Breaking, Operation: "GET", Path: "/b/" + n, Text: "removed the `query` request parameter `" + n + "`"},
			apidiff.Change{ID: "new-optional-request-parameter", Level: apidiff.Info, Operation: "GET", Path: "/b", Text: "added the new optional `query` request parameter `" + n + "`"})
	}
	md := ChangesMarkdown(&Comparison{Base: "base-file x", Report: r}, "api/openapi.yaml")
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	rendered := out.String()
	allowed := map[string]bool{"p": true, "strong": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
		"code": true, "details": true, "summary": true}
	z := xhtml.NewTokenizer(strings.NewReader(rendered))
	codes := 0
	for tt := z.Next(); tt != xhtml.ErrorToken; tt = z.Next() {
		name, _ := z.TagName()
		switch {
		case tt == xhtml.CommentToken:
			t.Errorf("an HTML comment is rendered: %s", z.Token())
		case (tt == xhtml.StartTagToken || tt == xhtml.SelfClosingTagToken) && !allowed[string(name)]:
			t.Errorf("a <%s> is rendered", name)
		case tt == xhtml.StartTagToken && string(name) == "code":
			codes++
		}
	}
	if want := 2 * 2 * len(names); codes != want { // "query" and the name in each change
		t.Errorf("%d code elements, want %d", codes, want)
	}
	if !strings.Contains(md, `n… \(59800 more characters\)`) || len(md) > 40_000 {
		t.Errorf("a long name is not shortened: the report is %d bytes", len(md))
	}
}
