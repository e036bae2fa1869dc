package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// TestSeveralDescriptionsAsTheRunnerRunsThem: a config file of three runs
// as one step on GitHub: one job summary with a row per description, the
// results output and the counts in GITHUB_OUTPUT (no description's own
// outputs), each description's log in groups titled with its index and
// file, and an annotation about a description naming it.
func TestSeveralDescriptionsAsTheRunnerRunsThem(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, func(c *emulator.Config) {
		for i := range 3 {
			id := fmt.Sprint(100 + i)
			c.Projects[0].Docs = append(c.Projects[0].Docs, emulator.Doc{ID: id, Domain: emulator.DomainFor("4711", id), File: fmt.Sprintf("svc%d.yml", i), Branch: "main"})
		}
	})
	sample := readSample(t, "bookstore.swagger2.yaml")
	files := map[string]string{"docs-publish.yml": "descriptions:\n" +
		"  - {file: api/svc0.yaml, doc-id: \"100\"}\n  - {file: api/svc1.yaml, doc-id: \"101\"}\n  - {file: api/svc2.yaml, doc-id: \"999\"}\n"}
	for i := range 3 {
		files[fmt.Sprintf("api/svc%d.yaml", i)] = sample
	}
	in := baseInputs(emu)
	delete(in, "file")
	in["config"] = "docs-publish.yml"
	run := runAction(t, in, files)
	if run.code != 1 {
		t.Fatalf("exit %d, want 1 (one description's doc does not exist)\nstdout:\n%s\nstderr:\n%s", run.code, run.stdout, run.stderr)
	}
	var results []map[string]any
	if err := json.Unmarshal([]byte(run.outputs["results"]), &results); err != nil || len(results) != 3 {
		t.Fatalf("results = %q (%v)", run.outputs["results"], err)
	}
	for i, want := range []string{"published", "published", "failed"} {
		if results[i]["outcome"] != want || results[i]["file"] != fmt.Sprintf("api/svc%d.yaml", i) {
			t.Errorf("results[%d] = %v, want %s", i, results[i], want)
		}
	}
	if run.outputs["description-count"] != "3" || run.outputs["published-count"] != "2" || run.outputs["failed-count"] != "1" {
		t.Errorf("counts %v", run.outputs)
	}
	if _, set := run.outputs["build-id"]; set {
		t.Errorf("build-id set with several descriptions: %v", run.outputs)
	}
	if !strings.HasPrefix(run.summary, "### ❌ 1 of 3 descriptions failed; 2 published\n") || strings.Count(run.summary, "| ✅ published |") != 2 || !strings.Contains(run.summary, "| ❌ failed at list docs |") {
		t.Errorf("summary:\n%s", run.summary)
	}
	// Each description's timings end with its own total, which took some
	// time: the steps over loopback take milliseconds.
	if n := strings.Count(run.summary, "| **total** | **"); n != 3 || strings.Contains(run.summary, "| **total** | **0s** |") {
		t.Errorf("want 3 totals, none 0s, in the summary:\n%s", run.summary)
	}
	for _, want := range []string{"::group::descriptions[0] (api/svc0.yaml): release build", "::group::descriptions[2] (api/svc2.yaml): list docs",
		"::error title=docs-publish::1 of 3 descriptions failed, the others were published"} {
		if !strings.Contains(run.stdout, want) {
			t.Errorf("no %q in the log:\n%s", want, run.stdout)
		}
	}
}
