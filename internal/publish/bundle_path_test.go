package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestBundlePathKeepsTheUpload: bundle-path leaves the JSON the run would
// upload for later steps, and names it in the bundle-path output; a
// description that cannot be loaded leaves no file there, not even a
// part of one.
func TestBundlePathKeepsTheUpload(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		head  string // the description, "" for the sample
		wrote bool
	}{
		{"loaded", "", true},
		{"a syntax error", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: [\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, "https://docs-api.invalid/v1")
			cfg.DryRun, cfg.BundlePath = true, "out/openapi.json"
			if tc.head != "" {
				writeHead(t, cfg, tc.head)
			}
			res, rep, err := runFlow(t, cfg, Options{})
			if (err == nil) != tc.wrote {
				t.Fatalf("error %v\n%s", err, rep.log())
			}
			data, rerr := os.ReadFile(filepath.Join(cfg.Workspace, "out", "openapi.json"))
			if !tc.wrote {
				if rerr == nil || res.BundlePath != "" || rep.outputs["bundle-path"] != "" {
					t.Errorf("after a failed load: %d bytes at bundle-path, result %q, output %q", len(data), res.BundlePath, rep.outputs["bundle-path"])
				}
				return
			}
			var doc map[string]any
			if rerr != nil || json.Unmarshal(data, &doc) != nil || doc["openapi"] == nil || doc["paths"] == nil {
				t.Fatalf("bundle-path holds %d bytes that are no description (%v)", len(data), rerr)
			}
			if res.BundlePath != "out/openapi.json" || rep.outputs["bundle-path"] != "out/openapi.json" {
				t.Errorf("result %q, output %q", res.BundlePath, rep.outputs["bundle-path"])
			}
		})
	}
}

// failingOutputs is a reporter that cannot write one output, as when the
// runner's output file cannot be written.
type failingOutputs struct {
	*recorder
	name string
	err  error
}

func (r failingOutputs) SetOutput(name, value string) error {
	if name == r.name {
		return r.err
	}
	return r.recorder.SetOutput(name, value)
}

// TestBundlePathOutputThatCannotBeSet: a bundle-path output that cannot
// be set fails the run, which later steps would otherwise run without.
func TestBundlePathOutputThatCannotBeSet(t *testing.T) {
	t.Parallel()
	cfg := flowConfig(t, "https://docs-api.invalid/v1")
	cfg.DryRun, cfg.BundlePath = true, "openapi.json"
	full := errors.New("no space left on device")
	rep := failingOutputs{&recorder{}, "bundle-path", full}
	if _, err := Run(context.Background(), cfg, rep, Options{}); !errors.Is(err, full) {
		t.Fatalf("error %v, want the output's\n%s", err, rep.log())
	}
}

