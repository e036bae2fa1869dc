package testenv

import (
	"flag"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	NoRaceExitSleep()
	WaitingTests()
	os.Exit(m.Run())
}

// TestWaitingTestsRunAtOnce: with WaitingTests in TestMain, as many
// parallel tests run at once as it says when the run does not set
// -parallel: each subtest waits until all have started, which only
// happens if they run together.
func TestWaitingTestsRunAtOnce(t *testing.T) {
	n, err := strconv.Atoi(flag.Lookup("test.parallel").Value.String())
	if err != nil {
		t.Fatal(err)
	}
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit && n != WaitingParallel() {
		t.Fatalf("-parallel is %d, want %d", n, WaitingParallel())
	}
	var mu sync.Mutex
	started := 0
	all := make(chan struct{})
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				mu.Lock()
				if started++; started == n {
					close(all)
				}
				mu.Unlock()
				select {
				case <-all:
				case <-time.After(time.Minute): // only a failure waits this long
					mu.Lock()
					defer mu.Unlock()
					t.Errorf("%d of %d tests ran at once", started, n)
				}
			})
		}
	})
}
