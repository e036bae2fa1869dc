package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
)

// TestRunnerVariables: the run's facts come from the runner's variables:
// the workspace (else the working folder), whether it runs on GitHub, and
// GitHub's API (api.github.com for a repository on github.com, unless the
// runner names another, as GitHub Enterprise's does).
func TestRunnerVariables(t *testing.T) {
	t.Parallel()
	meta, err := ghaction.ParseMetadata(actionYAML(t))
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name              string
		vars              map[string]string
		workspace, apiURL string
		cli               bool
	}{
		{"on GitHub", map[string]string{"GITHUB_WORKSPACE": "/github/workspace", "GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "octo/books"},
			"/github/workspace", "https://api.github.com", false},
		{"on GitHub Enterprise", map[string]string{"GITHUB_WORKSPACE": "/github/workspace", "GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "octo/books", "GITHUB_API_URL": "https://ghe.example/api/v3"},
			"/github/workspace", "https://ghe.example/api/v3", false},
		{"elsewhere", map[string]string{}, wd, "", true},
	} {
		getenv := func(k string) string { return tc.vars[k] }
		look := lookWith(&ghaction.Lookuper{Meta: meta, Getenv: getenv}, map[string]string{"api-url": "x", "project-id": "p", "file": "f"})
		cfg, err := loadConfig(context.Background(), Env{Getenv: getenv}, meta, look)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if cfg.Workspace != tc.workspace || cfg.GitHubAPIURL != tc.apiURL || cfg.CLI != tc.cli {
			t.Errorf("%s: workspace %q, GitHub API %q, CLI %v; want %q, %q, %v", tc.name, cfg.Workspace, cfg.GitHubAPIURL, cfg.CLI, tc.workspace, tc.apiURL, tc.cli)
		}
	}
}

// TestRunnerVariablesRefused: a runner variable the run cannot use is an
// *publish.EnvError naming it (exit 2): a proxy variable net/http cannot
// read, and on pull_request_target an event payload that cannot be read
// when branch is left to its default, which comes from it.
func TestRunnerVariablesRefused(t *testing.T) {
	t.Parallel()
	meta, err := ghaction.ParseMetadata(actionYAML(t))
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		vars   map[string]string
		inputs map[string]string
		want   string // the variable named; "" for none
	}{
		{"a proxy with a bad escape", map[string]string{"HTTPS_PROXY": "http://u:s3cret%zz@proxy:3128"}, nil, "HTTPS_PROXY"},
		{"http_proxy with a bad escape", map[string]string{"http_proxy": "http://proxy/%zz"}, nil, "http_proxy"},
		{"pull_request_target with a payload that is not JSON", map[string]string{"GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_EVENT_PATH": bad, "GITHUB_HEAD_REF": "main"}, nil, "GITHUB_EVENT_PATH"},
		{"pull_request_target with a branch named", map[string]string{"GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_EVENT_PATH": bad}, map[string]string{"branch": "preview"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			getenv := func(k string) string { return tc.vars[k] }
			inputs := map[string]string{"api-url": "x", "project-id": "p", "file": "f"}
			for k, v := range tc.inputs {
				inputs[k] = v
			}
			look := lookWith(&ghaction.Lookuper{Meta: meta, Getenv: getenv}, inputs)
			_, err := loadConfig(context.Background(), Env{Getenv: getenv}, meta, look)
			var ee *publish.EnvError
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.want != "" && (!errors.As(err, &ee) || ee.Var != tc.want || ExitCode(context.Background(), err) != ExitUsage):
				t.Fatalf("error %v, want a usage error naming %s", err, tc.want)
			case tc.want != "" && strings.Contains(err.Error(), "s3cret"):
				t.Errorf("error %q shows the proxy's password", err)
			}
		})
	}
}
