package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/githubapi/githubapitest"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// ignoreFile is a breaking-ignore file of exactly size bytes whose last
// line agrees to the removed operation: a file cut short loses it.
func ignoreFile(size int) string {
	const agreed = "DELETE /books/{bookId} api removed without deprecation\n"
	const pad = "this line names no change of the description, it only takes room\n"
	var b strings.Builder
	for b.Len()+len(pad)+len(agreed) <= size {
		b.WriteString(pad)
	}
	b.WriteString(strings.Repeat("#", size-b.Len()-len(agreed)-1) + "\n")
	b.WriteString(agreed)
	return b.String()
}

// TestComparisonRules: the label of a push's base, the size a
// breaking-ignore file may have, the agreed changes counted in the log,
// and when the pull request's comment is written, linked, or given up on
// a GitHub that does not answer.
func TestComparisonRules(t *testing.T) {
	t.Parallel()
	for _, n := range []int{maxIgnoreFile, maxIgnoreFile + 1} {
		if got := len(ignoreFile(n)); got != n {
			t.Fatalf("ignoreFile(%d) holds %d bytes", n, got)
		}
	}
	base := fixture(t, "removed-operation/base/openapi.yaml")
	breaking := fixture(t, "removed-operation/head/openapi.yaml")
	silent := silentServer(t)
	writeIgnore := func(t *testing.T, cfg *Config, content string) {
		t.Helper()
		cfg.BreakingIgnore = "api/breaking-ignore.txt"
		if err := os.WriteFile(filepath.Join(cfg.Workspace, "api", "breaking-ignore.txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// linkIgnore makes breaking-ignore a link to target (in the
	// workspace's top folder), which agrees to the removed operation.
	linkIgnore := func(t *testing.T, cfg *Config, target string) {
		t.Helper()
		cfg.BreakingIgnore = "api/breaking-ignore.txt"
		if err := os.WriteFile(filepath.Join(cfg.Workspace, target), []byte("DELETE /books/{bookId} api removed without deprecation\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../"+target, filepath.Join(cfg.Workspace, "api", "breaking-ignore.txt")); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		head  string
		setup func(t *testing.T, cfg *Config, gh *githubapitest.Server)
		opts  Options
		errIs func(error) bool // nil: the run succeeds
		check func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server)
	}{
		{
			name: "a push is compared with the commit before it",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				cfg.PullRequest, cfg.EventName = 0, "push"
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if got := res.Changes.Base; got != "the commit before the push 1111111" {
					t.Errorf("base %q", got)
				}
			},
		},
		{
			name: "a breaking-ignore file of the largest size is read to its last line",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				writeIgnore(t, cfg, ignoreFile(maxIgnoreFile))
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if r := res.Changes.Report; r == nil || len(r.Accepted) != 1 || res.Changes.Breaking() != 0 {
					t.Errorf("report %+v, want the removal agreed", r)
				}
				if rep.count("1 agreed change listed in api/breaking-ignore.txt") != 1 {
					t.Errorf("the log does not count the agreed change\n%s", rep.log())
				}
			},
		},
		{
			name: "a breaking-ignore file one byte larger is refused",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				writeIgnore(t, cfg, ignoreFile(maxIgnoreFile+1))
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			errIs: func(err error) bool {
				var ie *InputError
				return errors.As(err, &ie) && ie.Input == "breaking-ignore" && strings.Contains(err.Error(), fmt.Sprintf("more than %d bytes", maxIgnoreFile))
			},
		},
		{
			name: "a breaking-ignore that is a link to a hidden file is refused, as file and base-file are",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				linkIgnore(t, cfg, ".env")
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			errIs: func(err error) bool {
				var ie *InputError
				return errors.As(err, &ie) && ie.Input == "breaking-ignore" && errors.Is(err, openapi.ErrNotAllowed) &&
					strings.Contains(err.Error(), "leads through a symbolic link to .env, a hidden file") && strings.Contains(err.Error(), "give breaking-ignore the file itself")
			},
		},
		{
			name: "a breaking-ignore that is a link to a missing file is refused, not taken for a list not yet made",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				linkIgnore(t, cfg, "agreed.txt")
				os.Remove(filepath.Join(cfg.Workspace, "agreed.txt"))
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			errIs: func(err error) bool {
				var ie *InputError
				return errors.As(err, &ie) && ie.Input == "breaking-ignore" && errors.Is(err, fs.ErrNotExist)
			},
		},
		{
			name: "a breaking-ignore that is a link to a file in sight is read",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				linkIgnore(t, cfg, "agreed.txt")
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if r := res.Changes.Report; r == nil || len(r.Accepted) != 1 {
					t.Errorf("report %+v, want the removal agreed", r)
				}
			},
		},
		{
			// The recipe names the file before any break is agreed.
			name: "a breaking-ignore file not yet made ignores nothing, with a notice",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				cfg.BreakingIgnore = "api/breaking-ignore.txt"
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Breaking() != 1 || rep.count(`notice: :0:0: breaking-ignore "api/breaking-ignore.txt" does not exist, so no breaking change is ignored: create it`) != 1 {
					t.Errorf("%d breaking; want 1 and a notice naming the file\n%s", res.Changes.Breaking(), rep.log())
				}
			},
		},
		{
			name: "a breaking-ignore path that is a folder is refused",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				cfg.BreakingIgnore = "api"
			},
			errIs: func(err error) bool {
				var ie *InputError
				return errors.As(err, &ie) && ie.Input == "breaking-ignore"
			},
		},
		{
			name: "a breaking-ignore file that agrees to nothing found counts nothing",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				writeIgnore(t, cfg, "GET /nowhere api removed without deprecation\n")
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if res.Changes.Breaking() != 1 || rep.count("agreed change") != 0 {
					t.Errorf("%d breaking; the log counts agreed changes\n%s", res.Changes.Breaking(), rep.log())
				}
				// A path the description does not have: another API's line.
				if rep.count("agree to no change") != 0 {
					t.Errorf("a line about another API's path is named\n%s", rep.log())
				}
			},
		},
		{
			name: "a breaking-ignore line about the description's paths that agrees to no change is named in a notice",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				writeIgnore(t, cfg, "# agreed in #42\nDELETE /books/{bookId} api removed without deprecatoin\nGET /nowhere api removed without deprecation\n")
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				const want = `notice: :0:0: breaking-ignore api/breaking-ignore.txt: line 2 agrees to no change of this comparison ("DELETE /books/{bookId} api removed without deprecatoin"): a line agrees to a breaking change when it holds its method, path and text as the job summary gives them; fix it, or remove it once the change is undone`
				if res.Changes.Breaking() != 1 || rep.count(want) != 1 || rep.count("agree") != 1 {
					t.Errorf("%d breaking; want 1 and one notice naming line 2\n%s", res.Changes.Breaking(), rep.log())
				}
			},
		},
		{
			name: "a change gets a comment, and the result links it",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				cs := ours(gh)
				if want := fmt.Sprintf("https://github.example/pull/%d#issuecomment-", pullNum); len(cs) != 1 || !strings.HasPrefix(res.Changes.CommentURL, want) {
					t.Errorf("%d comments, comment URL %q", len(cs), res.Changes.CommentURL)
				}
			},
		},
		{
			name: "no change and no comment yet: none is written",
			head: base,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				gh.AddFile(baseSHA, "api/openapi.yaml", base)
			},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if n := commentWrites(gh); n != 0 || res.Changes.CommentURL != "" || rep.count("pull request #7: comment") != 0 {
					t.Errorf("%d comment writes, comment URL %q\n%s", n, res.Changes.CommentURL, rep.log())
				}
			},
		},
		{
			name: "a comment to a GitHub that does not answer is given up with a warning",
			head: breaking,
			setup: func(t *testing.T, cfg *Config, gh *githubapitest.Server) {
				cfg.GitHubAPIURL = silent.URL
				writeBase(t, cfg, base)
			},
			// The wait set rather than taken from a short timeout: the run
			// itself has no time limit a loaded machine could use up.
			opts: Options{GitHubWait: 200 * time.Millisecond},
			check: func(t *testing.T, res *Result, rep *recorder, gh *githubapitest.Server) {
				if rep.count("warning: :0:0: the report is not posted on pull request #7: GitHub's API did not answer within 200ms") != 1 {
					t.Errorf("no warning that GitHub did not answer\n%s", rep.log())
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
			tc.setup(t, &cfg, gh)
			res, rep, err := runFlow(t, cfg, tc.opts)
			switch {
			case tc.errIs == nil && err != nil:
				t.Fatalf("%v\n%s", err, rep.log())
			case tc.errIs != nil && !tc.errIs(err):
				t.Fatalf("err %v\n%s", err, rep.log())
			case tc.errIs != nil:
				return
			}
			if n := len(emu.Builds()); n != 1 {
				t.Errorf("%d builds, want the description published", n)
			}
			tc.check(t, res, rep, gh)
		})
	}
}

