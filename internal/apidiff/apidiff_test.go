package apidiff

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff/apiedits"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden reports")

// bundled is a description as a run publishes it: loaded, bundled and
// encoded from the folder dir, whose only .yaml or .json at its top is the
// description.
func bundled(t *testing.T, dir string) []byte {
	t.Helper()
	fsys := os.DirFS(dir)
	names, err := fs.Glob(fsys, "*.*")
	if err != nil || len(names) != 1 {
		t.Fatalf("%s: want one description at the top, have %v (%v)", dir, names, err)
	}
	ctx := context.Background()
	doc, err := openapi.Load(ctx, fsys, names[0], openapi.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = openapi.Bundle(ctx, doc, openapi.BundleOptions{FS: fsys}); err != nil {
		t.Fatal(err)
	}
	out, err := openapi.Encode(doc, openapi.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// text is a report as a golden file holds it: one change a line.
func text(r *Report) string {
	var b strings.Builder
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "%s\t%s %s\t%s\t%s\n", c.Level, c.Operation, c.Path, c.ID, c.Text)
	}
	return b.String()
}

// TestGoldenReports compares each pair under testdata/apidiff (base/ and
// head/, bundled as a run bundles them) with its golden report
// (go test ./internal/apidiff -update rewrites them).
func TestGoldenReports(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..", "testdata", "apidiff")
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	// What each pair must show whatever else the library reports: a test
	// of our reading of the levels, not only of a file we wrote.
	want := map[string]struct {
		breaking bool
		ids      []string
	}{
		"removed-operation":           {true, []string{"api-removed-without-deprecation"}},
		"required-parameter-added":    {true, []string{"new-required-request-parameter"}},
		"enum-value-removed":          {true, []string{"request-parameter-enum-value-removed"}},
		"type-changed":                {true, []string{"response-property-type-changed"}},
		"response-removed":            {true, []string{"response-success-status-removed"}},
		"new-optional-parameter":      {false, []string{"new-optional-request-parameter"}},
		"shared-parameter-multi-file": {true, []string{"request-parameter-became-required"}},
		"swagger2":                    {true, []string{"api-removed-without-deprecation"}},
		"openapi31":                   {true, []string{"response-property-became-optional", "endpoint-added"}},
		"no-changes":                  {false, nil},
		"header-case-only":            {false, nil},
		"annotated-json":              {true, []string{"response-property-type-changed"}},
		"annotated-multi-file":        {true, []string{"request-parameter-became-required", "api-path-removed-without-deprecation"}},
	}
	for _, c := range cases {
		name := c.Name()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(root, name)
			rep, err := Compare(bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head")))
			if err != nil {
				t.Fatal(err)
			}
			got := text(rep)
			golden := filepath.Join(dir, "report.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wantText, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./internal/apidiff -update creates it)", err)
			}
			if d := cmp.Diff(string(wantText), got); d != "" {
				t.Errorf("report (-golden +got):\n%s", d)
			}
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expectation for %s: add it to the table", name)
			}
			if (rep.Count(Breaking) > 0) != w.breaking {
				t.Errorf("%d breaking changes, want breaking %v:\n%s", rep.Count(Breaking), w.breaking, got)
			}
			for _, id := range w.ids {
				if !strings.Contains(got, "\t"+id+"\t") {
					t.Errorf("no %s change in:\n%s", id, got)
				}
			}
			if strings.Contains(got, "version-not-bumped") {
				t.Errorf("advice about the version counted as an API change:\n%s", got)
			}
			if (name == "no-changes" || name == "header-case-only") && len(rep.Changes) != 0 {
				t.Errorf("changes between identical descriptions:\n%s", got)
			}
		})
	}
}

