//go:build unix

package openapi

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// BenchmarkPrepareGitHub prepares GitHub's REST description (13 MB of
// JSON) as a dry run does, through the single pass, writing the upload to
// a file: with -benchmem, the allocations the pass costs. The pass works on
// three goroutines, so that its time is not its cost: cpu-ms/op is the
// process's CPU time (user and system) for each.
func BenchmarkPrepareGitHub(b *testing.B) {
	path := testenv.NPMFile(b, "@octokit/openapi", "23.0.2", "generated/api.github.com.json")
	fsys := os.DirFS(filepath.Dir(path))
	out, err := os.Create(filepath.Join(b.TempDir(), "out.json"))
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for b.Loop() {
		if _, err := out.Seek(0, 0); err != nil {
			b.Fatal(err)
		}
		if err := out.Truncate(0); err != nil {
			b.Fatal(err)
		}
		p, err := Prepare(context.Background(), fsys, filepath.Base(path), PrepareOptions{Bundle: true}, out)
		if err != nil {
			b.Fatal(err)
		}
		if !p.OnePass {
			b.Fatal("the single pass did not do the work")
		}
		p.Release()
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
