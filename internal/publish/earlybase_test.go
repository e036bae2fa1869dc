package publish

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestBaseFileLoadedWithTheHead: base-file's description is loaded while
// the head is, and the comparison takes it: removed from the workspace once
// the head is loaded, it is still what is compared. A base-file of the
// head's size is left to the comparison, which finds a copy of the head
// without loading it.
func TestBaseFileLoadedWithTheHead(t *testing.T) {
	t.Parallel()
	head := fixture(t, "removed-operation/head/openapi.yaml")
	cases := []struct {
		name  string
		base  string
		early bool
	}{
		{"a base of another size", fixture(t, "removed-operation/base/openapi.yaml"), true},
		{"the head's copy", head, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, "http://127.0.0.1:1")
			writeHead(t, cfg, head)
			cfg.Compare, cfg.DryRun, cfg.BaseFile = true, true, "base/openapi.yaml"
			baseFile := filepath.Join(cfg.Workspace, "base", "openapi.yaml")
			os.MkdirAll(filepath.Dir(baseFile), 0o755)
			if err := os.WriteFile(baseFile, []byte(tc.base), 0o644); err != nil {
				t.Fatal(err)
			}
			rep := &recorder{}
			u := &unit{cfg: cfg, rep: rep, res: &Result{File: cfg.File}, alone: true}
			defer u.close()
			if err := u.validate(nil); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if err := u.check(ctx, newBudget()); err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			f := u.f
			if (f.early != nil) != tc.early {
				t.Fatalf("loaded early: %v, want %v", f.early != nil, tc.early)
			}
			if !tc.early {
				if err := f.take(ctx, StepCompare, f.compare); err != nil || f.res.Changes.Report == nil || f.res.Changes.Report.Total() != 0 {
					t.Errorf("%v, %+v, want no change\n%s", err, f.res.Changes, rep.log())
				}
				return
			}
			// Once loaded, the file is no longer read.
			<-f.early.done
			if err := os.Remove(baseFile); err != nil {
				t.Fatal(err)
			}
			err := f.take(ctx, StepCompare, f.compare)
			if err != nil || f.res.Changes.Breaking() != 1 {
				t.Errorf("%v, %d breaking changes, want the one of the base loaded early\n%s", err, f.res.Changes.Breaking(), rep.log())
			}
			if f.early != nil {
				t.Error("the base loaded early is still held after the comparison took it")
				f.dropEarlyBase()
			}
		})
	}
}
