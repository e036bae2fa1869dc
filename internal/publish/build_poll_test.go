package publish

import (
	"context"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// TestWaitingPollsAtAMeasuredPace: waiting for a build asks the service
// first after at most 200ms, however long the first retry is set, and
// then less and less often: a wait of 300ms is a handful of polls, not a
// stream of them.
func TestWaitingPollsAtAMeasuredPace(t *testing.T) {
	t.Parallel()
	for _, first := range []time.Duration{0, time.Hour} {
		t.Run(first.String(), func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = 300 * time.Millisecond })
			cfg := flowConfig(t, emu.URL())
			start := time.Now()
			rep := &recorder{}
			_, err := Run(context.Background(), cfg, rep, Options{FirstRetry: first})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the run took %s for a build ready after 300ms", took)
			}
			if polls := emu.RequestsTo("/docs.builds.download"); polls < 1 || polls > 8 {
				t.Errorf("%d polls in a wait of 300ms, want 1 to 8", polls)
			}
		})
	}
}
