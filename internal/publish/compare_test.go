package publish

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/gitclone/gitclonetest"
	"github.com/docs-publish/docs-publish/internal/githubapi/githubapitest"
)

const (
	ghToken  = "ghs_compare_test_token"
	ghRepo   = "octo/bookstore"
	baseSHA  = "1111111111111111111111111111111111111111"
	pullNum  = 7
	diffRoot = "../../testdata/apidiff/"
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(diffRoot + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareConfig is a pull request's run: the head description in the
// workspace, its base commit on the fake GitHub API (not in any clone).
func compareConfig(t *testing.T, apiURL string, gh *githubapitest.Server, head string) Config {
	t.Helper()
	cfg := flowConfig(t, apiURL)
	writeHead(t, cfg, head)
	cfg.Compare, cfg.Comment = true, true
	cfg.PullRequest, cfg.BaseSHA, cfg.EventName = pullNum, baseSHA, "pull_request"
	cfg.Repository, cfg.GitHubAPIURL, cfg.GitHubToken = ghRepo, gh.APIURL(), ghToken
	return cfg
}

func writeHead(t *testing.T, cfg Config, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(cfg.Workspace, "api", "openapi.yaml"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeBase writes content as base/openapi.yaml in the workspace and makes
// it cfg's base-file.
func writeBase(t *testing.T, cfg *Config, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(cfg.Workspace, "base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg.Workspace, "base", "openapi.yaml"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.BaseFile = "base/openapi.yaml"
}

func fakeGitHub(t *testing.T) *githubapitest.Server {
	t.Helper()
	gh := githubapitest.New(ghRepo, ghToken)
	t.Cleanup(gh.Close)
	return gh
}

// ours are the comments that carry the description's marker.
func ours(gh *githubapitest.Server) []githubapitest.Comment {
	var out []githubapitest.Comment
	for _, c := range gh.Comments() {
		if strings.HasPrefix(c.Body, commentMarker("api/openapi.yaml", "")+"\n") {
			out = append(out, c)
		}
	}
	return out
}

// commentWrites counts the comments created and rewritten (a POST to
// GraphQL asks who the token is, and writes nothing).
func commentWrites(gh *githubapitest.Server) (n int) {
	for _, r := range gh.Requests() {
		if (r.Method == "POST" || r.Method == "PATCH") && strings.Contains(r.Path, "/comments") {
			n++
		}
	}
	return n
}

// TestStickyCommentFollowsThePullRequest runs the action three times on one
// pull request, as three pushes would: a breaking change, a second change,
// then both undone. It does with the workflow's GITHUB_TOKEN and with a
// GitHub App's installation token, which may not ask GET /user who it is.
func TestStickyCommentFollowsThePullRequest(t *testing.T) {
	t.Parallel()
	for name, app := range map[string]string{"GITHUB_TOKEN": "", "app token": "my-app[bot]"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			gh.AppLogin = app
			base := fixture(t, "removed-operation/base/openapi.yaml")
			gh.AddFile(baseSHA, "api/openapi.yaml", base)
			head := fixture(t, "removed-operation/head/openapi.yaml")

			cfg := compareConfig(t, emu.URL(), gh, head)
			res, rep, err := runFlow(t, cfg, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			if res.Changes == nil || res.Changes.Breaking() != 1 || rep.outputs["breaking-changes"] != "1" {
				t.Fatalf("first push: %+v, outputs %v\n%s", res.Changes, rep.outputs, rep.log())
			}
			// The removed operation is annotated at its path, which the head still has.
			if !strings.Contains(rep.log(), "warning: api/openapi.yaml:24:3: breaking change: DELETE /books/{bookId}: api removed without deprecation") {
				t.Errorf("no annotation at the removed operation:\n%s", rep.log())
			}
			cs := ours(gh)
			if len(cs) != 1 || cs[0].Login != gh.Me() || !strings.Contains(cs[0].Body, "1 breaking change") || !strings.Contains(cs[0].Body, "DELETE /books/{bookId}") {
				t.Fatalf("after the first push, comments: %+v", gh.Comments())
			}
			if len(emu.Builds()) != 1 {
				t.Errorf("%d builds: a breaking change without fail-on-breaking still publishes", len(emu.Builds()))
			}

			// A second push adds an optional parameter: the same comment, rewritten.
			writeHead(t, cfg, strings.Replace(head, "      parameters:\n        - name: genre", "      parameters:\n        - name: limit\n          in: query\n          schema:\n            type: integer\n        - name: genre", 1))
			if _, _, err = runFlow(t, cfg, Options{}); err != nil {
				t.Fatal(err)
			}
			if got := ours(gh); len(got) != 1 || got[0].ID != cs[0].ID || !strings.Contains(got[0].Body, "new optional") {
				t.Fatalf("after the second push, comments: %+v", got)
			}

			// A third push undoes both: the comment says so rather than going stale.
			writeHead(t, cfg, base)
			if res, _, err = runFlow(t, cfg, Options{}); err != nil {
				t.Fatal(err)
			}
			if got := ours(gh); len(got) != 1 || got[0].ID != cs[0].ID || !strings.Contains(got[0].Body, "No API changes") {
				t.Fatalf("after the third push, comments: %+v", got)
			}
			if res.Changes.Report == nil || len(res.Changes.Report.Changes) != 0 || res.Changes.Base != "the pull request's base commit 1111111" {
				t.Errorf("third push: %+v", res.Changes)
			}
			// The event's SHA is a code span, copied as it is, not cut by
			// the zero-width spaces that keep untrusted text from linking.
			if body := ours(gh)[0].Body; !strings.Contains(body, "against the pull request's base commit `1111111`.") {
				t.Errorf("the comment does not give the base commit as code:\n%s", body)
			}
			for _, r := range gh.Requests() {
				if !r.Authorized {
					t.Errorf("%s %s without the token", r.Method, r.Path)
				}
				if strings.Contains(r.Path, "/contents/") && r.RawQuery != "ref="+baseSHA {
					t.Errorf("contents read at %q, not at the base", r.RawQuery)
				}
			}
			if len(gh.Comments()) != 1 {
				t.Errorf("%d comments on the pull request", len(gh.Comments()))
			}
		})
	}
}

func TestComparisonOutcomes(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	closedURL := closed.URL
	base := fixture(t, "removed-operation/base/openapi.yaml")
	breaking := fixture(t, "removed-operation/head/openapi.yaml")
	cases := []struct {
		name   string
		head   string
		setup  func(cfg *Config, gh *githubapitest.Server)
		errIs  func(error) bool // nil: the run succeeds
		builds int
		check  func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server)
	}{
		{
			name: "fail-on-breaking stops the run before anything is sent, after the report",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking = true
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			errIs: func(err error) bool { var be *BreakingError; return errors.As(err, &be) && be.Count == 1 },
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.FailedStep != StepCompare || len(ours(gh)) != 1 || rep.count("error: api/openapi.yaml:24:3: breaking change") != 1 {
					t.Errorf("failed at %q, %d comments\n%s", res.FailedStep, len(ours(gh)), rep.log())
				}
			},
		},
		{
			name: "headers renamed by letter case only are no change, and fail-on-breaking passes",
			head: fixture(t, "header-case-only/head/openapi.yaml"),
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking = true
				gh.AddFile(baseSHA, "api/openapi.yaml", fixture(t, "header-case-only/base/openapi.yaml"))
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if r := res.Changes.Report; r == nil || len(r.Changes) != 0 || rep.outputs["api-changes"] != "0" {
					t.Errorf("%+v\n%s", res.Changes, rep.log())
				}
			},
		},
		{
			name: "an agreed break does not count",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking = true
				cfg.BreakingIgnore = "api/breaking-ignore.txt"
				os.WriteFile(filepath.Join(cfg.Workspace, "api", "breaking-ignore.txt"), []byte("DELETE /books/{bookId} api removed without deprecation\n"), 0o644)
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Breaking() != 0 || len(res.Changes.Report.Accepted) != 1 || !strings.Contains(ours(gh)[0].Body, "1 agreed change") {
					t.Errorf("%+v", res.Changes.Report)
				}
			},
		},
		{
			name: "a fork's pull request: compared, published by nobody, no comment",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.Token, cfg.FromFork = "", true // no secrets for a fork
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Breaking() != 1 || commentWrites(gh) != 0 || rep.count("notice: :0:0: the report is not posted on pull request #7: it comes from a fork") != 1 {
					t.Errorf("%d breaking, %d comment writes\n%s", res.Changes.Breaking(), commentWrites(gh), rep.log())
				}
			},
		},
		{
			name: "no permission to comment is a warning",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				gh.DenyWrite = true
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if rep.count("warning: :0:0: the report is not posted on pull request #7: github-token may not write comments") != 1 || len(gh.Comments()) != 0 {
					t.Errorf("%s", rep.log())
				}
			},
		},
		{
			name: "a GitHub API that cannot be reached costs the comment, not the publish",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.BaseFile, cfg.GitHubAPIURL = "base/openapi.yaml", closedURL
				os.MkdirAll(filepath.Join(cfg.Workspace, "base"), 0o755)
				os.WriteFile(filepath.Join(cfg.Workspace, "base", "openapi.yaml"), []byte(base), 0o644)
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				want := "warning: :0:0: the report is not posted on pull request #7: cannot reach GitHub's API at " + closedURL + ": dial tcp "
				if rep.count(want) != 1 || rep.count("Check that the runner reaches GitHub's API (GITHUB_API_URL") != 1 || res.BuildID == "" {
					t.Errorf("build %q, want one warning with %q and what to do:\n%s", res.BuildID, want, rep.log())
				}
			},
		},
		{
			name: "a description that is new at the base",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking = true
				gh.AddFile(baseSHA, "README.md", "no API yet")
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if !res.Changes.New || res.Changes.Report != nil || len(gh.Comments()) != 0 {
					t.Errorf("%+v, comments %+v", res.Changes, gh.Comments())
				}
				if _, ok := rep.outputs["breaking-changes"]; ok {
					t.Error("breaking-changes set for a new description")
				}
			},
		},
		{
			name: "a base that cannot be read is a warning",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				gh.AddFile(baseSHA, "api/openapi.yaml", "openapi: 3.0.3\npaths: [\n")
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Report != nil || rep.count("warning: :0:0: API changes not reported: the description at the pull request's base commit 1111111 cannot be loaded") != 1 {
					t.Errorf("%+v\n%s", res.Changes, rep.log())
				}
			},
		},
		{
			name: "a base that cannot be read fails the run with fail-on-breaking",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking = true
				cfg.GitHubToken = "revoked"
			},
			errIs: func(err error) bool { var ce *CompareError; return errors.As(err, &ce) },
		},
		{
			name: "base-file, with its own refs, and no GitHub",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.BaseFile, cfg.GitHubAPIURL, cfg.GitHubToken = "base/openapi.yaml", "", ""
				os.MkdirAll(filepath.Join(cfg.Workspace, "base"), 0o755)
				os.WriteFile(filepath.Join(cfg.Workspace, "base", "openapi.yaml"), []byte(strings.Replace(base,
					`                $ref: "#/components/schemas/Book"`, `                $ref: "./book.yaml"`, 1)), 0o644)
				os.WriteFile(filepath.Join(cfg.Workspace, "base", "book.yaml"), []byte("type: object\nproperties:\n  id: {type: integer}\n"), 0o644)
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Breaking() != 1 || res.Changes.Base != "base-file base/openapi.yaml" || res.Changes.BaseCommit != "" || len(gh.Requests()) != 0 {
					t.Errorf("%+v, %d GitHub requests", res.Changes, len(gh.Requests()))
				}
				if rep.count("notice: :0:0: the report is not posted on pull request #7: github-token is empty. The job summary has it.") != 1 {
					t.Errorf("the log does not say why the report is not posted:\n%s", rep.log())
				}
			},
		},
		{
			name: "bundle: false: the head is compared bundled, its own refs followed",
			head: strings.Replace(breaking, `                $ref: "#/components/schemas/Book"`, `                $ref: "./book.yaml"`, 1),
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.Bundle = false
				os.WriteFile(filepath.Join(cfg.Workspace, "api", "book.yaml"), []byte("type: object\nrequired: [id]\nproperties:\n  id: {type: integer}\n  title: {type: integer}\n"), 0o644)
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				// The operation removed, and the title made an integer in book.yaml.
				if r := res.Changes.Report; r == nil || res.Changes.Breaking() < 2 || !strings.Contains(fmt.Sprint(r.Changes), "title") {
					t.Errorf("%+v\n%s", res.Changes.Report, rep.log())
				}
			},
		},
		{
			name:  "a base-file that is not there is a mistake, not a new description",
			head:  breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) { cfg.BaseFile = "base/nope.yaml" },
			errIs: func(err error) bool { var ie *InputError; return errors.As(err, &ie) && ie.Input == "base-file" },
		},
		{
			name: "a base commit GitHub does not have is no new description",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking = true
				cfg.BaseSHA = "9999999999999999999999999999999999999999"
			},
			errIs: func(err error) bool { var ce *CompareError; return errors.As(err, &ce) },
		},
		{
			name: "no way to read the base fails with fail-on-breaking",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.FailOnBreaking, cfg.GitHubToken = true, ""
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			errIs: func(err error) bool { var ce *CompareError; return errors.As(err, &ce) },
		},
		{
			name: "a stale comment is rewritten when the base cannot be read",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				gh.AddComment(githubapitest.Comment{Number: pullNum, Body: commentMarker("api/openapi.yaml", "") + "\nold report", Login: gh.Me()})
				gh.AddFile(baseSHA, "api/openapi.yaml", "openapi: 3.0.3\npaths: [\n")
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if c := ours(gh); len(c) != 1 || !strings.Contains(c[0].Body, "Nothing compared") {
					t.Errorf("comments: %+v", gh.Comments())
				}
			},
		},
		{
			name: "no base at all",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.BaseSHA, cfg.PullRequest, cfg.EventName = "", 0, "workflow_dispatch"
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				// No step that did nothing: the log says why, once.
				if res.Changes != nil || slices.ContainsFunc(res.Steps, func(s StepTime) bool { return s.Step == StepCompare }) || len(gh.Requests()) != 0 {
					t.Errorf("changes %+v, steps %v: want no comparison step", res.Changes, res.Steps)
				}
				if rep.count("nothing compared: this event has no base commit") != 1 {
					t.Errorf("the log does not say why nothing was compared:\n%s", rep.log())
				}
			},
		},
		{
			name: "a dry run compares without the docs token",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.DryRun, cfg.Token = true, ""
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Breaking() != 1 || len(ours(gh)) != 1 {
					t.Errorf("%+v", res.Changes)
				}
			},
		},
		{
			name: "compare: false",
			head: breaking,
			setup: func(cfg *Config, gh *githubapitest.Server) {
				cfg.Compare, cfg.FailOnBreaking = false, true
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			builds: 1,
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes != nil || len(gh.Requests()) != 0 || rep.count("fail-on-breaking is set, but compare is false") != 1 {
					t.Errorf("%+v, %d GitHub requests", res.Changes, len(gh.Requests()))
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			cfg := compareConfig(t, emu.URL(), gh, tc.head)
			tc.setup(&cfg, gh)
			res, rep, err := runFlow(t, cfg, Options{})
			switch {
			case tc.errIs == nil && err != nil:
				t.Fatalf("%v\n%s", err, rep.log())
			case tc.errIs != nil && !tc.errIs(err):
				t.Fatalf("err %v\n%s", err, rep.log())
			}
			if got := len(emu.Builds()); got != tc.builds {
				t.Errorf("%d builds, want %d", got, tc.builds)
			}
			if tc.builds == 0 && len(emu.Requests()) != 0 {
				t.Errorf("%d requests reached the service", len(emu.Requests()))
			}
			if tc.check != nil {
				tc.check(t, res, rep, gh)
			}
			if strings.Contains(rep.log(), ghToken) {
				t.Error("the GitHub token is in the log")
			}
		})
	}
}

