package main

import (
	"math"
	"os"
	"os/exec"
	"testing"

	"github.com/docs-publish/docs-publish/internal/memlimit"
)

// oneRunChild, set, has the test process be the program's for
// TestProgramRunsOneJob.
const oneRunChild = "DOCS_PUBLISH_TEST_ONE_RUN"

// TestProgramRunsOneJob: the program declares that its process runs one
// job (memlimit.OneRun), so that a reservation of nothing sets the
// collector's limit, which in a test process it does not. Run in a process
// of its own: the mode is the process's.
func TestProgramRunsOneJob(t *testing.T) {
	if os.Getenv(oneRunChild) != "" {
		programRunsOneJob(t)
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestProgramRunsOneJob$", "-test.count=1")
	cmd.Env = append(os.Environ(), oneRunChild+"=1", "GOMEMLIMIT=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the program in a process of its own: %v\n%s", err, out)
	}
}

// programRunsOneJob is TestProgramRunsOneJob in its own process.
func programRunsOneJob(t *testing.T) {
	r := memlimit.Reserve(0)
	if got := memlimit.Limit(); got != math.MaxInt64 {
		t.Fatalf("before the program ran: a reservation of nothing set the limit %d, want none", got)
	}
	r.Release()
	os.Args = []string{"docs-publish", "version"}
	if code := run(); code != 0 {
		t.Fatalf("docs-publish version: exit code %d", code)
	}
	r = memlimit.Reserve(0)
	defer r.Release()
	if got := memlimit.Limit(); got == math.MaxInt64 {
		t.Errorf("after the program ran: a reservation of nothing set no limit, want the limit of a process of one run")
	}
}
