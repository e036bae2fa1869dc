package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/publish"
)

// TestSummaryWithNothingToTabulate: a run that failed before it knew
// anything has no empty tables in its summary.
func TestSummaryWithNothingToTabulate(t *testing.T) {
	t.Parallel()
	md := newSummary(publish.Config{}, &publish.Result{FailedStep: publish.StepCheck}, errors.New("no file input"), 0).markdown()
	for _, table := range []string{"| what | value |", "| step | took |"} {
		if strings.Contains(md, table) {
			t.Errorf("an empty table %q in:\n%s", table, md)
		}
	}
}

// TestFindingLinks: a finding links to its line in the repository at the
// run's commit, or to its file when it has no line; a server address that
// is no web address with a host gives no link.
func TestFindingLinks(t *testing.T) {
	t.Parallel()
	cfg := publish.Config{ServerURL: "https://github.com", Repository: "octo/books", SHA: "abc123"}
	for _, tc := range []struct {
		server string
		pos    openapi.Pos
		want   string
	}{
		{"https://github.com", openapi.Pos{Line: 12, Col: 3}, "[api/openapi.yaml:12:3](https://github.com/octo/books/blob/abc123/api/openapi.yaml#L12)"},
		{"https://github.com", openapi.Pos{}, "[api/openapi.yaml:0:0](https://github.com/octo/books/blob/abc123/api/openapi.yaml)"},
		{"https:///no-host", openapi.Pos{Line: 12, Col: 3}, "api/openapi.yaml:12:3"},
		{"http://ghe.internal", openapi.Pos{Line: 2, Col: 1}, "[api/openapi.yaml:2:1](http://ghe.internal/octo/books/blob/abc123/api/openapi.yaml#L2)"},
		{"ftp://github.com", openapi.Pos{Line: 2, Col: 1}, "api/openapi.yaml:2:1"},
	} {
		cfg.ServerURL = tc.server
		s := newSummary(cfg, &publish.Result{}, nil, 0)
		if got := s.place(openapi.Finding{File: "api/openapi.yaml", Pos: tc.pos}); got != tc.want {
			t.Errorf("server %s, at %+v: %q, want %q", tc.server, tc.pos, got, tc.want)
		}
	}
}

// TestMissingSecretHeadline: the summary of a pull request from a branch
// of the repository, whose token is empty, says the secret looks missing
// or misnamed, as the log does, not that it came from a fork.
func TestMissingSecretHeadline(t *testing.T) {
	t.Parallel()
	res := &publish.Result{DryRun: true, ForkCheck: true}
	_, _, detail := newSummary(publish.Config{EventName: "pull_request", PullRequest: 7}, res, nil, 0).headline()
	if !strings.Contains(detail, "comes from a branch of this repository") || strings.Contains(detail, "fork") {
		t.Errorf("headline %q: want it to say the pull request comes from a branch of the repository", detail)
	}
}

// TestForkCheckSaysWhatRan: a fork's pull request without a token says its
// description was compared with its base only when a comparison ran, not
// when compare is off, the description is new at the base, or the
// comparison was skipped.
func TestForkCheckSaysWhatRan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		changes  *publish.Comparison
		compared bool
	}{
		{"compare off", nil, false},
		{"new at the base", &publish.Comparison{Base: "the pull request's base commit 1111111", New: true}, false},
		{"skipped", &publish.Comparison{Base: "the pull request's base commit 1111111", Skipped: "GitHub's API did not answer"}, false},
		{"compared", &publish.Comparison{Base: "the pull request's base commit 1111111", Report: &apidiff.Report{}}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := &publish.Result{DryRun: true, ForkCheck: true, Changes: tc.changes}
			_, title, detail := newSummary(publish.Config{EventName: "pull_request"}, res, nil, 0).headline()
			if title != "Checked only: nothing was published" || !strings.Contains(detail, "the description was checked") {
				t.Fatalf("headline %q, %q", title, detail)
			}
			if got := strings.Contains(detail, "compared with its base"); got != tc.compared {
				t.Errorf("says compared: %v, want %v: %q", got, tc.compared, detail)
			}
		})
	}
}