// TestBaseFromTheLocalClone: a clone that holds the base commit (checked
// out with fetch-depth: 0) is read without GitHub's API.
func TestBaseFromTheLocalClone(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	gh := fakeGitHub(t) // holds nothing: any read of it is a failure
	cfg := compareConfig(t, emu.URL(), gh, fixture(t, "removed-operation/base/openapi.yaml"))
	// actions/checkout with path: leaves the clone in a folder.
	repo := filepath.Join(cfg.Workspace, "checkout")
	git := gitclonetest.Git(t, repo)
	os.MkdirAll(filepath.Join(repo, "api"), 0o755)
	git("init", "-q")
	os.WriteFile(filepath.Join(repo, "api", "openapi.yaml"), []byte(fixture(t, "removed-operation/base/openapi.yaml")), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	cfg.BaseSHA = git("rev-parse", "HEAD")
	os.WriteFile(filepath.Join(repo, "api", "openapi.yaml"), []byte(fixture(t, "removed-operation/head/openapi.yaml")), 0o644)
	cfg.File = "checkout/api/openapi.yaml"
	cfg.Comment = false

	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if res.Changes.Breaking() != 1 || len(gh.Requests()) != 0 {
		t.Fatalf("%+v, %d requests to GitHub\n%s", res.Changes, len(gh.Requests()), rep.log())
	}
	// The removed operation is shown at its path in the head, as a
	// workspace path.
	if rep.count("warning: checkout/api/openapi.yaml:24:3: breaking change: DELETE") != 1 {
		t.Errorf("%s", rep.log())
	}
}

// TestBaseNotReadFromGitDataElsewhere: a .git file that names another
// repository on the machine (which holds the base commit) is not followed:
// a notice says so, and the base comes from GitHub's API.
func TestBaseNotReadFromGitDataElsewhere(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	gh := fakeGitHub(t)
	head := fixture(t, "removed-operation/head/openapi.yaml")
	cfg := compareConfig(t, emu.URL(), gh, head)
	// The other repository's base would report a removed operation; GitHub's
	// holds the head unchanged.
	other := t.TempDir()
	git := gitclonetest.Git(t, other)
	git("init", "-q")
	os.MkdirAll(filepath.Join(other, "api"), 0o755)
	os.WriteFile(filepath.Join(other, "api", "openapi.yaml"), []byte(fixture(t, "removed-operation/base/openapi.yaml")), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "elsewhere")
	cfg.BaseSHA = git("rev-parse", "HEAD")
	gh.AddFile(cfg.BaseSHA, "api/openapi.yaml", head)
	if err := os.WriteFile(filepath.Join(cfg.Workspace, ".git"), []byte("gitdir: "+filepath.Join(other, ".git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Comment = false

	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if rep.count("notice: :0:0: the local clone in the workspace is not read for the pull request's base commit") != 1 || rep.count(".git is a file") != 1 {
		t.Errorf("no notice:\n%s", rep.log())
	}
	if res.Changes.Report == nil || res.Changes.Breaking() != 0 || len(gh.Requests()) == 0 {
		t.Errorf("%+v, %d requests to GitHub: the base was not read through GitHub's API\n%s", res.Changes, len(gh.Requests()), rep.log())
	}
	if strings.Contains(rep.log(), other) {
		t.Errorf("the other repository's path is in the log:\n%s", rep.log())
	}
}

// TestBaseBombInTheLocalClone: a loose object of the base that claims 3 GB
// is refused with a message that says so; the comparison is skipped with a
// warning and the publish goes on. A bomb in place of the commit is refused
// with a notice, and the base comes from GitHub's API.
func TestBaseBombInTheLocalClone(t *testing.T) {
	t.Parallel()
	base := fixture(t, "removed-operation/base/openapi.yaml")
	head := fixture(t, "removed-operation/head/openapi.yaml")
	for _, bomb := range []string{"blob", "commit"} {
		t.Run(bomb, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			cfg := compareConfig(t, emu.URL(), gh, base)
			git := gitclonetest.Git(t, cfg.Workspace)
			git("init", "-q")
			git("add", "api/openapi.yaml")
			git("commit", "-q", "-m", "base")
			cfg.BaseSHA = git("rev-parse", "HEAD")
			writeHead(t, cfg, head)
			gh.AddFile(cfg.BaseSHA, "api/openapi.yaml", head) // GitHub's base: no change
			cfg.Comment = false
			hash := cfg.BaseSHA
			if bomb == "blob" {
				hash = git("rev-parse", cfg.BaseSHA+":api/openapi.yaml")
			}
			gitclonetest.Bomb(t, cfg.Workspace, hash, bomb, 3<<30, 1<<20)

			res, rep, err := runFlow(t, cfg, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			if len(emu.Builds()) != 1 {
				t.Errorf("%d builds: the bomb cost the publish", len(emu.Builds()))
			}
			refused := "object " + hash[:7]
			switch bomb {
			case "blob":
				if rep.count("warning: :0:0: API changes not reported: ") != 1 || rep.count("holds 3221225472 bytes, more than the 128 MiB an object may hold here") != 1 || rep.count(refused) != 1 {
					t.Errorf("no warning that names the refused object:\n%s", rep.log())
				}
			case "commit":
				if rep.count("notice: :0:0: the local clone in the workspace is not read") != 1 || rep.count(refused) != 1 ||
					res.Changes.Report == nil || res.Changes.Breaking() != 0 || len(gh.Requests()) == 0 {
					t.Errorf("%+v, %d requests to GitHub: no notice, or the base not from GitHub's API\n%s", res.Changes, len(gh.Requests()), rep.log())
				}
			}
		})
	}
}

// TestBaseThroughGitHubReadOnce: a base read through GitHub's API keeps its
// tree for placing changes: a path the head lacks is placed in it without
// fetching the base again.
func TestBaseThroughGitHubReadOnce(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	gh := fakeGitHub(t)
	base := fixture(t, "removed-operation/base/openapi.yaml")
	gh.AddFile(baseSHA, "api/openapi.yaml", base)
	// The head has no /books/{bookId} at all: its removal has no place in
	// the head.
	from, to := strings.Index(base, "  /books/{bookId}:\n"), strings.Index(base, "components:\n")
	cfg := compareConfig(t, emu.URL(), gh, base[:from]+base[to:])
	cfg.DryRun, cfg.Token = true, ""
	contents := func() (n int) {
		for _, r := range gh.Requests() {
			if strings.Contains(r.Path, "/contents/") {
				n++
			}
		}
		return n
	}

	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	// At the head's paths, saying where the base had it: the base's tree
	// is read for that, from what was fetched once.
	if res.Changes.Breaking() != 2 || rep.count("warning: api/openapi.yaml:5:1: breaking change: DELETE /books/{bookId}: api path removed without deprecation (api-path-removed-without-deprecation); removed: the base has it at line 42 of api/openapi.yaml") != 1 {
		t.Fatalf("%+v\n%s", res.Changes, rep.log())
	}
	if n := contents(); n != 2 || strings.Contains(rep.log(), "again to place") {
		t.Errorf("%d contents requests, want 2: the base was fetched again\n%s", n, rep.log())
	}
}
