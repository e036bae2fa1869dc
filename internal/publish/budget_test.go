package publish

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// operations is a description with n operations, GET /p00 to /p<n-1>; the
// first has params query parameters whose default is not an integer, each
// a warning.
func operations(n, params int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n")
	for i := range n {
		fmt.Fprintf(&b, "  /p%02d:\n    get:\n      responses: {'200': {description: ok}}\n", i)
		if i == 0 && params > 0 {
			b.WriteString("      parameters:\n")
			for j := range params {
				fmt.Fprintf(&b, "        - {name: q%02d, in: query, schema: {type: integer, default: x}}\n", j)
			}
		}
	}
	return b.String()
}

// TestAnnotationBudgetSharedByTheRun: the description's findings and the
// breaking changes share GitHub's ten annotations per level, an error's
// tenth kept for the run's final error; the others are in the log, and a
// notice says how many.
func TestAnnotationBudgetSharedByTheRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name           string
		params         int
		failOnBreaking bool
		level          string
		findings       int // findings annotated
		breaking       int // breaking changes annotated
	}{
		{name: "fail-on-breaking: nine errors, the final error is the tenth", failOnBreaking: true, level: "error", breaking: 9},
		{name: "warnings of the description and breaking warnings share ten", params: 6, level: "warning", findings: 6, breaking: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gh := fakeGitHub(t)
			cfg := compareConfig(t, "http://127.0.0.1:1", gh, operations(1, tc.params))
			cfg.DryRun, cfg.Token, cfg.FailOnBreaking = true, "", Bool(tc.failOnBreaking)
			gh.AddFile(baseSHA, "api/openapi.yaml", operations(15, tc.params))
			res, rep, err := runFlow(t, cfg, Options{})
			var be *BreakingError
			if tc.failOnBreaking != errors.As(err, &be) || !tc.failOnBreaking && err != nil {
				t.Fatalf("err %v\n%s", err, rep.log())
			}
			var all, breaking int // annotations of the level
			for _, l := range strings.Split(rep.log(), "\n") {
				if strings.HasPrefix(l, tc.level+": ") {
					all++
					if strings.Contains(l, ": breaking change: ") {
						breaking++
					}
				}
			}
			if all != tc.findings+tc.breaking || breaking != tc.breaking {
				t.Errorf("%d %s annotations, %d of breaking changes: want %d findings and %d breaking changes\n%s", all, tc.level, breaking, tc.findings, tc.breaking, rep.log())
			}
			if res.Changes == nil || res.Changes.Report == nil || len(res.Changes.Report.Changes) != 14 {
				t.Fatalf("changes: %+v", res.Changes)
			}
			// Every removed operation is annotated or logged, once, and
			// in the comment.
			for i := 1; i < 15; i++ {
				line := fmt.Sprintf("breaking change: GET /p%02d:", i)
				if n := rep.count(line); n != 1 {
					t.Errorf("GET /p%02d: %d times in the annotations and the log, want 1", i, n)
				}
				if c := ours(gh); len(c) != 1 || !strings.Contains(c[0].Body, fmt.Sprintf("/p%02d", i)) {
					t.Errorf("GET /p%02d is not in the comment", i)
				}
			}
			notice := fmt.Sprintf("notice: :0:0: %d more breaking changes are not annotated", 14-tc.breaking)
			if rep.count(notice) != 1 {
				t.Errorf("no %q\n%s", notice, rep.log())
			}
		})
	}
}

// TestUnannotatedListIsBounded: the log lists at most maxUnannotated of
// what was not annotated, and says how many more there are.
func TestUnannotatedListIsBounded(t *testing.T) {
	t.Parallel()
	for _, n := range []int{maxUnannotated, maxUnannotated + 5} {
		rep := &recorder{}
		lines := make([]string, n)
		for i := range lines {
			lines[i] = fmt.Sprintf("change %d", i)
		}
		listUnannotated(rep, "breaking changes", "the job summary and the log", lines)
		if got := rep.count("change "); got != min(n, maxUnannotated) {
			t.Errorf("%d not annotated: %d listed, want %d", n, got, min(n, maxUnannotated))
		}
		more := rep.count("and 5 more breaking changes, not listed")
		if want := map[bool]int{true: 1, false: 0}[n > maxUnannotated]; more != want {
			t.Errorf("%d not annotated: %d lines saying how many more, want %d\n%s", n, more, want, rep.log())
		}
		if rep.count(fmt.Sprintf("%d more breaking changes are not annotated", n)) != 1 {
			t.Errorf("%d not annotated: the notice does not count them all", n)
		}
	}
}
