package publish

import (
	"context"
	"encoding/json"
	"errors"
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
