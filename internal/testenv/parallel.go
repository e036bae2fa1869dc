package testenv

import (
	"flag"
	"runtime"
	"strconv"
)

// WaitingParallel is how many tests WaitingTests lets run at once: four
// per core.
func WaitingParallel() int { return 4 * runtime.GOMAXPROCS(0) }

// WaitingTests is for a package whose tests mostly wait (on the program
// they run, on loopback servers, on polls and retries timed by the code
// under test): unless the run sets -parallel, it runs WaitingParallel
// tests at once instead of go test's GOMAXPROCS, so that their waits
// overlap and the cores stay busy. Call it from TestMain before m.Run (it
// parses the flags).
func WaitingTests() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(WaitingParallel()))
	}
}
