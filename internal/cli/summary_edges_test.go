package cli

import (
	"errors"
	"strings"
	"testing"

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
