package publish

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// silentServer takes requests and never answers them.
func silentServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(srv.Close)
	return srv
}

// TestGitHubThatDoesNotAnswer: GitHub's API that never answers costs the
// comparison the time the run gives it, and the publish a warning that
// says how long it waited; an answering GitHub is waited for as usual.
// The runs have no timeout and the wait is set, not a quarter of a short
// timeout: a run on a loaded machine cannot run out of time before GitHub
// does (TestGitHubWait checks the quarter).
func TestGitHubThatDoesNotAnswer(t *testing.T) {
	t.Parallel()
	base := fixture(t, "removed-operation/base/openapi.yaml")
	head := fixture(t, "removed-operation/head/openapi.yaml")
	silent := silentServer(t)
	for _, tc := range []struct {
		name    string
		silent  bool
		wait    time.Duration
		warning string // "" for a report made
	}{
		{"GitHub silent", true, 200 * time.Millisecond, "warning: :0:0: API changes not reported: GitHub's API did not answer within 200ms"},
		// A wait a loaded machine's answer cannot run past.
		{"GitHub answering", false, time.Minute, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			gh.AddFile(baseSHA, "api/openapi.yaml", base)
			cfg := compareConfig(t, emu.URL(), gh, head)
			cfg.Comment = false
			if tc.silent {
				cfg.GitHubAPIURL = silent.URL
			}
			res, rep, err := runFlow(t, cfg, Options{GitHubWait: tc.wait})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			if n := len(emu.Builds()); n != 1 {
				t.Errorf("%d builds, want the description published", n)
			}
			if tc.warning != "" {
				if rep.count(tc.warning) != 1 {
					t.Errorf("want %q\n%s", tc.warning, rep.log())
				}
			} else if res.Changes == nil || res.Changes.Breaking() != 1 {
				t.Errorf("changes %+v, want the breaking change reported\n%s", res.Changes, rep.log())
			}
		})
	}
}

// TestGitHubWait: the comparison's time for GitHub's API is a quarter of
// the run's timeout, at most maxGitHubWait (all of it without a timeout),
// unless the run sets it.
func TestGitHubWait(t *testing.T) {
	t.Parallel()
	cases := []struct {
		timeout, set, want time.Duration
	}{
		{2 * time.Second, 0, 500 * time.Millisecond},
		{time.Minute, 0, 15 * time.Second},
		{10 * time.Minute, 0, maxGitHubWait},
		{0, 0, maxGitHubWait},
		{10 * time.Minute, 200 * time.Millisecond, 200 * time.Millisecond},
		{0, time.Second, time.Second},
	}
	for _, tc := range cases {
		if got := githubWait(tc.timeout, tc.set); got != tc.want {
			t.Errorf("githubWait(%v, %v) = %v, want %v", tc.timeout, tc.set, got, tc.want)
		}
	}
}
