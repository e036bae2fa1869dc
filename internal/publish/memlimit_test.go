package publish

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/docs-publish/docs-publish/internal/memlimit"
)

// TestRunLetsItsTreesGo: a dry run that compares the description with a
// base-file holds both trees' room in the collector's limit only while it
// holds the trees: once it ends, the limit is the one there was before.
// Not parallel: the limit is the process's.
func TestRunLetsItsTreesGo(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	cfg := flowConfig(t, "http://127.0.0.1:1")
	writeHead(t, cfg, fixture(t, "removed-operation/head/openapi.yaml"))
	cfg.Compare, cfg.DryRun, cfg.BaseFile = true, true, "base/openapi.yaml"
	baseFile := filepath.Join(cfg.Workspace, "base", "openapi.yaml")
	if err := os.MkdirAll(filepath.Dir(baseFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(baseFile, []byte(fixture(t, "removed-operation/base/openapi.yaml")), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := &recorder{}
	res, err := Run(context.Background(), cfg, rep, Options{})
	if err != nil || res.Changes.Report == nil || res.Changes.Report.Total() == 0 {
		t.Fatalf("%v, %+v, want the removed operation reported\n%s", err, res.Changes, rep.log())
	}
	if got := memlimit.Limit(); got != math.MaxInt64 {
		t.Errorf("limit once the run ended: %d, want none, as before", got)
	}
}
