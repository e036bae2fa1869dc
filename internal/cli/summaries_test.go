package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/publish"
)

// severalRun is a run of three descriptions: one published, one failed at
// a step, one held; file names and messages hold Markdown and a line the
// runner would read as a command.
func severalRun() ([]publish.Config, []*publish.Result) {
	cfgs := []publish.Config{
		{ProjectID: "4711", File: "services/users/openapi.yaml"},
		{ProjectID: "47|12", File: "services/[orders](javascript:x)/openapi.yaml"},
		{ProjectID: "4713", File: "services/billing/openapi.yaml"},
	}
	results := []*publish.Result{
		{File: cfgs[0].File, ProjectID: "4711", FileName: "openapi.yml", Branch: "main", DocID: "17", BuildID: "1001", Live: true,
			BuildState: publish.BuildReady, DocsURL: "https://users.docs.example/",
			Steps: []publish.StepTime{{Step: publish.StepCheck, Duration: 12 * time.Millisecond}, {Step: publish.StepList, Duration: 100 * time.Millisecond},
				{Step: publish.StepUpdate, Duration: 138 * time.Millisecond}, {Step: publish.StepRelease, Duration: 200 * time.Millisecond}},
			Changes: &publish.Comparison{Base: "base-file api/v1.yaml", Report: &apidiff.Report{Changes: []apidiff.Change{
				{ID: "api-removed-without-deprecation", Level: apidiff.Breaking, Operation: "DELETE", Path: "/users/{id}", Text: "api removed without deprecation"},
			}}}},
		{File: cfgs[1].File, ProjectID: "47|12", FileName: "orders.yml", Branch: "main", FailedStep: publish.StepList,
			Steps:    []publish.StepTime{{Step: publish.StepCheck, Duration: 20 * time.Millisecond}, {Step: publish.StepList, Duration: 2 * time.Millisecond}},
			Err:      &publish.StepError{Step: publish.StepList, Desc: "list docs of project 47|12", Err: errors.New("service answered 404\n::error::injected")},
			Findings: []openapi.Finding{{Severity: openapi.Warning, Msg: "a *warning*", File: "services/orders/openapi.yaml", Pos: openapi.Pos{Line: 3, Col: 5}}}},
		{File: cfgs[2].File, ProjectID: "4713", FileName: "openapi.yml", Branch: "main", Held: true,
			Steps: []publish.StepTime{{Step: publish.StepCheck, Duration: 7 * time.Millisecond}}},
	}
	return cfgs, results
}

// TestSeveralDescriptionsSummaryGolden renders the job summary of a run of
// several descriptions and compares it with testdata/summary/several.md
// (go test ./internal/cli -update rewrites it).
func TestSeveralDescriptionsSummaryGolden(t *testing.T) {
	t.Parallel()
	cfgs, results := severalRun()
	runErr := &publish.RunsError{Total: 3, Sent: true, Failed: []*publish.UnitError{{Index: 1, File: cfgs[1].File, Err: results[1].Err}}}
	checkGolden(t, "several", (&summaries{cfgs: cfgs, results: results, runErr: runErr, total: 2 * time.Second}).markdown())
}

// TestSeveralDescriptionsSummarySays checks what the golden file shows, so
// that rewriting it cannot make a wrong summary right: the headline counts,
// a row per description in order with its outcome, each description's
// details under it, and nothing from a description or the service that
// renders as Markdown or starts a line with a command.
func TestSeveralDescriptionsSummarySays(t *testing.T) {
	t.Parallel()
	cfgs, results := severalRun()
	runErr := &publish.RunsError{Total: 3, Sent: true, Failed: []*publish.UnitError{{Index: 1, File: cfgs[1].File, Err: results[1].Err}}}
	md := (&summaries{cfgs: cfgs, results: results, runErr: runErr, total: time.Second}).markdown()
	if !strings.HasPrefix(md, "### ❌ 1 of 3 descriptions failed; 1 published\n") {
		t.Errorf("headline: %q", strings.SplitN(md, "\n", 2)[0])
	}
	var rows []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| 0 |") || strings.HasPrefix(l, "| 1 |") || strings.HasPrefix(l, "| 2 |") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 || !strings.Contains(rows[0], "✅ published") || !strings.Contains(rows[0], "1 breaking") || !strings.Contains(rows[0], "<https://users.docs.example/>") ||
		!strings.Contains(rows[1], "❌ failed at list docs") || !strings.Contains(rows[2], "not sent") {
		t.Errorf("rows:\n%s", strings.Join(rows, "\n"))
	}
	if strings.Count(rows[1], "|")-strings.Count(rows[1], `\|`) != 9 {
		t.Errorf("a | in a value splits the row: %q", rows[1])
	}
	for _, want := range []string{"### descriptions[0]: services/users/openapi.yaml", "#### ✅ API docs published", "#### ❌ Publishing failed at: list docs", "##### Findings in the description (1)", "### descriptions[2]: services/billing/openapi.yaml\n\n#### ⏸️ Not sent: another description failed its check"} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in:\n%s", want, md)
		}
	}
	// Each description's timings end with its own total, the sum of its
	// steps, not the run's.
	for i, want := range []string{"| **total** | **450ms** |", "| **total** | **22ms** |", "| **total** | **7ms** |"} {
		head := fmt.Sprintf("### descriptions[%d]: ", i)
		part := md[strings.Index(md, head):]
		if next := strings.Index(part[len(head):], "### descriptions["); next >= 0 {
			part = part[:len(head)+next]
		}
		if !strings.Contains(part, want) {
			t.Errorf("descriptions[%d]: no %q in:\n%s", i, want, part)
		}
	}
	if strings.Contains(md, "](javascript") || strings.Contains(md, "*warning*") {
		t.Errorf("Markdown from a description renders:\n%s", md)
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			t.Errorf("a line the runner reads as a command: %q", l)
		}
	}
}
