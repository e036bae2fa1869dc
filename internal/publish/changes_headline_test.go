package publish

import (
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
)

// TestChangesMarkdownHeadline: the first line of the report on a pull
// request says whether anything breaks, or why nothing was compared.
func TestChangesMarkdownHeadline(t *testing.T) {
	t.Parallel()
	breaking := apidiff.Change{ID: "api-path-removed", Level: apidiff.Breaking, Operation: "GET", Path: "/a", Text: "removed the path"}
	warning := apidiff.Change{ID: "response-optional-property-removed", Level: apidiff.Warning, Operation: "GET", Path: "/b", Text: "removed `id`"}
	info := apidiff.Change{ID: "endpoint-added", Level: apidiff.Info, Operation: "POST", Path: "/c", Text: "added"}
	for _, tc := range []struct {
		name string
		c    Comparison
		want string
	}{
		{"new", Comparison{Base: "main", New: true}, "api.yaml is new: it does not exist at main, so there is nothing to compare.\n"},
		{"skipped", Comparison{Base: "main", Skipped: "the base could not be read"}, "Nothing compared: the base could not be read\n"},
		{"skipped and long", Comparison{Base: "main", Skipped: strings.Repeat("r", 5000)}, "Nothing compared: " + strings.Repeat("r", 1000)},
		{"no changes", Comparison{Base: "main", Report: &apidiff.Report{}}, "✅ No API changes in api.yaml against main.\n"},
		{"breaking", Comparison{Base: "main", Report: &apidiff.Report{Changes: []apidiff.Change{breaking, warning, info, info}}},
			"❌ **1 breaking change** in api.yaml against main, 1 warning, 2 other changes.\n"},
		{"warnings only", Comparison{Base: "main", Report: &apidiff.Report{Changes: []apidiff.Change{warning, warning, info}}},
			"✅ No breaking changes in api.yaml against main: 2 warnings, 1 other change.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			md := ChangesMarkdown(&tc.c, "api.yaml")
			if !strings.HasPrefix(md, tc.want) {
				t.Errorf("report begins\n%.300q\nwant\n%.300q", md, tc.want)
			}
			if tc.name == "skipped and long" && (strings.Contains(md, strings.Repeat("r", 1001)) || len(md) > 1200) {
				t.Errorf("a long reason is not shortened: %d bytes", len(md))
			}
			if tc.c.Report == nil && strings.Contains(md, "|") {
				t.Errorf("a table with nothing compared:\n%s", md)
			}
		})
	}
}

// TestChangesMarkdownUnpairedBacktick: a change's text is shown with its
// quoted names as code; a backtick without its pair is shown as itself,
// escaped, and opens no code span that would swallow the rest of the row.
func TestChangesMarkdownUnpairedBacktick(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"removed `a` and `b`":    "removed <code>a</code> and <code>b</code>",
		"removed `a` and `b":     "removed <code>a</code> and \\`b",
		"`x`":                    "<code>x</code>",
		"renamed `*bold*` to `c": "renamed <code>\\*bold\\*</code> to \\`c",
	} {
		if got := withCode(text); got != want {
			t.Errorf("withCode(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestCommentWithEveryChangeIsNotCutShort: a comment that lists every change
// says nothing of being cut short.
func TestCommentWithEveryChangeIsNotCutShort(t *testing.T) {
	t.Parallel()
	ch := apidiff.Change{ID: "api-path-removed", Level: apidiff.Breaking, Operation: "GET", Path: "/a", Text: "removed the path"}
	short := commentBody(&Comparison{Base: "main", Report: &apidiff.Report{Changes: []apidiff.Change{ch}}}, "api.yaml", "")
	if strings.Contains(short, "cut short") || !strings.Contains(short, "removed the path") {
		t.Errorf("a one-change comment:\n%s", short)
	}
}
