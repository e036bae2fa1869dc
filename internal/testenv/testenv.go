// Package testenv marks the tests that the README's test command leaves out:
// long deterministic tests (sweeps over real inputs, parses of megabytes,
// builds of the program), tests that fetch from the package registries, and
// the full sweeps of which CI runs a sample. Each skips, saying how to turn
// it on, unless the run opts in; .ci/run opts in to all but the full sweeps
// (a scheduled workflow runs those) and fails when any other test did not
// run.
package testenv

import (
	"os"
	"testing"
)

// The variables that opt a run in.
const (
	// LongVar set to 1 runs the long tests. CI runs them without the race
	// detector, next to the -race run of everything else: they are
	// deterministic, and the code they run shares memory across goroutines
	// only where the package's other tests run it under -race too.
	LongVar = "DOCS_PUBLISH_LONG_TESTS"
	// NetworkVar set to 1 runs the tests that fetch from the package
	// registries or the module proxy; once opted in, a fetch that fails
	// fails the test.
	NetworkVar = "DOCS_PUBLISH_NETWORK_TESTS"
	// SweepsVar set to 1 runs the full sweeps: the tests over all of a
	// large set of real inputs of which CI runs a fixed sample. A scheduled
	// workflow runs them.
	SweepsVar = "DOCS_PUBLISH_FULL_SWEEPS"
)

// Long marks t as a long deterministic test: it skips unless LongVar is 1,
// and under -short whatever LongVar says (mutation testing runs with
// -short). Call it in the Test function itself, not in a helper, so that
// CI finds the test (go run ./internal/testruns long lists them).
func Long(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a long test: not in -short")
	}
	if os.Getenv(LongVar) != "1" {
		t.Skipf("a long test: set %s=1 to run it (CI does, without -race)", LongVar)
	}
}

// Network skips t unless the run opted in to fetching from the package
// registries: the tests stay hermetic without NetworkVar=1.
func Network(t testing.TB) {
	t.Helper()
	if os.Getenv(NetworkVar) != "1" {
		t.Skipf("fetches from the package registries or the module proxy: set %s=1 to run it", NetworkVar)
	}
}

// Sweep marks t as a full sweep, whose sample CI runs: it skips unless
// SweepsVar is 1. A sweep is long too: call Long first.
func Sweep(t testing.TB) {
	t.Helper()
	if os.Getenv(SweepsVar) != "1" {
		t.Skipf("a full sweep, whose sample CI runs: set %s=1 to run it (the scheduled sweeps workflow does)", SweepsVar)
	}
}
