package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
	"github.com/docs-publish/docs-publish/internal/publish"
)

// TestFailedBuildIsNotTheDocs: a build that failed is never said live nor
// linked as the docs, in the CLI's summary or the job summary; the advice
// quotes the service's reason, escaped as text, without a secret the
// service echoed, and does not blame file-name when the service says why.
func TestFailedBuildIsNotTheDocs(t *testing.T) {
	t.Parallel()
	const token = "dp-failed-build-token-4711"
	reason := "the theme does not build: <b>**logo**</b> [x](javascript:alert(1)) for " + token
	emu := emulatortest.Start(t, token, time.Millisecond, func(c *emulator.Config) {
		c.Projects[0].Docs[0].Domain = "docs.bookstore.example"
		if err := c.FailBuilds(c.Projects[0].Docs[0].ID, reason); err != nil {
			t.Fatal(err)
		}
	})
	cases := []struct {
		name   string
		github bool
		want   []string
		lacks  []string
	}{
		{name: "the CLI's summary", want: []string{
			"Live:                false: the build failed",
			"Build outcome:       failed",
			"and says why: “build failed: doc 17: the theme does not build: <b>**logo**</b> [x](javascript:alert(1)) for ***”",
		}, lacks: []string{"Live:                true", "set file-name to that file", token}},
		{name: "the job summary", github: true, want: []string{
			"| Live | false: the build failed, so it was not made live |",
			"and says why: “build failed: doc 17: the theme does not build: &lt;b&gt;\\*\\*logo\\*\\*&lt;/b&gt; \\[x\\]\\(javascript:alert\\(1\\)\\) for ***”",
		}, lacks: []string{"**Docs:**", "<https://docs.bookstore.example/>", "| Live | true |", "set file-name to that file", "<b>", token}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			writeSpec(t, ws)
			summaryFile := filepath.Join(t.TempDir(), "summary")
			env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": token}
			if tc.github {
				env["GITHUB_ACTIONS"] = "true"
				env["GITHUB_STEP_SUMMARY"] = summaryFile
				env["GITHUB_OUTPUT"] = filepath.Join(t.TempDir(), "output")
			}
			_, stderr, err := run(t, actionYAML(t), env, "--api-url", emu.URL(), "--project-id", "4711", "--file", "openapi.yaml",
				"--branch", "main", "--file-name", "openapi.yml", "--timeout", "10s")
			if err == nil {
				t.Fatal("a failed build ended the run without an error")
			}
			said := stderr
			if tc.github {
				b, rerr := os.ReadFile(summaryFile)
				if rerr != nil {
					t.Fatal(rerr)
				}
				said = string(b)
				// The doc has an address: the summary leaves it out, it
				// does not lack it.
				out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
				if !strings.Contains(string(out), "https://docs.bookstore.example/") {
					t.Errorf("no docs-url output, so the missing link proves nothing:\n%s", out)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(said, w) {
					t.Errorf("does not say %q:\n%s", w, said)
				}
			}
			for _, w := range tc.lacks {
				if strings.Contains(said, w) {
					t.Errorf("says %q:\n%s", w, said)
				}
			}
		})
	}
}

// TestFailedBuildRowLinksNoDocs: in the table of several descriptions, a
// description whose build failed has no docs link, though the doc has an
// address; a built one keeps its link.
func TestFailedBuildRowLinksNoDocs(t *testing.T) {
	t.Parallel()
	cfgs, results := severalRun()
	failed := *results[0]
	failed.File, failed.BuildState, failed.DocsURL = "failed.yaml", publish.BuildFailed, "https://failed.docs.example/"
	failed.Err = &publish.StepError{Step: publish.StepWait, Desc: "wait for build 1001", Err: &publish.BuildFailedError{BuildID: "1001"}}
	cfgs = append(cfgs, cfgs[0])
	results = append(results, &failed)
	md := (&summaries{cfgs: cfgs, results: results, runErr: errors.New("x"), total: time.Second}).markdown()
	if strings.Contains(md, "failed.docs.example") {
		t.Errorf("the failed build's doc is linked:\n%s", md)
	}
	if !strings.Contains(md, "<https://users.docs.example/> |") {
		t.Errorf("the built doc is not linked:\n%s", md)
	}
}
