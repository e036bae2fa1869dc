package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestUnchangedDescriptionCostsNoLoad: a single-file description that is
// its base byte for byte is "no API changes" without loading the base: the
// comparison costs the runner far less memory than the description's size,
// where loading the base, bundling it and comparing would cost several
// times that. Not parallel: it counts the bytes the whole program allocates.
func TestUnchangedDescriptionCostsNoLoad(t *testing.T) {
	testenv.Long(t) // publishes a description of 8,000 paths twice
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "paths": {`)
	for i := range 8000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  \"/things/%d\": {\"get\": {\"summary\": \"Get thing %d, with a summary long enough to weigh\", \"responses\": {\"200\": {\"description\": \"the thing\"}}}}", i, i)
	}
	b.WriteString("\n}}\n")
	desc := b.String()
	files := map[string]string{"api/openapi.json": desc, "base/openapi.json": desc}
	allocated := func(compare bool) uint64 {
		return dryRunAllocates(t, files, "api/openapi.json", "base/openapi.json", compare, "0 breaking changes, 0 warnings, 0 other changes")
	}
	without, with := allocated(false), allocated(true)
	if with > without && with-without > uint64(len(desc))/2 {
		t.Errorf("the comparison of an unchanged description of %d bytes allocated %d bytes", len(desc), with-without)
	}
}

// TestUnchangedYAMLCostsNoLoad: a YAML description that names no other
// file, its base byte for byte, is "no API changes" without loading the
// base, as a JSON one is; one that names another file is compared, since
// the file it names may have changed. Not parallel: it counts the bytes
// the whole program allocates. A long test, as the JSON one is: it
// publishes a description of 4,000 paths four times, on one goroutine.
func TestUnchangedYAMLCostsNoLoad(t *testing.T) {
	testenv.Long(t)
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: Big\n  version: '1'\npaths:\n")
	for i := range 4000 {
		fmt.Fprintf(&b, "  /things/%d:\n    get:\n      summary: Get thing %d, with a summary long enough to weigh\n      responses:\n        '200':\n          description: the thing\n", i, i)
	}
	desc := b.String()
	named := desc + "  /named:\n    get:\n      responses:\n        '200':\n          $ref: ./named.yaml\n"
	cases := []struct {
		name, desc        string
		headNamed, before string // the named file in the head and in the base
		wantChanges       string
		noLoad            bool
	}{
		{name: "one file", desc: desc, wantChanges: "0 breaking changes, 0 warnings, 0 other changes", noLoad: true},
		{name: "naming a file that changed", desc: named, headNamed: "description: gone\n",
			before: "description: ok\ncontent:\n  application/json:\n    schema:\n      type: string\n", wantChanges: "1 breaking change"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"api/openapi.yaml": tc.desc, "base/openapi.yaml": tc.desc}
			if tc.headNamed != "" {
				files["api/named.yaml"], files["base/named.yaml"] = tc.headNamed, tc.before
			}
			allocated := func(compare bool) uint64 {
				return dryRunAllocates(t, files, "api/openapi.yaml", "base/openapi.yaml", compare, tc.wantChanges)
			}
			without, with := allocated(false), allocated(true)
			if noLoad := with <= without || with-without <= uint64(len(tc.desc))/2; noLoad != tc.noLoad {
				t.Errorf("the comparison of %d bytes allocated %d bytes more than none: want the base loaded %v", len(tc.desc), int64(with)-int64(without), !tc.noLoad)
			}
		})
	}
}

// dryRunAllocates is the bytes a dry run of file allocates, compared with
// base or not, in a workspace of files (the sample's description removed);
// compared, its log must say the changes are wantChanges.
func dryRunAllocates(t *testing.T, files map[string]string, file, base string, compare bool, wantChanges string) uint64 {
	t.Helper()
	cfg := flowConfig(t, "https://docs-api.invalid/v1")
	os.Remove(filepath.Join(cfg.Workspace, "api", "openapi.yaml"))
	for p, content := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(cfg.Workspace, p)), 0o755)
		if err := os.WriteFile(filepath.Join(cfg.Workspace, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg.File, cfg.BaseFile, cfg.DryRun, cfg.Compare = file, base, true, Bool(compare)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, rep, err := runFlow(t, cfg, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if compare && rep.count("API changes against base-file "+base+": "+wantChanges) != 1 {
		t.Fatalf("the log does not say %q:\n%s", wantChanges, rep.log())
	}
	return after.TotalAlloc - before.TotalAlloc
}
