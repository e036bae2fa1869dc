//go:build unix

package main

import (
	"bytes"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestErrorsPrintedLastShowNoSecret runs the binary into each way a run
// ends with an error printed by the program itself or by flag parsing,
// with a secret in the error's text: no form of it shows on stdout or
// stderr (bar the ::add-mask:: commands that hide it on GitHub).
func TestErrorsPrintedLastShowNoSecret(t *testing.T) {
	t.Parallel()
	const (
		docsToken   = "dpTOKEN_s3cr3t/Zq9+last-error"
		githubToken = "ghs_Ab3dEfGh1jKlMn0pQrStUvWxYz1234567"
	)
	cases := []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		secret string
	}{
		{"an --output that is neither text nor json", map[string]string{"DOCS_PUBLISH_TOKEN": docsToken},
			[]string{"--dry-run", "--output", docsToken}, 2, docsToken},
		{"the token as a stray argument after a boolean flag", map[string]string{"DOCS_PUBLISH_TOKEN": docsToken},
			[]string{"--download", docsToken}, 2, docsToken},
		{"the same, with --output json", map[string]string{"DOCS_PUBLISH_TOKEN": docsToken},
			[]string{"--output", "json", "--dry-run", docsToken}, 2, docsToken},
		{"a token given only as a flag, and again where it cannot be read", nil,
			[]string{"--token", docsToken, "--output", docsToken}, 2, docsToken},
		{"a token given only as --token=, and again as an argument", nil,
			[]string{"--token=" + docsToken, "--dry-run", docsToken}, 2, docsToken},
		{"a GitHub token given only as a flag", nil,
			[]string{"-github-token", githubToken, "--dry-run", githubToken}, 2, githubToken},
		{"a flag value that fails to parse as an input", map[string]string{"DOCS_PUBLISH_TOKEN": docsToken},
			[]string{"--dry-run", "--timeout", docsToken}, 2, docsToken},
		{"on GitHub: a flag that fails, the token in the runner's input", map[string]string{"GITHUB_ACTIONS": "true", "INPUT_TOKEN": docsToken},
			[]string{"--output", docsToken}, 2, docsToken},
		{"help for a command that is the token", map[string]string{"INPUT_TOKEN": docsToken},
			[]string{"help", docsToken}, 2, docsToken},
		{"help for a command that is the token percent-encoded", map[string]string{"INPUT_TOKEN": docsToken},
			[]string{"help", url.QueryEscape(docsToken)}, 2, docsToken},
		{"a stray argument to demo: the run's GITHUB_TOKEN", map[string]string{"GITHUB_TOKEN": githubToken},
			[]string{"demo", githubToken}, 2, githubToken},
		{"a demo flag that fails to parse", map[string]string{"INPUT_GITHUB-TOKEN": githubToken},
			[]string{"demo", "--serve=" + githubToken}, 2, githubToken},
		{"an emulator flag that fails to parse", map[string]string{"DOCS_PUBLISH_GITHUB_TOKEN": githubToken},
			[]string{"emulator", "--build-delay", githubToken}, 2, githubToken},
		{"an emulator seed file named by the token", map[string]string{"DOCS_PUBLISH_TOKEN": docsToken},
			[]string{"emulator", "--seed", docsToken}, 2, docsToken},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(binary, tc.args...)
			cmd.Dir = t.TempDir()
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + cmd.Dir}
			for k, v := range tc.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit: %v, want code %d\nstdout:\n%s\nstderr:\n%s", err, tc.code, stdout.String(), stderr.String())
			}
			if stdout.Len()+stderr.Len() == 0 {
				t.Fatal("the run printed nothing: its error is lost")
			}
			for stream, text := range map[string]string{"stdout": withoutMasks(stdout.String()), "stderr": stderr.String()} {
				if f := shown(text, tc.secret); f != "" {
					t.Errorf("%s shows the secret as %q:\n%s", stream, f, text)
				}
			}
			if !strings.Contains(stdout.String()+stderr.String(), "***") {
				t.Errorf("the secret is not shown scrubbed where the error quoted it:\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
		})
	}
}
