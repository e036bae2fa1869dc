package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/githubapi/githubapitest"
)

// TestPullRequestReportThroughTheBinary runs the action as the runner runs
// it on a pull_request event, against the emulator and a stand-in of
// GitHub's API that holds the base commit (the clone, as actions/checkout
// leaves it, does not).
func TestPullRequestReportThroughTheBinary(t *testing.T) {
	t.Parallel()
	const ghToken, sha = "ghs_binary_test_token", "2222222222222222222222222222222222222222"
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "apidiff", "removed-operation", name, "openapi.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gh := githubapitest.New("octo/bookstore", ghToken)
	defer gh.Close()
	gh.AddFile(sha, "api/openapi.yaml", read("base"))
	event := fmt.Sprintf(`{"pull_request":{"number":12,"base":{"sha":%q,"repo":{"full_name":"octo/bookstore"}},"head":{"repo":{"full_name":"octo/bookstore"}}}}`, sha)
	setup := func(ws string, env map[string]string) {
		p := filepath.Join(t.TempDir(), "event.json")
		if err := os.WriteFile(p, []byte(event), 0o644); err != nil {
			t.Fatal(err)
		}
		env["GITHUB_EVENT_PATH"], env["GITHUB_API_URL"] = p, gh.APIURL()
	}
	files := map[string]string{"api/openapi.yaml": read("head")}

	emu := startEmulator(t, nil)
	in := baseInputs(emu)
	in["github-token"] = ghToken
	run := runActionWith(t, "pull_request", in, files, setup)
	if run.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	if run.outputs["breaking-changes"] != "1" || run.outputs["api-changes"] == "" || run.outputs["build-id"] == "" {
		t.Errorf("outputs %v", run.outputs)
	}
	if !annotated(run.stdout, "warning", "api/openapi.yaml", 24, "breaking change: DELETE /books/{bookId}: api removed without deprecation") {
		t.Errorf("no annotation at the removed operation:\n%s", run.stdout)
	}
	for _, want := range []string{"#### API changes", "**1 breaking change**", "| ❌ | DELETE /books/{bookId} | api removed without deprecation | api-removed-without-deprecation |"} {
		if !strings.Contains(run.summary, want) {
			t.Errorf("the summary lacks %q:\n%s", want, run.summary)
		}
	}
	comments := gh.Comments()
	if len(comments) != 1 || comments[0].Number != 12 || !strings.Contains(comments[0].Body, "1 breaking change") {
		t.Fatalf("comments: %+v", comments)
	}
	checkGitHubToken(t, run, ghToken)

	// With fail-on-breaking, the same change fails the step before anything
	// is published, and the comment is kept, not doubled.
	builds := len(emu.Builds())
	in["fail-on-breaking"] = "true"
	run = runActionWith(t, "pull_request", in, files, setup)
	if run.code == 0 || len(emu.Builds()) != builds {
		t.Errorf("exit %d with %d builds (from %d)\n%s", run.code, len(emu.Builds()), builds, run.stdout)
	}
	if !annotated(run.stdout, "error", "api/openapi.yaml", 24, "breaking change: DELETE /books/{bookId}") ||
		!strings.Contains(run.stdout, "fail-on-breaking is true, so nothing was published") {
		t.Errorf("the failure does not say why:\n%s", run.stdout)
	}
	if !strings.Contains(run.summary, "**1 breaking change**") {
		t.Errorf("the summary of the failed run lacks the report:\n%s", run.summary)
	}
	if n := len(gh.Comments()); n != 1 {
		t.Errorf("%d comments after the second run", n)
	}
	checkGitHubToken(t, run, ghToken)
}

// checkGitHubToken: the GitHub token appears only where it is masked.
func checkGitHubToken(t *testing.T, run actionRun, token string) {
	t.Helper()
	if !strings.Contains(run.stdout, "::add-mask::"+token+"\n") {
		t.Error("the GitHub token was not masked")
	}
	stdout := strings.ReplaceAll(run.stdout, "::add-mask::"+token+"\n", "")
	for where, text := range map[string]string{"stdout": stdout, "stderr": run.stderr, "summary": run.summary, "outputs": fmt.Sprint(run.outputs)} {
		if strings.Contains(text, token) {
			t.Errorf("the GitHub token appears in %s", where)
		}
	}
}

// annotated says whether the log has an annotation of level at file and
// line whose message starts with msg.
func annotated(log, level, file string, line int, msg string) bool {
	for _, l := range strings.Split(log, "\n") {
		props, text, ok := strings.Cut(strings.TrimPrefix(l, "::"+level+" "), "::")
		if !ok || !strings.HasPrefix(l, "::"+level+" ") || !strings.HasPrefix(text, msg) {
			continue
		}
		set := map[string]bool{}
		for _, p := range strings.Split(props, ",") {
			set[p] = true
		}
		if set["file="+file] && set[fmt.Sprintf("line=%d", line)] {
			return true
		}
	}
	return false
}
