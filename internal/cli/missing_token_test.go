package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyTokenOnPullRequest: a pull request's run with an empty token
// checks the description and publishes nothing. From a fork, which gets no
// secrets, that is by design: a notice. From a branch of the repository,
// which gets its secrets, the secret is likely missing or misnamed, unless
// Dependabot opened it: a warning naming both, and the run still succeeds.
// fail-on-missing-token makes either an error.
func TestEmptyTokenOnPullRequest(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	payload := func(head string) string {
		return `{"number":7,"pull_request":{"number":7,"base":{"sha":"92ab5559adb2196dc15f0a372d99ad02984c22bd","repo":{"full_name":"octo/api"}},` +
			`"head":{"sha":"c1b9f2484b80296d3c849b61a4282d68c3db1755","repo":{"full_name":"` + head + `"}}}}`
	}
	cases := []struct {
		name, head, compare, strict string
		code                        int
		want, not                   string
	}{
		{"same repository", "octo/api", "true", "false", 0, "::warning title=docs-publish::token is empty on a pull_request event for pull request #7, which comes from a branch of this repository", "from a fork"},
		{"same repository, compare off", "octo/api", "false", "false", 0, "Dependabot secrets", "from a fork"},
		{"fork", "someone/api", "true", "false", 0, "::notice title=docs-publish::token is empty on a pull_request event, as for a pull request from a fork", "Dependabot"},
		{"same repository, strict", "octo/api", "true", "true", 2, "::error title=docs-publish::input token: is empty", "Dependabot"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, runnerFiles := t.TempDir(), t.TempDir()
			event := filepath.Join(runnerFiles, "event.json")
			if err := os.WriteFile(filepath.Join(ws, "openapi.yaml"), spec, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(event, []byte(payload(tc.head)), 0o644); err != nil {
				t.Fatal(err)
			}
			inputs := map[string]string{"file": "openapi.yaml", "token": "", "api-url": "https://docs.example.com", "project-id": "4711",
				"compare": tc.compare, "fail-on-missing-token": tc.strict, "comment": "false", "github-token": ""}
			extra := map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_HEAD_REF": "feature", "GITHUB_REF_NAME": "7/merge"}
			out, code := runAsRunnerWith(t, ws, runnerFiles, inputs, extra)
			if code != tc.code || !strings.Contains(out, tc.want) || strings.Contains(out, tc.not) {
				t.Errorf("exit %d, want %d, with %q and without %q:\n%s", code, tc.code, tc.want, tc.not, out)
			}
		})
	}
}
