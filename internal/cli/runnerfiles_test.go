package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
)

// TestRunnerFilesThatCannotBeWritten runs the action as the runner does,
// with one of the runner's files pointing where nothing can be written (as
// act does in its host mode): a summary that cannot be written is a
// warning and the run succeeds; outputs that cannot be written fail the
// step, naming GITHUB_OUTPUT and what was published; no Go panic either way.
func TestRunnerFilesThatCannotBeWritten(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		unwritable string
		fails      bool
		want       []string
	}{
		{"GITHUB_STEP_SUMMARY", false, []string{"::warning title=docs-publish::the job summary is missing: cannot write GITHUB_STEP_SUMMARY"}},
		{"GITHUB_OUTPUT", true, []string{"::error title=docs-publish::the step's outputs cannot be written to GITHUB_OUTPUT",
			"the docs were published all the same: doc 17, build 1001 (live: true), saved as docs-build-1001.zip"}},
	}
	for _, tc := range cases {
		t.Run(tc.unwritable, func(t *testing.T) {
			t.Parallel()
			emu := emulatortest.Start(t, "", 10*time.Millisecond, nil)
			ws, files := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(ws, "openapi.yaml"), spec, 0o644)
			env := map[string]string{
				"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_REF_NAME": "main",
				"GITHUB_OUTPUT": filepath.Join(files, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(files, "summary"),
				"INPUT_TOKEN": emu.Config().Token, "INPUT_API-URL": emu.URL(), "INPUT_PROJECT-ID": "4711",
				"INPUT_FILE": "openapi.yaml", "INPUT_DOWNLOAD": "true",
			}
			env[tc.unwritable] = filepath.Join(files, "not-mounted", "file")
			stdout, stderr, err := run(t, actionYAML(t), env)
			if (err != nil) != tc.fails {
				t.Errorf("error %v, want failure %v\n%s", err, tc.fails, stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("the log does not say %q:\n%s", w, stdout)
				}
			}
			if strings.Contains(stdout+stderr, "panic") || strings.Contains(stdout+stderr, "goroutine ") {
				t.Errorf("a panic:\n%s%s", stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join(ws, "docs-build-1001.zip")); err != nil {
				t.Errorf("the run did not go on to its end: %v", err)
			}
		})
	}
}
