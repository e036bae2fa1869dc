// Package testenv marks the tests that the README's test command leaves out
// and CI runs: long deterministic tests (sweeps over thousands of inputs,
// parses of megabytes, builds of the program) and tests that fetch from the
// package registries. Each skips, saying how to turn it on, unless the run
// opts in; .ci/run opts in to all of them and fails when any test did not
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
