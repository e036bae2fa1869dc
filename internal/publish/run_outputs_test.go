package publish

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestOutputsThatCannotBeSet: an output a later step reads that cannot be
// set fails the run at the step that sets it, with the output's error.
func TestOutputsThatCannotBeSet(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		output string
		step   Step
	}{
		{"file-name", StepUpdate},
		{"build-id", StepRelease},
		{"live", StepRelease},
	} {
		t.Run(tc.output, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := flowConfig(t, emu.URL())
			full := errors.New("no space left on device")
			rep := failingOutputs{&recorder{}, tc.output, full}
			res, err := Run(context.Background(), cfg, rep, Options{FirstRetry: 5 * time.Millisecond})
			if !errors.Is(err, full) || res.FailedStep != tc.step {
				t.Fatalf("error %v at %q, want the output's at %q\n%s", err, res.FailedStep, tc.step, rep.log())
			}
		})
	}
}

// TestRunWithoutLimitsSaysWhatItDid: timeout 0 is no limit; a commit
// message given is the one sent; each step that succeeds says how long it
// took, the one that fails does not; the build's first status is in the
// debug log.
func TestRunWithoutLimitsSaysWhatItDid(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	cfg := flowConfig(t, emu.URL())
	cfg.Timeout = 0
	cfg.CommitMessage = "Docs for release 2.1"
	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if res.CommitMessage != "Docs for release 2.1" || rep.count("debug: commit message: Docs for release 2.1") != 1 {
		t.Errorf("commit message %q\n%s", res.CommitMessage, rep.log())
	}
	for _, st := range []Step{StepList, StepUpdate, StepRelease, StepWait} {
		if rep.count(st.String()+": done in ") != 1 {
			t.Errorf("no line says how long %q took\n%s", st, rep.log())
		}
	}
	if rep.count("debug: build 1001 status: pending") != 1 {
		t.Errorf("the build's first status is not in the debug log\n%s", rep.log())
	}

	// A step that fails says so, not how long it took.
	cfg = flowConfig(t, emu.URL())
	cfg.ProjectID = "999999"
	res, rep, err = runFlow(t, cfg, Options{})
	if err == nil || res.FailedStep == "" {
		t.Fatalf("a project that does not exist: %v\n%s", err, rep.log())
	}
	if n := rep.count(res.FailedStep.String() + ": done in "); n != 0 || strings.Count(rep.log(), ": done in ") != len(res.Steps)-2 {
		t.Errorf("the failed step %q: %d lines say it was done\n%s", res.FailedStep, n, rep.log())
	}
}
