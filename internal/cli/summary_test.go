package cli

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden job summaries")

// TestSummaryGolden renders the job summary of runs that ended in each way
// and compares it with testdata/summary (go test ./internal/cli -update
// rewrites them).
func TestSummaryGolden(t *testing.T) {
	t.Parallel()
	cfg := publish.Config{
		ProjectID: "4711", File: "api/openapi.yaml", EventName: "pull_request",
		ServerURL: "https://github.com", Repository: "octo/bookstore", SHA: "abcdef1234567890abcdef1234567890abcdef12",
	}
	steps := []publish.StepTime{{Step: publish.StepCheck, Duration: 12 * time.Millisecond}, {Step: publish.StepCompare, Duration: 30 * time.Millisecond}}
	published := &publish.Result{
		FileName: "openapi.yml", Branch: "main", CommitMessage: "Update openapi.yml from octo/bookstore@abcdef1 (https://github.com/octo/bookstore/actions/runs/42)", DocID: "17", BuildID: "1001",
		DocsURL: "https://docs.bookstore.example/", Live: true, BuildState: publish.BuildReady,
		ZipPath: "docs-build-1001.zip", ZipSize: 4096, ZipSHA256: "00ff",
		Steps: append(steps, publish.StepTime{Step: publish.StepList, Duration: 40 * time.Millisecond},
			publish.StepTime{Step: publish.StepDownload, Duration: 900 * time.Millisecond}),
		Changes: &publish.Comparison{Base: "the pull request's base commit 61a4a26", BaseCommit: "61a4a26", Report: &apidiff.Report{Changes: []apidiff.Change{
			{ID: "new-optional-request-parameter", Level: apidiff.Info, Operation: "GET", Path: "/books", Text: "added the new optional `query` request parameter `limit`"},
		}}},
	}
	findings := []openapi.Finding{
		{Severity: openapi.Error, Msg: "parameter bookId is in path, so it must have required: true", File: "api/openapi.yaml", Pos: openapi.Pos{Line: 12, Col: 9}},
		{Severity: openapi.Warning, Msg: "default <b>*x*</b> [link](javascript:alert(1)) does not fit", File: "api/my (odd) file.yaml", Pos: openapi.Pos{Line: 3, Col: 1}},
	}
	cases := []struct {
		name string
		res  *publish.Result
		err  error
	}{
		{"published", published, nil},
		{"invalid", &publish.Result{FailedStep: publish.StepCheck, Steps: steps[:1], Findings: findings},
			&publish.InputError{Input: "file", Err: publish.ErrInvalidDescription, Msg: "api/openapi.yaml has 1 error and 1 warning (see the annotations): fix the errors, nothing was sent"}},
		{"failed-step", &publish.Result{FailedStep: publish.StepUpdate, DocID: "17", Steps: steps},
			&publish.StepError{Step: publish.StepUpdate, Desc: "update file openapi.yml on branch main", Err: errors.New("service answered 404 Not Found"), Hint: "project 4711 or branch main may not exist"}},
		{"breaking", &publish.Result{FailedStep: publish.StepCompare, Steps: steps, Changes: &publish.Comparison{Base: "base-file api/v1.yaml", Report: &apidiff.Report{Changes: []apidiff.Change{
			{ID: "api-removed-without-deprecation", Level: apidiff.Breaking, Operation: "DELETE", Path: "/books/{bookId}", Text: "api removed without deprecation"},
		}}}}, &publish.BreakingError{Count: 1}},
		{"cancelled", &publish.Result{FailedStep: publish.StepWait, DocID: "17", BuildID: "1002", Live: true, Steps: steps},
			&publish.InterruptedError{Desc: "wait for build 1002", Signal: "terminated signal received", Check: true, Err: context.Canceled,
				Done: "build 1002 was released under doc 17 with set-live true, so the service may still build it and make it live"}},
		{"fork-check", &publish.Result{DryRun: true, ForkCheck: true, FileName: "openapi.yml", Steps: steps, Changes: published.Changes}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkGolden(t, tc.name, newSummary(cfg, tc.res, tc.err, 1500*time.Millisecond).markdown())
		})
	}
}

// checkGolden compares a job summary with testdata/summary/<name>.md, which
// go test ./internal/cli -update rewrites.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("..", "..", "testdata", "summary", name+".md")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -update creates it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("summary (-golden +got):\n%s", d)
	}
}

