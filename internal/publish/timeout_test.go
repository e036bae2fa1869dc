package publish

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/closedport"
)

// TestTimeoutNamedBeforeTheService: a run whose timeout runs out before it
// reaches the service, while loading the description or while comparing it
// with its base, ends with an error that names the timeout input, as the
// service's steps do.
func TestTimeoutNamedBeforeTheService(t *testing.T) {
	t.Parallel()
	// GitHub's API, for the base commit's file, taking requests and never
	// answering them.
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(silent.Close)
	cases := []struct {
		name    string
		timeout time.Duration
		cfg     func(*Config)
		step    Step
	}{
		// Out of time before the load can end.
		{"loading", time.Nanosecond, func(*Config) {}, StepCheck},
		{"comparing", time.Second, func(c *Config) {
			c.Compare = true
			c.PullRequest, c.BaseSHA, c.EventName = pullNum, baseSHA, "pull_request"
			c.Repository, c.GitHubAPIURL, c.GitHubToken = ghRepo, silent.URL, ghToken
		}, StepCompare},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, closedport.URL(t))
			cfg.Timeout = Duration(tc.timeout)
			tc.cfg(&cfg)
			res, _, err := runFlow(t, cfg, Options{})
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
