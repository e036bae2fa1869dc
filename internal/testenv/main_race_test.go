//go:build race && unix

package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goraceChildVar marks the run of this test binary that
// TestRaceExitSleepOff starts.
const goraceChildVar = "DOCS_PUBLISH_TESTENV_GORACE_CHILD"

// TestRaceExitSleepOff: under -race, the tests run with the race
// detector's exit sleep off, and any other option the run gave in GORACE
// kept; an atexit_sleep_ms of the run's own is left as it is. It starts
// this test binary again, running itself, which then prints GORACE as the
// tests see it: a test of its own for that would skip in every other run,
// and CI fails on a test that did not run.
func TestRaceExitSleepOff(t *testing.T) {
	if os.Getenv(goraceChildVar) == "1" {
		fmt.Printf("GORACE=[%s]\n", os.Getenv("GORACE"))
		return
	}
	t.Parallel()
	cases := []struct {
		given string // "-": GORACE unset
		want  string
	}{
		{"-", "atexit_sleep_ms=0"},
		{"", "atexit_sleep_ms=0"},
		{"halt_on_error=1", "halt_on_error=1 atexit_sleep_ms=0"},
		{"halt_on_error=1 atexit_sleep_ms=5", "halt_on_error=1 atexit_sleep_ms=5"},
		{"halt_on_error=1,atexit_sleep_ms=5", "halt_on_error=1,atexit_sleep_ms=5"},
	}
	for _, tc := range cases {
		t.Run(tc.given, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestRaceExitSleepOff$", "-test.v")
			cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GORACE=") })
			cmd.Env = append(cmd.Env, goraceChildVar+"=1")
			if tc.given != "-" {
				cmd.Env = append(cmd.Env, "GORACE="+tc.given)
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			m := regexp.MustCompile(`GORACE=\[(.*)\]`).FindSubmatch(out)
			if m == nil {
				t.Fatalf("the child printed no GORACE:\n%s", out)
			}
			if got := string(m[1]); got != tc.want {
				t.Errorf("GORACE in the tests = %q, want %q", got, tc.want)
			}
		})
	}
}
