package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
)

func actionYAML(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInputsMatchConfig: every input of action.yml is a field of the
// configuration and every configured field is an input, so neither can
// drift from the other.
func TestInputsMatchConfig(t *testing.T) {
	t.Parallel()
	meta, err := ghaction.ParseMetadata(actionYAML(t))
	if err != nil {
		t.Fatal(err)
	}
	var fromYAML, fromCode []string
	for _, in := range meta.Inputs {
		fromYAML = append(fromYAML, in.Name)
		if in.Description == "" {
			t.Errorf("input %s has no description", in.Name)
		}
	}
	typ := reflect.TypeOf(publish.Config{})
	for i := range typ.NumField() {
		tag := typ.Field(i).Tag.Get("env")
		if tag == "" {
			continue
		}
		key, opts, _ := strings.Cut(tag, ",")
		name := ghaction.InputName(key)
		fromCode = append(fromCode, name)
		in, _ := meta.Input(name)
		if strings.Contains(opts, "required") && !in.Required {
			t.Errorf("the code requires %s, action.yml does not", name)
		}
		if strings.Contains(opts, "default") {
			t.Errorf("%s has a default in the code; defaults belong in action.yml only", name)
		}
	}
	slices.Sort(fromYAML)
	slices.Sort(fromCode)
	if !slices.Equal(fromYAML, fromCode) {
		t.Errorf("action.yml inputs %v\nconfig fields  %v", fromYAML, fromCode)
	}
	for _, o := range meta.Outputs {
		if o.Description == "" {
			t.Errorf("output %s has no description", o.Name)
		}
	}
}

// run calls the program in-process with env as its whole environment.
func run(t *testing.T, action []byte, env map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), Env{
		Args: args, Getenv: func(k string) string { return env[k] },
		Stdout: &stdout, Stderr: &stderr, Action: action, Version: "test",
	})
	return stdout.String(), stderr.String(), err
}

// TestRequiredInputs: a run that publishes without any one required input,
// or one that publishing needs (which a dry run does not, so action.yml
// does not mark it required), fails naming it.
func TestRequiredInputs(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	meta, _ := ghaction.ParseMetadata(action)
	all := map[string]string{"GITHUB_WORKSPACE": t.TempDir(), "GITHUB_REF_NAME": "main"}
	valid := map[string]string{"token": "tok-test-value", "api-url": "https://api.example.com", "project-id": "4711", "file": "openapi.yaml"}
	for i, in := range meta.Inputs {
		if valid[in.Name] != "" {
			meta.Inputs[i].Required = true // needed to publish
		}
		if meta.Inputs[i].Required {
			if valid[in.Name] == "" {
				t.Fatalf("no valid test value for required input %s", in.Name)
			}
			all[ghaction.RunnerVar(in.Name)] = valid[in.Name]
		}
	}
	for _, in := range meta.Inputs {
		if !in.Required {
			continue
		}
		t.Run(in.Name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			for k, v := range all {
				env[k] = v
			}
			env[ghaction.RunnerVar(in.Name)] = ""
			_, stderr, err := run(t, action, env)
			if err == nil {
				t.Fatal("run without a required input succeeded")
			}
			if !strings.Contains(stderr, "input "+in.Name+":") {
				t.Errorf("error does not name input %s: %s", in.Name, stderr)
			}
		})
	}
}