// TestBundlePathKeptWhateverTheComparison: a description's bundle is put
// in place once its write paths are found clear of every file the run
// reads, whatever its comparison found or the other descriptions' outcome
// (a dry run that fails on breaking changes, the bundle kept as an
// artifact, is a pull request's check); a description whose bundle-path
// clashes writes nothing, and one whose file it would go over keeps its
// own.
func TestBundlePathKeptWhateverTheComparison(t *testing.T) {
	t.Parallel()
	const common = "limit: {name: limit, in: query, schema: {type: integer}}\n"
	refers := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /books:\n    get:\n      parameters:\n        - $ref: 'common.yaml#/limit'\n      responses:\n        '200': {description: ok}\n"
	cases := []struct {
		name    string
		n       int
		breaks  []bool   // which descriptions change their base's API
		bundles []string // each description's bundle-path
		refers  []bool   // which have a $ref to api/common.yaml
		kept    []bool
		clash   bool // the error names a write over a file read
	}{
		{"its comparison fails", 1, []bool{true}, []string{"out/bundle.json"}, nil, []bool{true}, false},
		{"another's comparison fails", 2, []bool{false, true}, []string{"out/a.json", "out/b.json"}, nil, []bool{true, true}, false},
		{"both comparisons fail", 2, []bool{true, true}, []string{"out/a.json", "out/b.json"}, nil, []bool{true, true}, false},
		{"the failing one's bundle-path over another's $ref", 2, []bool{false, true}, []string{"out/a.json", "api/common.yaml"}, []bool{true, false}, []bool{true, false}, true},
		// descriptions[1] is blamed for the clash: its own bundle, clear
		// of every file read, is not kept either.
		{"the failing one's $ref under another's bundle-path", 2, []bool{true, false}, []string{"api/common.yaml", "out/b.json"}, []bool{false, true}, []bool{false, false}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfgs := manyConfigs(t, "https://docs-api.invalid/v1", tc.n)
			ws := cfgs[0].Workspace
			write := func(name, text string) {
				t.Helper()
				if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("api/base.yaml", fixture(t, "removed-operation/base/openapi.yaml"))
			write("api/common.yaml", common)
			for i := range cfgs {
				c := &cfgs[i]
				c.DryRun, c.Token, c.Compare, c.FailOnBreaking, c.BaseFile, c.BundlePath = true, "", true, true, "api/base.yaml", tc.bundles[i]
				c.File = fmt.Sprintf("api/svc%d.yaml", i)
				head := fixture(t, "removed-operation/base/openapi.yaml")
				switch {
				case tc.breaks[i]:
					head = fixture(t, "removed-operation/head/openapi.yaml")
				case tc.refers != nil && tc.refers[i]:
					head = refers
					c.Compare = false
				}
				write(c.File, head)
			}
			res, rep, err := runMany(t, cfgs, Options{Parallel: 1})
			var be *BreakingError
			var ie *InputError
			if !errors.As(err, &be) || tc.clash != errors.As(err, &ie) {
				t.Fatalf("error %v: want a breaking change's, and a clash's: %v\n%s", err, tc.clash, rep.log())
			}
			for i, want := range tc.kept {
				data, rerr := os.ReadFile(filepath.Join(ws, tc.bundles[i]))
				var doc map[string]any
				got := rerr == nil && json.Unmarshal(data, &doc) == nil && doc["paths"] != nil
				if got != want || (res[i].BundlePath != "") != want {
					t.Errorf("descriptions[%d]: a bundle at %s %v (result %q), want %v\n%s", i, tc.bundles[i], got, res[i].BundlePath, want, rep.log())
				}
			}
			if tc.n == 1 && rep.outputs["bundle-path"] != tc.bundles[0] {
				t.Errorf("output bundle-path %q, want %q", rep.outputs["bundle-path"], tc.bundles[0])
			}
			if data, _ := os.ReadFile(filepath.Join(ws, "api/common.yaml")); string(data) != common {
				t.Errorf("api/common.yaml was written over: %.80q", data)
			}
		})
	}
}

// TestBundlesDroppedLeaveNoFolder: two descriptions whose bundles go in a
// new folder they share, both dropped (each reads a file another
// description would write over), leave no folder behind, whichever made it.
func TestBundlesDroppedLeaveNoFolder(t *testing.T) {
	t.Parallel()
	refers := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /books:\n    get:\n      parameters:\n        - $ref: 'common.yaml#/limit'\n      responses:\n        '200': {description: ok}\n"
	cfgs := manyConfigs(t, "https://docs-api.invalid/v1", 3)
	ws := cfgs[0].Workspace
	if err := os.WriteFile(filepath.Join(ws, "api/common.yaml"), []byte("limit: {name: limit, in: query, schema: {type: integer}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgs[0].DownloadPath = "api/common.yaml"
	for i, bundle := range []string{"out/a.json", "out/b.json"} {
		c := &cfgs[i+1]
		c.DryRun, c.BundlePath = true, bundle
		if err := os.WriteFile(filepath.Join(ws, c.File), []byte(refers), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, rep, err := runMany(t, cfgs, Options{Parallel: 1})
	var re *RunsError
	if !errors.As(err, &re) || len(re.Failed) != 2 {
		t.Fatalf("error %v: want descriptions[1] and [2] failed\n%s", err, rep.log())
	}
	if _, err := os.Lstat(filepath.Join(ws, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out is left behind (%v)", err)
	}
}
