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
// comparison a quarter of the run's timeout, and the publish a warning
// that says how long it waited; with no timeout, an answering GitHub is
// waited for as usual.
func TestGitHubThatDoesNotAnswer(t *testing.T) {
	t.Parallel()
	base := fixture(t, "removed-operation/base/openapi.yaml")
	head := fixture(t, "removed-operation/head/openapi.yaml")
	silent := silentServer(t)
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		silent  bool
		warning string // "" for a report made
	}{
		{"a quarter of a 2s timeout", 2 * time.Second, true, "warning: :0:0: API changes not reported: GitHub's API did not answer within 500ms"},
		{"no timeout, GitHub answering", 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			gh.AddFile(baseSHA, "api/openapi.yaml", base)
			cfg := compareConfig(t, emu.URL(), gh, head)
			cfg.Comment = false
			cfg.Timeout = Duration(tc.timeout)
			if tc.silent {
				cfg.GitHubAPIURL = silent.URL
			}
			res, rep, err := runFlow(t, cfg, Options{})
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
