package testenv

import (
	"os"
	"testing"
)

// Main is the TestMain of a package that needs nothing else run around its
// tests:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
// A package with a TestMain of its own calls NoRaceExitSleep first in it.
// internal/testruns' TestEveryPackageRunsThroughMain holds every package to
// one or the other.
func Main(m *testing.M) {
	NoRaceExitSleep()
	os.Exit(m.Run())
}

// NoRaceExitSleep, under the race detector, starts the test binary again
// in its own process (exec: the same process ID, arguments and open files)
// with the detector's option atexit_sleep_ms=0 added to GORACE, unless the
// run set that option itself. The detector otherwise sleeps a second when
// the process exits, for goroutines still running to report a race, and
// go test -race ./... spends that second on every package: about 5 of the
// README command's 60 seconds on two cores. A race a test's goroutines
// cause while it runs is still reported and fails the test; what the
// sleep would add is a report from a goroutine a test left running.
// Without the race detector, or where exec fails (the failure is printed),
// it does nothing.
func NoRaceExitSleep() { noRaceExitSleep() }
