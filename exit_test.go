package main

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// TestExitCodes runs the binary as a CLI (off GitHub) into each outcome and
// checks the exit code --help documents.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	valid := readSample(t, "bookstore.openapi3.yaml")
	base, err := os.ReadFile(filepath.Join("testdata", "apidiff", "removed-operation", "base", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	head, err := os.ReadFile(filepath.Join("testdata", "apidiff", "removed-operation", "head", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"valid.yaml":   valid,
		"syntax.yaml":  "openapi: 3.0.3\ninfo: {title: t\n",
		"invalid.yaml": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a/{id}:\n    get:\n      parameters: [{name: id, in: path, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n",
		"base.yaml":    string(base),
		"head.yaml":    string(head),
	}
	service := []string{"--api-url", emu.URL(), "--branch", "main"}
	cases := []struct {
		name string
		args []string
		code int
		env  []string // more of the runner's variables
	}{
		{"published", append([]string{"--file", "valid.yaml", "--file-name", "openapi.yml", "--project-id", "4711"}, service...), 0, nil},
		{"a dry run", []string{"--dry-run", "--file", "valid.yaml"}, 0, nil},
		{"an unknown flag", []string{"--projectid", "4711"}, 2, nil},
		{"a bad input value", []string{"--dry-run", "--file", "valid.yaml", "--bundle=maybe"}, 2, nil},
		{"a file that does not exist", []string{"--dry-run", "--file", "missing.yaml"}, 2, nil},
		{"a syntax error", []string{"--dry-run", "--file", "syntax.yaml"}, 3, nil},
		{"a validation error", []string{"--dry-run", "--file", "invalid.yaml"}, 3, nil},
		{"a breaking change with fail-on-breaking", []string{"--dry-run", "--file", "head.yaml", "--base-file", "base.yaml", "--fail-on-breaking"}, 4, nil},
		{"a breaking change without it", []string{"--dry-run", "--file", "head.yaml", "--base-file", "base.yaml"}, 0, nil},
		{"the service refuses", append([]string{"--file", "valid.yaml", "--project-id", "9999"}, service...), 1, nil},
		{"a proxy variable that does not parse", []string{"--dry-run", "--file", "valid.yaml"}, 2, []string{"HTTPS_PROXY=http://u:" + testToken + "%zz@proxy:3128"}},
		{"GitHub's API over http beyond loopback", []string{"--dry-run", "--file", "valid.yaml", "--github-token", "gh-token"}, 2, []string{"GITHUB_API_URL=http://ghe.example/api/v3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(binary, tc.args...)
			cmd.Dir = ws
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "DOCS_PUBLISH_TOKEN=" + testToken}, tc.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, stderr.String())
			}
			for _, kv := range tc.env {
				if name, _, _ := strings.Cut(kv, "="); !strings.Contains(stderr.String(), name) {
					t.Errorf("the error does not name %s:\n%s", name, stderr.String())
				}
			}
			if strings.Contains(stderr.String(), testToken) {
				t.Error("the token is on stderr")
			}
		})
	}
}

// TestVersionNamesItsCommit: the binary says which commit it was built
// from, as Go recorded it from the clone.
func TestVersionNamesItsCommit(t *testing.T) {
	t.Parallel()
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git clone: the build records no commit")
	}
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(info.Settings, func(s debug.BuildSetting) bool { return s.Key == "vcs.revision" }) {
		// Go reads .git as a directory: a git worktree (whose .git is a
		// file) builds without VCS stamping; TestVersionFromBuildInfo in
		// internal/cli covers what the binary makes of the build info.
		t.Skip("go build recorded no commit here (a git worktree?)")
	}
	out, err := exec.Command(binary, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "(commit "+strings.TrimSpace(string(head))) {
		t.Errorf("--version printed %q, want commit %s", out, head)
	}
}
