package cli

import (
	"context"
	"os"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction"
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
