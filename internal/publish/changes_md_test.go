package publish

import (
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
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
			Path: "/" + strings.Repeat("segment/", 40) + string(rune('a'+i%26)), Text: "api removed without deprecation"})
	}
	body := commentBody(&Comparison{Base: "base-file x", Report: r}, "api/openapi.yaml")
	if len(body) > maxComment || !strings.Contains(body, "cut short to fit a comment") || !strings.HasPrefix(body, "### API changes in api/openapi.yaml") {
		t.Errorf("a comment of %d characters: %.200s…", len(body), body)
	}
	if full := ChangesMarkdown(&Comparison{Base: "base-file x", Report: r}, "api/openapi.yaml"); len(full) <= maxComment {
		t.Fatalf("the test's report (%d characters) fits anyway", len(full))
	}
}