// TestUnusedIgnoreNotice: the notice names at most maxUnusedNamed lines,
// counts the others, and quotes each line cut to maxUnusedQuote bytes.
func TestUnusedIgnoreNotice(t *testing.T) {
	t.Parallel()
	lines := func(nums ...int) []apidiff.IgnoreLine {
		var out []apidiff.IgnoreLine
		for _, n := range nums {
			out = append(out, apidiff.IgnoreLine{Number: n, Text: fmt.Sprintf("GET /p%d x", n)})
		}
		return out
	}
	long := []apidiff.IgnoreLine{{Number: 1, Text: "GET /p " + strings.Repeat("x", 10*maxUnusedQuote)}}
	cases := []struct {
		name   string
		unused []apidiff.IgnoreLine
		want   string // what the notice says before its advice
	}{
		{"one", lines(3), `breaking-ignore a.txt: line 3 agrees to no change of this comparison ("GET /p3 x"): `},
		{"two", lines(3, 5), `breaking-ignore a.txt: lines 3 and 5 agree to no change of this comparison ("GET /p3 x", "GET /p5 x"): `},
		{"three", lines(3, 5, 9), `breaking-ignore a.txt: lines 3, 5 and 9 agree to no change of this comparison ("GET /p3 x", "GET /p5 x", "GET /p9 x"): `},
		{"five", lines(3, 5, 9, 10, 11), `breaking-ignore a.txt: lines 3, 5, 9 and 2 more agree to no change of this comparison ("GET /p3 x", "GET /p5 x", "GET /p9 x"): `},
		{"a long line", long, `breaking-ignore a.txt: line 1 agrees to no change of this comparison ("GET /p ` + strings.Repeat("x", maxUnusedQuote-len("GET /p ")) + `… (1807 more characters)"): `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := unusedIgnoreNotice("a.txt", tc.unused)
			if !strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, "fix it, or remove it once the change is undone") {
				t.Errorf("notice\n%s\nwant it to start\n%s", got, tc.want)
			}
		})
	}
}