// TestDefaultsComeFromActionYAML: change a default in action.yml and the
// program follows, so the defaults live in one place.
func TestDefaultsComeFromActionYAML(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	meta, _ := ghaction.ParseMetadata(action)
	look := &ghaction.Lookuper{Meta: meta, Getenv: func(string) string { return "" }}
	cfg, err := loadConfig(context.Background(), Env{Getenv: func(string) string { return "" }}, meta, lookWith(look, map[string]string{"api-url": "x", "project-id": "p", "file": "f"}))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.SetLive || cfg.Download || cfg.Timeout != publish.Duration(10*time.Minute) || cfg.BuildTimeout != publish.Duration(5*time.Minute) || cfg.MaxDownload != 1<<30 {
		t.Errorf("defaults from action.yml not applied: %+v", cfg)
	}
	changed := bytes.Replace(action, []byte("default: \"true\""), []byte("default: \"false\""), 1)
	changed = bytes.Replace(changed, []byte("default: 10m"), []byte("default: 3m"), 1)
	meta2, _ := ghaction.ParseMetadata(changed)
	cfg2, err := loadConfig(context.Background(), Env{Getenv: func(string) string { return "" }}, meta2, lookWith(&ghaction.Lookuper{Meta: meta2, Getenv: func(string) string { return "" }}, map[string]string{"api-url": "x", "project-id": "p", "file": "f"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg2.SetLive || cfg2.Timeout != publish.Duration(3*time.Minute) {
		t.Errorf("changed defaults not followed: set-live %v, timeout %s", cfg2.SetLive, cfg2.Timeout)
	}
}

func lookWith(l *ghaction.Lookuper, flags map[string]string) *ghaction.Lookuper {
	l.Flags = flags
	return l
}

// TestCLIOffGitHub runs the flow as another CI system would: flags and
// DOCS_PUBLISH_* variables in, name=value lines or JSON out.
func TestCLIOffGitHub(t *testing.T) {
	t.Parallel()
	emu := emulatortest.Start(t, "", 10*time.Millisecond, nil)
	cfg := emu.Config()
	ws := t.TempDir()
	spec, _ := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	os.WriteFile(filepath.Join(ws, "openapi.yaml"), spec, 0o644)
	env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": cfg.Token, "DOCS_PUBLISH_PROJECT_ID": "4711", "RUNNER_DEBUG": "1"}

	stdout, stderr, err := run(t, actionYAML(t), env, "--api-url", emu.URL(), "--file", "openapi.yaml", "--branch", "main", "--download")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if !slices.Contains(lines, "doc-id=17") || !slices.Contains(lines, "zip-path=docs-build-1001.zip") || !slices.Contains(lines, "live=true") {
		t.Errorf("stdout = %q", stdout)
	}
	if strings.Contains(stdout+stderr, "::") {
		t.Errorf("workflow commands printed off GitHub:\n%s%s", stdout, stderr)
	}
	if !strings.Contains(stderr, "docs-publish: API docs published") {
		t.Errorf("no plain-text summary: %s", stderr)
	}
	if !strings.Contains(stderr, "debug: PUT "+emu.URL()+"/projects/4711/files/openapi.yml: 200 OK in ") || !strings.Contains(stderr, "update file: done in ") {
		t.Errorf("no debug line per request or step duration with RUNNER_DEBUG=1:\n%s", stderr)
	}
	delete(env, "RUNNER_DEBUG")

	stdout, stderr, err = run(t, actionYAML(t), env, "--api-url", emu.URL(), "--file", "openapi.yaml", "--branch", "main", "--set-live=false", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Typed values: live a boolean, sizes and counts numbers, ids strings.
	var outs map[string]any
	if err := json.Unmarshal([]byte(stdout), &outs); err != nil || outs["live"] != false || outs["build-id"] != "1002" || outs["doc-id"] != "17" {
		t.Errorf("--output json printed %q (%v)", stdout, err)
	}

	// A failure: the step, the message and the exit code, in an error member.
	stdout, _, err = run(t, actionYAML(t), env, "--api-url", emu.URL(), "--file", "openapi.yaml", "--branch", "main", "--project-id", "9999", "--output", "json")
	if err == nil {
		t.Fatal("a project that does not exist published")
	}
	var failed struct {
		Error struct {
			Step     string `json:"step"`
			Message  string `json:"message"`
			ExitCode int    `json:"exit_code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &failed); err != nil || failed.Error.Step != "list docs" || failed.Error.ExitCode != ExitFailure ||
		!strings.Contains(failed.Error.Message, "project 9999") || strings.Contains(stdout, cfg.Token) {
		t.Errorf("--output json on failure printed %q (%v)", stdout, err)
	}
}

func TestFlagMistakes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string // in the error; "" means no suggestion at all
	}{
		{[]string{"--projectid", "4711"}, "unknown flag --projectid: did you mean --project-id?"},
		{[]string{"--project_id=4711"}, "did you mean --project-id?"},
		{[]string{"--fil", "a.yaml"}, "did you mean --file?"},
		{[]string{"--fiel", "a.yaml"}, "did you mean --file?"}, // as far as a suggestion goes
		{[]string{"help", "emulatro"}, "did you mean emulator?"},
		{[]string{"--dryrun"}, "did you mean --dry-run?"},
		{[]string{"--set-live", "false"}, "write --set-live=false: a boolean flag takes its value after ="},
		{[]string{"--file", "a.yaml", "--download", "TRUE"}, "write --download=TRUE"},
		{[]string{"--zzzzzzzz"}, ""},
		{[]string{"emulater"}, `unknown command "emulater": did you mean emulator?`},
		{[]string{"dmeo", "--dir", "x"}, "did you mean demo?"},
		{[]string{"emulator", "--adr", "127.0.0.1:0"}, "unknown flag --adr: did you mean --addr? (see docs-publish emulator --help)"},
		{[]string{"emulator", "--quiet", "false"}, "write --quiet=false"},
		{[]string{"demo", "--dirr", "x"}, "unknown flag --dirr: did you mean --dir? (see docs-publish demo --help)"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			_, stderr, err := run(t, actionYAML(t), nil, tc.args...)
			var ue *UsageError
			if !errors.As(err, &ue) || ExitCode(context.Background(), err) != ExitUsage {
				t.Fatalf("err %v, want a usage error", err)
			}
			// What the user reads: stderr, and the error main prints
			// when it was not reported already.
			said := stderr
			if !errors.Is(err, ErrReported) {
				said += err.Error()
			}
			if tc.want == "" && strings.Contains(said, "did you mean") {
				t.Errorf("a suggestion for a name like no flag: %s", said)
			}
			if !strings.Contains(said, tc.want) {
				t.Errorf("said %q, want %q", said, tc.want)
			}
		})
	}
	// A flag's value may start with a dash; it is not taken for a flag.
	if _, stderr, _ := run(t, actionYAML(t), nil, "--commit-message", "-x", "--dry-run", "--file", "missing.yaml"); strings.Contains(stderr, "unknown flag") {
		t.Errorf("a value taken for a flag: %s", stderr)
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	meta, _ := ghaction.ParseMetadata(action)
	stdout, _, err := run(t, action, nil, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range meta.Inputs {
		if !strings.Contains(stdout, "--"+in.Name) || !strings.Contains(stdout, ghaction.EnvVar(in.Name)) {
			t.Errorf("--help does not show --%s and %s", in.Name, ghaction.EnvVar(in.Name))
		}
	}
	for _, sub := range []string{"demo", "emulator", "version"} {
		if !strings.Contains(stdout, "docs-publish "+sub) {
			t.Errorf("--help does not list the %s subcommand", sub)
		}
	}
	for _, code := range []string{"\n  0 ", "\n  1 ", "\n  2 ", "\n  3 ", "\n  4 ", "\n  130 "} {
		if !strings.Contains(stdout, code) {
			t.Errorf("--help does not list exit code %q", strings.TrimSpace(code))
		}
	}
	stdout, _, _ = run(t, action, nil, "--version")
	if !strings.HasPrefix(stdout, "docs-publish test (commit ") {
		t.Errorf("--version printed %q", stdout)
	}
	_, stderr, err := run(t, action, nil, "--no-such-flag")
	if err == nil || !strings.Contains(stderr, "no-such-flag") {
		t.Errorf("unknown flag: %v %s", err, stderr)
	}
}

// TestHelpManners: every command answers --help with its own help, help
// with a command's name is that command's --help, help with a name that is
// no command names it and is a usage error, and the general help shows no
// unevaluated expression as a default.
func TestHelpManners(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	cases := []struct {
		args []string
		want string // in stdout, or in the error for a failure
		fail bool
	}{
		{args: []string{"--help"}, want: "docs-publish [flags]"},
		{args: []string{"help"}, want: "docs-publish [flags]"},
		{args: []string{"help", "help"}, want: "docs-publish [flags]"},
		{args: []string{"demo", "--help"}, want: "docs-publish demo"},
		{args: []string{"help", "demo"}, want: "docs-publish demo"},
		{args: []string{"emulator", "--help"}, want: "docs-publish emulator"},
		{args: []string{"help", "emulator"}, want: "docs-publish emulator"},
		{args: []string{"version", "--help"}, want: "docs-publish version: the version"},
		{args: []string{"version", "-h"}, want: "docs-publish version: the version"},
		{args: []string{"help", "version"}, want: "docs-publish version: the version"},
		{args: []string{"help", "foo"}, want: `help foo: no command is called "foo"; the commands are demo, emulator, version, help`, fail: true},
		{args: []string{"help", "emulatr"}, want: "did you mean emulator?", fail: true},
		{args: []string{"help", "demo", "now"}, want: `not "now" too`, fail: true},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, _, err := run(t, action, nil, tc.args...)
			var ue *UsageError
			switch {
			case tc.fail && (!errors.As(err, &ue) || ExitCode(context.Background(), err) != ExitUsage):
				t.Fatalf("error %v (%T): want a usage error (exit %d)", err, err, ExitUsage)
			case tc.fail && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q does not say %q", err, tc.want)
			case !tc.fail && err != nil:
				t.Fatalf("error %v", err)
			case !tc.fail && !strings.Contains(stdout, tc.want):
				t.Errorf("stdout does not say %q:\n%s", tc.want, stdout)
			}
			if tc.fail && stdout != "" {
				t.Errorf("a failed help printed %q", stdout)
			}
			if strings.Contains(stdout, "${{") {
				t.Errorf("the help shows an expression the runner would evaluate:\n%s", stdout)
			}
		})
	}
	stdout, _, _ := run(t, action, nil, "--help")
	for _, want := range []string{"--branch\n      The project branch to write the file to. Empty means the pull request's own branch (github.head_ref) on pull_request events", "pr-<number> on pull_request_target events", "--github-token (default on GitHub: the run's GITHUB_TOKEN)", "--timeout (default 10m)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help does not say %q", want)
		}
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	spec, _ := os.ReadFile("../../testdata/specs/bookstore.swagger2.yaml")
	var stdout, stderr bytes.Buffer
	// The caller's GitHub variables must not leak into the demo's run.
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(t.TempDir(), "must-not-exist")}
	err := Run(context.Background(), Env{
		Args: []string{"demo", "--dir", dir}, Getenv: func(k string) string { return env[k] },
		Stdout: &stdout, Stderr: &stderr, Action: actionYAML(t), Sample: spec, Version: "test",
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, f := range []string{"openapi.yaml", "docs-build.zip", "summary.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("demo left no %s", f)
		}
	}
	if !strings.Contains(stdout.String(), "index.html") || !strings.Contains(stdout.String(), "build-id=1001") {
		t.Errorf("demo output:\n%s", stdout.String())
	}
	if _, err := os.Stat(env["GITHUB_OUTPUT"]); err == nil {
		t.Error("demo wrote to the caller's GITHUB_OUTPUT")
	}
}

// TestBadValuesNameTheirInput: a value its kind cannot read is an error that
// names the input and keeps the decoder's typed error as its cause.
func TestBadValuesNameTheirInput(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	meta, _ := ghaction.ParseMetadata(action)
	cases := map[string]string{
		"set-live": "yes please", "download": "maybe", "wait-for-build": "perhaps",
		"timeout": "soon", "request-timeout": "-1s", "build-timeout": "5", "max-download-size": "lots",
	}
	for input, value := range cases {
		t.Run(input, func(t *testing.T) {
			t.Parallel()
			look := &ghaction.Lookuper{Meta: meta, Getenv: func(k string) string {
				if k == ghaction.RunnerVar(input) {
					return value
				}
				return ""
			}}
			_, err := loadConfig(context.Background(), Env{Getenv: func(string) string { return "" }}, meta, look)
			var ie *publish.InputError
			var ve *publish.ValueError
			if !errors.As(err, &ie) || ie.Input != input || !errors.As(err, &ve) || ve.Value != value {
				t.Errorf("error %v: want an *InputError for %s caused by a *ValueError for %q", err, input, value)
			}
		})
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	t.Parallel()
	const rev = "637aa63cf790019a3fa6bf3dc43e0c359477bbdc"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name, version, commit string
		info                  *debug.BuildInfo
		want                  string
	}{
		{"go build in a clone", "dev", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")},
			"docs-publish dev (commit " + rev + ")"},
		{"go build in a clone with changes", "dev", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")},
			"docs-publish dev (commit " + rev + "+dirty)"},
		{"go build in a clone, Go stamping a pseudo-version", "dev", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.1-0.20261123154831-637aa63cf790"}, Settings: vcs("false")},
			"docs-publish v1.4.1-0.20261123154831-637aa63cf790 (commit " + rev + ")"},
		{"go install at a tag", "dev", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			"docs-publish v1.4.0"},
		{"the release build, told both", "v1.4.0", "abc123", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			"docs-publish v1.4.0 (commit abc123)"},
		{"told the commit, in a clone", "v1.4.0", "abc123", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")},
			"docs-publish v1.4.0 (commit abc123)"},
		{"-buildvcs=false", "dev", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			"docs-publish dev (commit unknown)"},
		{"no build info", "dev", "", nil, "docs-publish dev (commit unknown)"},
	} {
		if got := versionFrom(tc.version, tc.commit, tc.info); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
