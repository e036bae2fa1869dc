// Package gitclonetest runs git for tests that make a repository the way
// actions/checkout leaves one.
package gitclonetest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Git returns a function that runs git in dir, as a committer with no
// global configuration, and returns what it printed, trimmed. The test is
// skipped where git is not installed, and fails when git does.
func Git(t testing.TB, dir string) func(args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
}