// TestVersionAdviceIsNoChange: whatever happens to info.version along with a
// breaking change (kept, lowered, raised by a minor version), the report
// holds the breaking change and no advice about the version.
func TestVersionAdviceIsNoChange(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "apidiff", "removed-operation")
	base, head := bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head"))
	for _, version := range []string{"1.0.0", "0.9.0", "1.1.0", "2.0.0"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			h := strings.Replace(string(head), `"version":"1.0.0"`, `"version":"`+version+`"`, 1)
			if !strings.Contains(h, `"version":"`+version+`"`) {
				t.Fatalf("the head has no version %s", version)
			}
			rep, err := Compare(base, []byte(h))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Count(Breaking) != 1 {
				t.Errorf("%d breaking changes, want 1:\n%s", rep.Count(Breaking), text(rep))
			}
			for _, c := range rep.Changes {
				if strings.HasPrefix(c.ID, "api-version-") || strings.HasPrefix(c.ID, "api-major-version-") {
					t.Errorf("advice about the version counted as an API change: %s", c.ID)
				}
			}
		})
	}
}

func TestAcceptMovesListedBreaksAside(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "apidiff", "swagger2")
	base, head := bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head"))
	cases := []struct {
		name   string
		ignore string
		gone   string // the check id that must have moved to Accepted; "" for none
	}{
		{"the removed operation, as written by oasdiff", "POST /books api removed without deprecation\n", "api-removed-without-deprecation"},
		{"in other case, among other words", "# agreed in #42\npost /BOOKS API removed without deprecation (release 2.0)\n", "api-removed-without-deprecation"},
		{"another path", "POST /authors api removed without deprecation\n", ""},
		{"another method", "GET /books api removed without deprecation\n", ""},
		{"no path", "api removed without deprecation\n", ""},
		{"empty", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep, err := Compare(base, head)
			if err != nil {
				t.Fatal(err)
			}
			before := len(rep.Changes)
			if err := rep.Accept(strings.NewReader(tc.ignore)); err != nil {
				t.Fatal(err)
			}
			var accepted []string
			for _, c := range rep.Accepted {
				accepted = append(accepted, c.ID)
			}
			if tc.gone == "" && len(accepted) > 0 {
				t.Errorf("accepted %v", accepted)
			}
			if tc.gone != "" && (len(accepted) != 1 || accepted[0] != tc.gone) {
				t.Errorf("accepted %v, want [%s]", accepted, tc.gone)
			}
			if len(rep.Changes)+len(rep.Accepted) != before {
				t.Errorf("%d changes and %d accepted, from %d", len(rep.Changes), len(rep.Accepted), before)
			}
			for _, c := range rep.Changes {
				if c.ID == tc.gone {
					t.Errorf("%s is still among the changes", c.ID)
				}
			}
		})
	}
}

// TestTooLargeAChange: a change that reaches more of a description than the
// comparison reads is an error that says so, and a smaller change to the
// same description is compared. Not parallel: it lowers the bound.
func TestTooLargeAChange(t *testing.T) {
	base := bundleFile(os.DirFS(filepath.Join("..", "..", "testdata", "specs")), "bookstore.openapi3.json")
	head, _ := withEdits(t, base, apiedits.All[0]) // one operation removed
	// The bound between what the change reaches and the whole.
	b, _ := index(base)
	h, _ := index(head)
	p := prune(b, h)
	part, _, _ := b.text(closure(p.keep, b, h), p.drop, false)
	// The whole as the library is given it, every unit without what no
	// check reads.
	all := map[unitKey]bool{}
	for k := range h.units {
		all[k] = true
	}
	whole, _, _ := h.text(all, nil, false)
	if len(part) >= len(whole) {
		t.Fatalf("the change reaches %d bytes of %d", len(part), len(whole))
	}
	defer func(n int64) { maxComparedText = n }(maxComparedText)
	maxComparedText = int64(len(part)+len(whole)) / 2
	// In one part, as a description of this size is read.
	_, err := compareIn(context.Background(), []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}`), head, nil, maxPartText)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("the whole description against an empty one: %v, want ErrTooLarge", err)
	}
	// The sizes in MB, as the description's are: well under 1 MB each.
	if err == nil || !regexp.MustCompile(`reaches 0\.[0-9] MB of it, more than the 0\.[0-9] MB the comparison reads`).MatchString(err.Error()) {
		t.Errorf("the message does not give the sizes in MB: %v", err)
	}
	if _, err := Compare(base, head); err != nil {
		t.Errorf("a change to a part: %v", err)
	}
	// A part of exactly the bound is compared.
	partHead, _, _ := h.text(closure(p.keep, b, h), p.drop, false)
	maxComparedText = int64(max(len(part), len(partHead)))
	if _, err := Compare(base, head); err != nil {
		t.Errorf("a change to a part of exactly the bound: %v", err)
	}
}

func TestUnreadableSides(t *testing.T) {
	t.Parallel()
	good := []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}`)
	cases := []struct {
		name       string
		base, head string
		side       Side
	}{
		{"base is not JSON", "{", string(good), Base},
		{"head is not JSON", string(good), "[1,", Head},
		{"a remote $ref in the head", string(good),
			`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"$ref":"https://example.com/paths.json#/a"}}}`, Head},
		{"a file $ref in the base",
			`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"$ref":"/etc/passwd"}}}`, string(good), Base},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Compare([]byte(tc.base), []byte(tc.head))
			var re *ReadError
			if !errors.As(err, &re) || re.Side != tc.side {
				t.Fatalf("err %v, want a ReadError on the %s", err, tc.side)
			}
		})
	}
}

