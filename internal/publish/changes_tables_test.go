package publish

import (
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
)

// TestChangesMarkdownTables reads whole reports: a table only for the
// levels found, each cut at its row limit with the count of the rest, and
// the agreed changes counted in a sentence of the right number.
func TestChangesMarkdownTables(t *testing.T) {
	t.Parallel()
	change := func(level apidiff.Level, path string) apidiff.Change {
		return apidiff.Change{ID: "check-" + path, Level: level, Operation: "GET", Path: "/" + path, Text: "changed `" + path + "`"}
	}
	for _, tc := range []struct {
		name   string
		report apidiff.Report
		want   string
	}{
		{"other changes only, one agreed", apidiff.Report{
			Changes:  []apidiff.Change{change(apidiff.Info, "a")},
			Accepted: []apidiff.Change{change(apidiff.Breaking, "x")},
		}, "✅ No breaking changes in api.yaml against base-file b: 0 warnings, 1 other change.\n" +
			"\n<details><summary>1 other change</summary>\n\n| operation | change | check |\n|---|---|---|\n" +
			"| GET /a | changed <code>a</code> | check-a |\n" +
			"\n</details>\n" +
			"\n1 agreed change listed in breaking-ignore is not counted.\n"},
		{"breaking changes past the limit, two agreed", apidiff.Report{
			Changes:  []apidiff.Change{change(apidiff.Breaking, "a"), change(apidiff.Warning, "b"), change(apidiff.Breaking, "c")},
			Accepted: []apidiff.Change{change(apidiff.Breaking, "x"), change(apidiff.Warning, "y")},
		}, "❌ **2 breaking changes** in api.yaml against base-file b, 1 warning, 0 other changes.\n" +
			"\n| | operation | change | check |\n|---|---|---|---|\n" +
			"| ❌ | GET /a | changed <code>a</code> | check-a |\n" +
			"| ⚠️ | GET /b | changed <code>b</code> | check-b |\n" +
			"| | | and 1 more |  |\n" +
			"\n2 agreed changes listed in breaking-ignore are not counted.\n"},
		{"other changes past the limit, none agreed", apidiff.Report{
			Changes: []apidiff.Change{change(apidiff.Info, "a"), change(apidiff.Info, "b"), change(apidiff.Info, "c"), change(apidiff.Info, "d")},
		}, "✅ No breaking changes in api.yaml against base-file b: 0 warnings, 4 other changes.\n" +
			"\n<details><summary>4 other changes</summary>\n\n| operation | change | check |\n|---|---|---|\n" +
			"| GET /a | changed <code>a</code> | check-a |\n" +
			"| GET /b | changed <code>b</code> | check-b |\n" +
			"| | and 2 more |  |\n" +
			"\n</details>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := changesMarkdown(&Comparison{Base: "base-file b", Report: &tc.report}, "api.yaml", 2); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
