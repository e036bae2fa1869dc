package publish

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// TestInterruptedSaysWhatWasDone: a run cut short by a signal or by its
// timeout says which, what it had done on the service (a build released,
// which the service may still make live), and what to do; never the bare
// text of the context's error.
func TestInterruptedSaysWhatWasDone(t *testing.T) {
	t.Parallel()
	signal := errors.New("terminated signal received")
	cases := []struct {
		name    string
		setLive bool
		timeout time.Duration // the run's timeout, when it is what ends the run
		early   bool          // the signal comes before the run starts
		is      error
		want    []string
	}{
		{name: "a signal while waiting for a live build", setLive: true, is: context.Canceled, want: []string{
			"cancelled during wait for build 1001 (terminated signal received): ",
			"build 1001 was released under doc 17 with set-live true, so the service may still build it and make it live",
			"check the doc's builds in the web application before running again"}},
		{name: "a signal while waiting for an unpublished build", is: context.Canceled, want: []string{
			"cancelled during wait for build 1001 (terminated signal received): ",
			"build 1001 was released under doc 17, kept unpublished (set-live false)",
			"check the doc's builds"}},
		{name: "the timeout while waiting", setLive: true, timeout: 700 * time.Millisecond, is: context.DeadlineExceeded, want: []string{
			"cancelled during wait for build 1001: timeout (700ms), which bounds the whole run, ran out: ",
			"build 1001 was released under doc 17 with set-live true",
			"check the doc's builds in the web application, then raise timeout before running again"}},
		{name: "a signal before anything was sent", early: true, is: context.Canceled, want: []string{
			"(terminated signal received): nothing was", "run again"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = time.Hour })
			cfg := flowConfig(t, emu.URL())
			cfg.SetLive = Bool(tc.setLive)
			if tc.timeout > 0 {
				cfg.Timeout = Duration(tc.timeout)
			}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.early {
				cancel(signal)
			} else if tc.timeout == 0 {
				go func() {
					// The signal comes once the wait for the build is under way.
					for emu.RequestsTo("/docs.builds.download") == 0 && ctx.Err() == nil {
						time.Sleep(5 * time.Millisecond)
					}
					cancel(signal)
				}()
			}
			rep := &recorder{}
			_, err := Run(ctx, cfg, rep, Options{FirstRetry: 5 * time.Millisecond})
			var ie *InterruptedError
			if !errors.As(err, &ie) || !errors.Is(err, tc.is) {
				t.Fatalf("error %v: want an *InterruptedError that is %v\n%s", err, tc.is, rep.log())
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "context canceled") || strings.Contains(err.Error(), "deadline exceeded") {
				t.Errorf("error %q gives the context's own words", err)
			}
		})
	}
}

// TestSeveralInterruptedSayTheRunWasCancelled: a run of several
// descriptions that a signal cut short says so first, then each
// description's own account.
func TestSeveralInterruptedSayTheRunWasCancelled(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = time.Hour })
	a, b := flowConfig(t, emu.URL()), flowConfig(t, emu.URL())
	b.FileName = "other.yml"
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go func() {
		for emu.RequestsTo("/docs.release") < 2 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		cancel(errors.New("interrupt signal received"))
	}()
	_, err := RunAll(ctx, []Config{a, b}, &recorder{}, Options{FirstRetry: 5 * time.Millisecond})
	var re *RunsError
	if !errors.As(err, &re) || len(re.Failed) != 2 {
		t.Fatalf("error %v: want a *RunsError of 2 descriptions", err)
	}
	want := "the run was cancelled: 2 of 2 descriptions cut short (see the job summary); descriptions[0] (api/openapi.yaml): cancelled during "
	if !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), " (interrupt signal received): ") != 2 {
		t.Errorf("error %q\nwant it to start %q and give the signal for each description", err, want)
	}
}