// TestTooLargeWhole: documents the parts cannot follow (a Swagger 2.0
// description that became OpenAPI 3) go to the library whole only up to a
// bound of their size together; beyond, the comparison says so. Not
// parallel: it lowers the bound.
func TestTooLargeWhole(t *testing.T) {
	fsys := os.DirFS(filepath.Join("..", "..", "testdata", "specs"))
	base, head := bundleFile(fsys, "bookstore.swagger2.yaml"), bundleFile(fsys, "bookstore.openapi3.json")
	if base == nil || head == nil {
		t.Fatal("the bookstore samples do not load")
	}
	if _, err := Compare(base, head); err != nil {
		t.Fatalf("Swagger 2.0 to OpenAPI 3: %v", err)
	}
	defer func(n int64) { maxWholeText = n }(maxWholeText)
	maxWholeText = int64(len(compact(base))+len(compact(head))) - 1
	_, err := Compare(base, head)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "a new version of OpenAPI") {
		t.Errorf("one byte over the bound: %v, want ErrTooLarge saying why", err)
	}
}

// TestUnusedIgnoreLines: the lines of an ignore file that agree to no
// change of a comparison, and are about a path of the base or the head,
// are named with their number and as written; compared a path at a time or
// whole, a line that agreed in one part agreed.
func TestUnusedIgnoreLines(t *testing.T) {
	t.Parallel()
	// The head removes /p3, and changes /p0 to /p2 in a breaking way.
	base, head := operations(4, false), operations(3, true)
	const (
		required = "GET /p0 the `query` request parameter `q` became required"
		removed  = "GET /p3 api path removed without deprecation"
	)
	cases := []struct {
		name   string
		ignore string
		want   []IgnoreLine
	}{
		{"matched in one part only", required + "\n" + strings.ToUpper(removed) + "\n", nil},
		{"never matched", "# agreed\n" + required + "\nGET /p1 the `query` request parameter `q` became requird\n", []IgnoreLine{{3, "GET /p1 the `query` request parameter `q` became requird"}}},
		{"never matched, a path of the base only", "GET /p3 api path removed\n", []IgnoreLine{{1, "GET /p3 api path removed"}}},
		{"a line agreeing to a change another line agrees to", required + "\n" + required + " (again)\n", nil},
		{"a path neither description has", "GET /p9 the `query` request parameter `q` became required\nGET /P1x changed\n", nil},
		{"lines without a path", "\napi path removed without deprecation\n" + required + "\ncomponents removed the schema Old\n", nil},
		{"in any case", "get /P2 the `query` request parameter became required\n", []IgnoreLine{{1, "get /P2 the `query` request parameter became required"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, how := range []struct {
				name    string
				compare func(ig *ignores) (*Report, error)
			}{
				{"a path a part", func(ig *ignores) (*Report, error) { return compareIn(context.Background(), base, head, ig, 1) }},
				{"whole", func(ig *ignores) (*Report, error) { return compareWhole(context.Background(), base, head, ig) }},
			} {
				ig, err := ignoreLines(strings.NewReader(tc.ignore))
				if err != nil {
					t.Fatal(err)
				}
				rep, err := how.compare(ig)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tc.want, rep.UnusedIgnore()); d != "" {
					t.Errorf("%s: unused lines (-want +got):\n%s", how.name, d)
				}
			}
		})
	}
}
