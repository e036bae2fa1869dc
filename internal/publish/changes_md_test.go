package publish

import (
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/report/reporttest"

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
	rendered := reporttest.RenderGFM(t, md)
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

// TestWithCodeNamesWithBackticks: the comparison library quotes each name
// in one backtick on either side, whatever the name holds; the name is
// what lies between the backtick that opens a word and the first one that
// ends one, backticks inside it and all, and it is shown whole as code.
func TestWithCodeNamesWithBackticks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, text, want string }{
		{"enum value in backticks", "removed the enum value ``tick`` from the `query` request parameter `p`",
			"removed the enum value <code>\\`tick\\`</code> from the <code>query</code> request parameter <code>p</code>"},
		{"one backtick", "deleted the `query` request parameter ```",
			"deleted the <code>query</code> request parameter <code>\\`</code>"},
		{"only backticks", "deleted the `query` request parameter `````",
			"deleted the <code>query</code> request parameter <code>\\`\\`\\`</code>"},
		{"backtick at the start", "removed the enum value ```a` from the `query` request parameter `p`",
			"removed the enum value <code>\\`\\`a</code> from the <code>query</code> request parameter <code>p</code>"},
		{"backtick at the end", "removed the enum value `a``, then `b`",
			"removed the enum value <code>a\\`</code>, then <code>b</code>"},
		{"backtick inside", "renamed `a`b` to `c`",
			"renamed <code>a\\`b</code> to <code>c</code>"},
		{"empty", "removed the enum value `` from `p`",
			"removed the enum value <code></code> from <code>p</code>"},
		{"next to pipes", "deleted the `query` request parameter `|`|` and more",
			"deleted the <code>query</code> request parameter <code>\\|\\`\\|</code> and more"},
		{"next to HTML", "removed `</code>`<b>`` here",
			"removed <code>&lt;/code&gt;\\`&lt;b&gt;\\`</code> here"},
		{"a command", "removed the enum value `::error::`x` from `p`",
			"removed the enum value <code>::error::\\`x</code> from <code>p</code>"},
		{"a backtick inside a word opens nothing", "the default don`t of `x`",
			"the default don\\`t of <code>x</code>"},
		{"a command alone", "`::error::`",
			"<code>::error::</code>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := withCode(tc.text); got != tc.want {
				t.Errorf("withCode(%q)\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestCommentShowsNamesWithBackticks renders a pull request comment, as
// GitHub would, of changes to names with backticks, pipes, HTML and a
// runner command in them: each code element shows the name as written
// (the zero-width spaces that keep a mention or a link from acting are
// not seen), and no line starts a command.
func TestCommentShowsNamesWithBackticks(t *testing.T) {
	t.Parallel()
	names := []string{"`tick`", "```", "`", "`a", "a`", "a`b", "|`|", "</code>`<b>`", "::error::x", "::error::`", "`x|y`", "@team`#12"}
	r := &apidiff.Report{}
	var want []string
	for _, n := range names {
		r.Changes = append(r.Changes, apidiff.Change{ID: "request-parameter-enum-value-removed", Level: apidiff.Breaking,
			Operation: "GET", Path: "/b", Text: "removed the enum value `" + n + "` from the `query` request parameter `p`"})
		want = append(want, n, "query", "p")
	}
	body := commentBody(&Comparison{Base: "main", Report: r}, "api.yaml", "")
	for _, c := range ghactiontest.Commands(body) {
		t.Errorf("a line the runner reads as a command: %q", c.Text)
	}
	var got []string
	z := xhtml.NewTokenizer(strings.NewReader(reporttest.RenderGFM(t, body)))
	depth := 0
	var code strings.Builder
	for tt := z.Next(); tt != xhtml.ErrorToken; tt = z.Next() {
		name, _ := z.TagName()
		switch {
		case tt == xhtml.StartTagToken && string(name) == "code":
			depth++
			code.Reset()
		case tt == xhtml.EndTagToken && string(name) == "code":
			depth--
			got = append(got, strings.ReplaceAll(code.String(), "\u200b", ""))
		case tt == xhtml.TextToken && depth > 0:
			code.WriteString(string(z.Text()))
		case (tt == xhtml.StartTagToken || tt == xhtml.SelfClosingTagToken) && depth > 0:
			t.Errorf("a <%s> inside a code element", name)
		}
	}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("the code elements show\n%q\nwant\n%q\nfrom\n%s", got, want, body)
	}
}
