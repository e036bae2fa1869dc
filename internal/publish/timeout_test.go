package publish

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/closedport"
)

// TestTimeoutNamedBeforeTheService: a run whose timeout runs out before it
// reaches the service, while loading the description, ends with an error
// that names the timeout input, as the service's steps do. (A GitHub API
// that never answers while the base is read costs a bounded wait and a
// warning, not the run: TestSilentGitHubCostsAWarning in the root package.)
func TestTimeoutNamedBeforeTheService(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		timeout time.Duration
		cfg     func(*Config)
		step    Step
	}{
		// Out of time before the load can end.
		{"loading", time.Nanosecond, func(*Config) {}, StepCheck},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, closedport.URL(t))
			cfg.Timeout = Duration(tc.timeout)
			tc.cfg(&cfg)
			// A deadline of a nanosecond can be set on a timer that fires a
			// little later, after a fast load: the run's context is made
			// from one whose deadline has passed, so that the run's has too.
			ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
			defer cancel()
			res, err := Run(ctx, cfg, &recorder{}, Options{FirstRetry: 5 * time.Millisecond})
			if res.FailedStep != tc.step {
				t.Errorf("failed at %q, want %q (error %v)", res.FailedStep, tc.step, err)
			}
			var te *TimeoutError
			if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v: want a *TimeoutError with the deadline as its cause", err)
			}
			want := "timeout (" + tc.timeout.String() + "), which bounds the whole run, ran out during " + tc.step.String()
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		})
	}
}
