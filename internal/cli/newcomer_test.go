package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
)

// TestFlagValuesAreTrimmed: a value given as a flag is trimmed as the same
// value in a variable is, so a token pasted with its line break and a
// project id with a trailing space publish, whichever way they come.
func TestFlagValuesAreTrimmed(t *testing.T) {
	t.Parallel()
	emu := emulatortest.Start(t, "", time.Millisecond, nil)
	tok := emu.Config().Token
	cases := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flags", nil, []string{"--token", tok + "\n", "--project-id", "4711 "}},
		{"the CLI's variables", map[string]string{"DOCS_PUBLISH_TOKEN": tok + "\r\n", "DOCS_PUBLISH_PROJECT_ID": " 4711"}, nil},
		{"the runner's variables", map[string]string{"INPUT_TOKEN": "\t" + tok + "\n", "INPUT_PROJECT-ID": "4711\n"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			writeSpec(t, ws)
			env := map[string]string{"GITHUB_WORKSPACE": ws}
			for k, v := range tc.env {
				env[k] = v
			}
			args := append([]string{"--api-url", emu.URL(), "--file", "openapi.yaml", "--branch", "main", "--timeout", "5s"}, tc.args...)
			stdout, stderr, err := run(t, actionYAML(t), env, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if !strings.Contains(stdout, "build-id=") || strings.Contains(stdout+stderr, tok) {
				t.Errorf("stdout %q, stderr %q: want a build, and no token shown", stdout, stderr)
			}
		})
	}
}

