package publish

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/memlimit"
)

// TestRunLetsItsTreesGo: every tree a dry run prepares, the head's and the
// base's, gives its room in the collector's limit back by the time the run
// has ended, whether the run compared, found the head invalid, could not
// read the head while the base was loading, or read the head unbundled.
// Not parallel: the reservations are the process's.
func TestRunLetsItsTreesGo(t *testing.T) {
	head := fixture(t, "removed-operation/head/openapi.yaml")
	base := fixture(t, "removed-operation/base/openapi.yaml")
	// A base of another size than the head's is loaded beside it.
	bigBase := `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}` + strings.Repeat(" ", 3<<20)
	for _, tc := range []struct {
		name       string
		head, base string
		bundle     bool
		failed     bool
	}{
		{"compared", head, base, true, false},
		{"compared, the head unbundled", head, base, false, false},
		{"the head invalid", `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"nopath":{}}}`, base, true, true},
		{"the head unreadable while the base loads", "openapi: [\n", bigBase, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open := memlimit.Open()
			cfg := flowConfig(t, "http://127.0.0.1:1")
			writeHead(t, cfg, tc.head)
			cfg.Compare, cfg.DryRun, cfg.BaseFile, cfg.Bundle = true, true, "base/openapi.yaml", Bool(tc.bundle)
			baseFile := filepath.Join(cfg.Workspace, "base", "openapi.yaml")
			if err := os.MkdirAll(filepath.Dir(baseFile), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(baseFile, []byte(tc.base), 0o644); err != nil {
				t.Fatal(err)
			}
			rep := &recorder{}
			_, err := Run(context.Background(), cfg, rep, Options{})
			if (err != nil) != tc.failed {
				t.Fatalf("error %v, want failed %v\n%s", err, tc.failed, rep.log())
			}
			// A tree no one takes is let go once its load ends, which may
			// be after the run.
			for deadline := time.Now().Add(10 * time.Second); memlimit.Open() != open && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			if got := memlimit.Open(); got != open {
				t.Errorf("%d reservations open once the run ended, want %d", got, open)
			}
		})
	}
}

// TestRunAsideDiscardsWhatComesTooLate: what fn gives after ctx has ended,
// or as it ends, goes to discard, not nowhere.
func TestRunAsideDiscardsWhatComesTooLate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// finishFirst: fn may end before runAside looks, so that it finds
		// both ended (which of the two ways it lets go is chance).
		finishFirst bool
	}{
		{"fn ends after ctx", false},
		{"fn and ctx end together", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			release := make(chan struct{})
			discarded := make(chan int, 1)
			fn := func() (int, error) {
				<-release
				return 42, nil
			}
			if tc.finishFirst {
				close(release)
			}
			cancel()
			if v, err := runAside(ctx, fn, func(v int) { discarded <- v }); err == nil || v != 0 {
				t.Fatalf("runAside = %d, %v, want ctx's end", v, err)
			}
			if !tc.finishFirst {
				close(release)
			}
			select {
			case v := <-discarded:
				if v != 42 {
					t.Errorf("discarded %d, want 42", v)
				}
			case <-time.After(10 * time.Second):
				t.Error("what fn gave was never discarded")
			}
		})
	}
}
