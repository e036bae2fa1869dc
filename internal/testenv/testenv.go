// Package testenv marks the tests that the README's test command leaves out
// and CI runs: long deterministic sweeps over thousands of inputs or
// megabytes of text, and tests that fetch from the package registries. Each
// skips, saying how to turn it on, unless the run opts in; .ci/run opts in
// to all of them and fails when any test skipped.
package testenv

import (
	"os"
	"testing"
)

// The variables that opt a run in.
const (
	// SweepsVar set to 1 runs the sweeps. CI runs them without the race
	// detector, next to the -race run of everything else: they are long
	// and deterministic, and the code they run is run under -race by the
	// package's other tests.
	SweepsVar = "DOCS_PUBLISH_SWEEPS"
	// NetworkVar set to 1 runs the tests that fetch from the package
	// registries or the module proxy; once opted in, a fetch that fails
	// fails the test.
	NetworkVar = "DOCS_PUBLISH_NETWORK_TESTS"
)

// Sweep marks t as a long deterministic sweep: it skips unless SweepsVar
// is 1, and under -short (mutation testing runs with it). Call it first in
// the Test function itself, not in a helper, so that CI finds the test
// (go run ./internal/testruns sweeps lists them).
func Sweep(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a long sweep: not in -short")
	}
	if os.Getenv(SweepsVar) != "1" {
		t.Skipf("a long sweep: set %s=1 to run it (CI does, without -race)", SweepsVar)
	}
}

// Network skips t unless the run opted in to fetching from the package
// registries: the tests stay hermetic without NetworkVar=1.
func Network(t testing.TB) {
	t.Helper()
	if os.Getenv(NetworkVar) != "1" {
		t.Skipf("fetches from the package registries: set %s=1 to run it", NetworkVar)
	}
}