func writeSpec(t *testing.T, ws string) {
	t.Helper()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "openapi.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNewcomerMistakesFailAtOnce: what a first user gets wrong fails before
// any request, with exit 2 (or 3 for a description's content), naming the
// input and the value, and saying what to do; a secret is named, never
// shown.
func TestNewcomerMistakesFailAtOnce(t *testing.T) {
	t.Parallel()
	const secret = "dp-secret-token-93"
	cases := []struct {
		name  string
		env   map[string]string
		args  []string
		files map[string]string // written to the workspace, "" an empty file
		code  int
		want  []string // in what the user reads
	}{
		{name: "a token with a line break inside, as a flag", args: []string{"--token", secret[:4] + "\n" + secret[4:]}, code: ExitUsage,
			want: []string{"input token: holds a control character", "give the token alone, on one line"}},
		{name: "a token with a tab inside, in the runner's variable", env: map[string]string{"INPUT_TOKEN": secret[:4] + "\t" + secret[4:]}, code: ExitUsage,
			want: []string{"input token: holds a control character"}},
		{name: "a boolean given yes after a space", args: []string{"--set-live", "yes"}, code: ExitUsage,
			want: []string{`--set-live "yes": a boolean flag takes true or false after =: write --set-live=true or --set-live=false`}},
		{name: "a boolean given true after a space", args: []string{"--download", "true"}, code: ExitUsage,
			want: []string{"write --download=true: a boolean flag takes its value after ="}},
		{name: "a boolean given yes after =", args: []string{"--set-live=yes"}, code: ExitUsage,
			want: []string{`input set-live: "yes" is not valid: use true or false`}},
		{name: "--verison", args: []string{"--verison"}, code: ExitUsage, want: []string{"unknown flag --verison: did you mean --version?"}},
		{name: "--hepl", args: []string{"--hepl"}, code: ExitUsage, want: []string{"unknown flag --hepl: did you mean --help?"}},
		{name: "an unquoted version", files: map[string]string{"openapi.yaml": "openapi: 3.0\ninfo:\n  title: T\n  version: 2.0\npaths: {}\n"}, code: ExitInvalid,
			want: []string{"openapi.yaml:1:10: error: openapi must be", `3.0 is written without quotes, so it is read as a number; quote it, as in "3.0.3"`,
				`openapi.yaml:4:12: error: info.version must be a string: 2.0 is written without quotes, so it is read as a number; quote it, as in "2.0"`}},
		{name: "an empty description, as a broken one", files: map[string]string{"openapi.yaml": ""}, code: ExitInvalid,
			want: []string{"openapi.yaml:1:1: error: is empty: it holds no YAML or JSON document: point the file input at"}},
		{name: "a description that cannot be parsed", files: map[string]string{"openapi.yaml": "openapi: [\n"}, code: ExitInvalid,
			want: []string{"openapi.yaml:1:10: error: invalid YAML"}},
		{name: "bundle false and a $ref to a file that is not there", args: []string{"--bundle=false"},
			files: map[string]string{"openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: 'gone.yaml#/OK'}\n"},
			code:  ExitInvalid, want: []string{"openapi.yaml:7:23: error: $ref gone.yaml#/OK: gone.yaml does not exist: add the file, or fix the $ref"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := emulatortest.Start(t, "", time.Millisecond, nil)
			ws := t.TempDir()
			writeSpec(t, ws)
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token}
			for k, v := range tc.env {
				env[k] = v
			}
			// A timeout short enough that a mistake the check misses fails fast.
			args := append([]string{"--api-url", emu.URL(), "--project-id", "4711", "--file", "openapi.yaml", "--branch", "main", "--timeout", "3s"}, tc.args...)
			stdout, stderr, err := run(t, actionYAML(t), env, args...)
			if code := ExitCode(context.Background(), err); code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tc.code, stderr)
			}
			said := stdout + stderr
			if !errors.Is(err, ErrReported) {
				said += err.Error()
			}
			for _, w := range tc.want {
				if !strings.Contains(said, w) {
					t.Errorf("does not say %q:\n%s", w, said)
				}
			}
			if strings.Contains(said, secret[4:]) {
				t.Errorf("the token is shown:\n%s", said)
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

// TestNewcomerRunsSayWhatTheyDid: a run with no base shows no comparison
// step; a breaking-ignore file not yet made is a notice, not a failure; a
// $ref to an address is a warning; a published run says which file it
// wrote and that the doc renders the one in its publish settings.
func TestNewcomerRunsSayWhatTheyDid(t *testing.T) {
	t.Parallel()
	emu := emulatortest.Start(t, "", time.Millisecond, nil)
	ws := t.TempDir()
	writeSpec(t, ws)
	spec, _ := os.ReadFile(filepath.Join(ws, "openapi.yaml"))
	remote := strings.Replace(string(spec), "paths:\n", "x-remote: {$ref: 'https://example.com/common.yaml#/X'}\npaths:\n", 1)
	if err := os.WriteFile(filepath.Join(ws, "remote.yaml"), []byte(remote), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token}
	stdout, stderr, err := run(t, actionYAML(t), env, "--api-url", emu.URL(), "--project-id", "4711", "--branch", "main",
		"--file", "remote.yaml", "--file-name", "openapi.yml", "--breaking-ignore", "api/breaking-ignore.txt")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{
		`notice: breaking-ignore "api/breaking-ignore.txt" does not exist, so no breaking change is ignored`,
		"warning: $ref https://example.com/common.yaml#/X is an address, not a file: it is published as written, not bundled",
		`This run wrote "openapi.yml" on branch "main". The doc renders the file set in its publish settings`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "compare with base") || strings.Contains(stderr, "not compared") || strings.Contains(stdout, "changes=") {
		t.Errorf("a comparison that did nothing is shown:\n%s%s", stdout, stderr)
	}
	// With a base, the comparison is a step of its own.
	_, stderr, err = run(t, actionYAML(t), env, "--dry-run", "--file", "openapi.yaml", "--base-file", "openapi.yaml")
	if err != nil || !regexp.MustCompile(`(?m)^  compare with base: `).MatchString(stderr) {
		t.Errorf("err %v; a comparison with base-file shows no step:\n%s", err, stderr)
	}
}

// TestHelpSaysWhatANewcomerNeeds: --help lists the outputs, how booleans
// are written, that --branch is needed off GitHub and how to give the
// token; the emulator does not promise a request log it was told to keep
// quiet.
func TestHelpSaysWhatANewcomerNeeds(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	stdout, _, err := run(t, action, nil, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"docs-publish: upload an OpenAPI",
		"A boolean flag takes its value after =: --set-live=false",
		"Off GitHub, --branch has no default",
		"Give the token in DOCS_PUBLISH_TOKEN",
		"It is never printed",
		"\nOutputs (",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help does not say %q", want)
		}
	}
	outputs := stdout[strings.Index(stdout, "\nOutputs ("):]
	for _, name := range []string{"build-id", "doc-id", "docs-url", "file-name", "live", "zip-path", "breaking-changes", "api-changes"} {
		if !slices.Contains(strings.Split(outputs, "\n"), "  "+name) {
			t.Errorf("--help does not list output %s", name)
		}
	}
	for _, quiet := range []bool{false, true} {
		args := []string{"emulator", "--addr", "127.0.0.1:0"}
		if quiet {
			args = append(args, "--quiet")
		}
		emu := serve(t, nil, args...)
		waitFor(t, &emu.stdout, regexp.MustCompile(`Stop with Ctrl-C\.`))
		if got := strings.Contains(emu.stdout.String(), "Requests are logged on stderr"); got == quiet {
			t.Errorf("quiet %v: says requests are logged: %v", quiet, got)
		}
		emu.stop()
	}
}
