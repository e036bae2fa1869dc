package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestTenErrorAnnotations: GitHub shows ten error annotations per step and
// drops the rest without a word. A description with 30 faults gets ten:
// nine findings, the first in line order, and the run's final error, which
// sums up. The job summary lists all 30 and says how many were not
// annotated; the log lists the other 21.
func TestTenErrorAnnotations(t *testing.T) {
	t.Parallel()
	var doc strings.Builder
	doc.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n      parameters:\n")
	for i := range 30 {
		fmt.Fprintf(&doc, "        - {name: p%02d, in: querx, schema: {type: string}}\n", i)
	}
	in := map[string]string{"file": "api/openapi.yaml", "api-url": "http://127.0.0.1:1", "token": testToken, "project-id": "4711"}
	run := runAction(t, in, map[string]string{"api/openapi.yaml": doc.String()})
	if run.code == 0 {
		t.Fatal("a description with 30 errors published")
	}
	var errs []string
	for _, l := range strings.Split(run.stdout, "\n") {
		if strings.HasPrefix(l, "::error") {
			errs = append(errs, l)
		}
	}
	if len(errs) != 10 || !strings.Contains(errs[9], "30 errors in 1 file") || strings.Contains(errs[9], "line=") {
		t.Errorf("%d error annotations, want 10, the last one summing up, at no place:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	for i := range 30 {
		at := fmt.Sprintf("api/openapi.yaml:%d:27", 8+i)
		if !strings.Contains(run.summary, at) {
			t.Errorf("the job summary does not list the finding at %s", at)
		}
		if logged := strings.Contains(run.stdout, at+": error: parameter p"); logged != (i >= 9) {
			t.Errorf("the finding at %s: in the log as a line of its own: %v, want %v", at, logged, i >= 9)
		}
	}
	if !strings.Contains(run.summary, "21 of them not annotated") {
		t.Errorf("the job summary does not say how many findings were not annotated:\n%s", run.summary)
	}
}