func TestChangesRowCounts(t *testing.T) {
	t.Parallel()
	change := func(l apidiff.Level) apidiff.Change { return apidiff.Change{ID: "x", Level: l} }
	cases := []struct {
		changes []apidiff.Change
		want    string
	}{
		{nil, "0 breaking, 0 warnings, 0 other, against b"},
		{[]apidiff.Change{change(apidiff.Warning)}, "0 breaking, 1 warning, 0 other, against b"},
		{[]apidiff.Change{change(apidiff.Breaking), change(apidiff.Warning), change(apidiff.Warning), change(apidiff.Info)}, "1 breaking, 2 warnings, 1 other, against b"},
	}
	for _, tc := range cases {
		if got := changesRow(&publish.Comparison{Base: "b", Report: &apidiff.Report{Changes: tc.changes}}, false); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}

// TestSummaryLeadsWithTheOutcome checks what the golden files show, so that
// rewriting them cannot make a wrong summary right.
func TestSummaryLeadsWithTheOutcome(t *testing.T) {
	t.Parallel()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "summary", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	checks := []struct {
		name, first string
		contains    []string
		lacks       []string
	}{
		{"published", "### ✅ API docs published", []string{"**Docs:** <https://docs.bookstore.example/> · **Build:** 1001 (built)", "| what | value |", "| step | took |", "| **total** | **1.5s** |"}, nil},
		{"invalid", "### ❌ The description is invalid: nothing was sent",
			[]string{"[api/openapi.yaml:12:9](https://github.com/octo/bookstore/blob/abcdef1234567890abcdef1234567890abcdef12/api/openapi.yaml#L12)", "&lt;b&gt;\\*x\\*&lt;/b&gt;"},
			[]string{"check inputs\n", "<b>", "](javascript", "failed at"}},
		{"failed-step", "### ❌ Publishing failed at: update file", []string{"service answered 404 Not Found"}, nil},
		{"breaking", "### ❌ Breaking API changes: nothing was published", []string{"| ❌ | DELETE /books/{bookId} | api removed without deprecation |"}, nil},
		{"fork-check", "### 🔍 Checked only: nothing was published", []string{"pull request from a fork", "the description was checked and compared with its base, but nothing was published"}, nil},
	}
	for _, c := range checks {
		s := read(c.name)
		if !strings.HasPrefix(s, c.first+"\n") {
			t.Errorf("%s starts %q, want %q", c.name, strings.SplitN(s, "\n", 2)[0], c.first)
		}
		for _, w := range c.contains {
			if !strings.Contains(s, w) {
				t.Errorf("%s lacks %q", c.name, w)
			}
		}
		for _, w := range c.lacks {
			if strings.Contains(s, w) {
				t.Errorf("%s holds %q", c.name, w)
			}
		}
		// The findings come last, after the steps.
		if i, j := strings.Index(s, "#### Findings"), strings.Index(s, "| step | took |"); i >= 0 && j > i {
			t.Errorf("%s: findings before the steps", c.name)
		}
	}
}

// TestSummaryBoundsTheFindings: a description with more findings than the
// job summary shows lists the first ones and says how many more there are.
func TestSummaryBoundsTheFindings(t *testing.T) {
	t.Parallel()
	fs := make([]openapi.Finding, maxSummaryFindings+7)
	for i := range fs {
		fs[i] = openapi.Finding{Severity: openapi.Warning, Msg: "finding", File: "openapi.yaml", Pos: openapi.Pos{Line: int32(i + 1), Col: 1}}
	}
	md := newSummary(publish.Config{}, &publish.Result{Findings: fs}, nil, time.Second).markdown()
	if !strings.Contains(md, "| | | and 7 more |\n") {
		t.Errorf("the summary does not say 7 more findings:\n%s", md[len(md)-200:])
	}
	if n := strings.Count(md, "| finding |"); n != maxSummaryFindings {
		t.Errorf("%d findings shown, want %d", n, maxSummaryFindings)
	}
}

// TestChangesRowOfANewDescription: a description its base does not have is
// said to be new there, not compared with nothing.
func TestChangesRowOfANewDescription(t *testing.T) {
	t.Parallel()
	got := changesRow(&publish.Comparison{New: true, Base: "the pull request's base commit 1111111"}, false)
	if want := "the description is new at the pull request's base commit 1111111"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
