package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/google/go-cmp/cmp"
)

// TestSubcommandHelp: each command's help exits 0 on stdout, in the main
// help's style; the main help lists the commands.
func TestSubcommandHelp(t *testing.T) {
	t.Parallel()
	action := actionYAML(t)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"emulator", "--help"}, []string{"docs-publish emulator:", "Usage:\n  docs-publish emulator [flags]", "Flags:\n  --addr HOST:PORT", "--seed FILE", "--doc PROJECT/DOC", "--fail-build DOC", "Seed file"}},
		{[]string{"emulator", "-h"}, []string{"Usage:\n  docs-publish emulator [flags]"}},
		{[]string{"help", "emulator"}, []string{"Usage:\n  docs-publish emulator [flags]"}},
		{[]string{"demo", "--help"}, []string{"docs-publish demo:", "Usage:\n  docs-publish demo [flags]", "Flags:\n  --dir DIR", "--serve"}},
		{[]string{"help", "demo"}, []string{"Usage:\n  docs-publish demo [flags]"}},
		{[]string{"--help"}, []string{"docs-publish demo [flags]", "docs-publish emulator [flags]", "docs-publish help [COMMAND]"}},
		{[]string{"help"}, []string{"docs-publish demo [flags]", "docs-publish emulator [flags]"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, err := run(t, action, nil, tc.args...)
			if err != nil || stderr != "" {
				t.Fatalf("err %v, stderr %q", err, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("help lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

func TestEmulatorFlags(t *testing.T) {
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.yaml")
	os.WriteFile(seed, []byte("token: from-seed\nbuild-delay: 2s\nprojects:\n  - {id: 1, docs: [{id: 10}]}\n"), 0o644)
	cases := []struct {
		name     string
		args     []string
		token    string
		delay    time.Duration
		projects []emulator.Project
		err      string
	}{
		{
			name: "defaults", token: "random", delay: 300 * time.Millisecond,
			projects: emulator.Default().Projects,
		},
		{
			name:  "two projects, two docs, a failing build",
			args:  []string{"--doc", "4711/17", "--doc", "4711/18=api/openapi.yml@develop", "--doc", "4712/21=other.yml", "--fail-build", "18=the theme does not build", "--token", "t", "--build-delay", "1s"},
			token: "t", delay: time.Second,
			projects: []emulator.Project{
				{ID: "4711", Branches: []string{"main", "develop"}, Docs: []emulator.Doc{
					{ID: "17", Domain: "doc-17.project-4711.docs.example", File: "openapi.yml", Branch: "main"},
					{ID: "18", Domain: "doc-18.project-4711.docs.example", File: "api/openapi.yml", Branch: "develop", Fail: "the theme does not build"},
				}},
				{ID: "4712", Branches: []string{"main"}, Docs: []emulator.Doc{{ID: "21", Domain: "doc-21.project-4712.docs.example", File: "other.yml", Branch: "main"}}},
			},
		},
		{
			name:  "seed file, flags win, --doc adds",
			args:  []string{"--seed", seed, "--token", "from-flag", "--doc", "2/20"},
			token: "from-flag", delay: 2 * time.Second,
			projects: []emulator.Project{
				{ID: "1", Branches: []string{"main"}, Docs: []emulator.Doc{{ID: "10", File: "openapi.yml", Branch: "main"}}},
				{ID: "2", Branches: []string{"main"}, Docs: []emulator.Doc{{ID: "20", Domain: "doc-20.project-2.docs.example", File: "openapi.yml", Branch: "main"}}},
			},
		},
		{name: "a doc without project", args: []string{"--doc", "17"}, err: `--doc "17": write PROJECT/DOC`},
		{name: "a doc twice", args: []string{"--doc", "1/17", "--doc", "2/17"}, err: "doc 17 is seeded twice"},
		{name: "failing an unknown doc", args: []string{"--fail-build", "99"}, err: "--fail-build 99: no doc 99"},
		{name: "a missing seed file", args: []string{"--seed", filepath.Join(t.TempDir(), "none.yaml")}, err: "--seed: open"},
		{name: "an unknown flag", args: []string{"--no-such"}, err: "see docs-publish emulator --help"},
		{name: "a bad variant", args: []string{"--variant", "nope"}, err: "--variant"},
		{name: "a negative build delay", args: []string{"--build-delay", "-1s"}, err: "--build-delay -1s: give a duration of 0 or more"},
	}
	// The API is under /v1 unless told otherwise, as the service's is.
	for args, want := range map[string]string{"v1": "/v1", "/v1": "/v1", "/v1/": "/v1", "v1/": "/v1", "": "", "-": "/v1"} {
		flags := []string{"--prefix", args}
		if args == "-" {
			flags = nil
		}
		if cfg, _, err := emulatorConfig(flags); err != nil || cfg.Prefix != want {
			t.Errorf("%q: prefix %q, %v; want %q", flags, cfg.Prefix, err, want)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, _, err := emulatorConfig(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.token == "random" {
				// A random token per start: no two alike, no well-known one.
				again, _, _ := emulatorConfig(tc.args)
				if !regexp.MustCompile(`^emu-[0-9a-f]{32}$`).MatchString(cfg.Token) || again.Token == cfg.Token {
					t.Errorf("tokens %q and %q: want a random one per start", cfg.Token, again.Token)
				}
				tc.token = cfg.Token
			}
			if cfg.Token != tc.token || cfg.BuildDelay != tc.delay {
				t.Errorf("token %q delay %v, want %q %v", cfg.Token, cfg.BuildDelay, tc.token, tc.delay)
			}
			if diff := cmp.Diff(tc.projects, cfg.Projects); diff != "" {
				t.Errorf("projects (-want +got):\n%s", diff)
			}
		})
	}
}

// lockedBuffer is an output the running command writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a command that serves until it is interrupted, run as a person
// runs it in a terminal.
type served struct {
	stdout, stderr lockedBuffer
	cancel         context.CancelFunc
	done           chan error
}

// serve starts the command args (with sample as the embedded sample).
func serve(t *testing.T, sample []byte, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{cancel: cancel, done: make(chan error, 1)}
	env := Env{
		Args: args, Getenv: func(string) string { return "" },
		Stdout: &s.stdout, Stderr: &s.stderr, Action: actionYAML(t), Sample: sample, Version: "test",
	}
	go func() { s.done <- Run(ctx, env) }()
	t.Cleanup(cancel)
	return s
}

// stop interrupts the command and returns how it ended.
func (s *served) stop() error {
	s.cancel()
	return <-s.done
}

// waitFor polls out until re matches, and returns the match.
func waitFor(t *testing.T, out *lockedBuffer, re *regexp.Regexp) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %s in:\n%s", re, out.String())
	return nil
}

// TestEmulatorCommand runs the emulator as a person would: it serves the API
// under /v1 as the service does, names each doc's domain after it, prints
// where each doc's site is, logs each request on stderr without the token, warns
// when it listens beyond loopback over plain http, and stops when
// interrupted.
func TestEmulatorCommand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		addr string
		warn bool
	}{
		{"loopback", "127.0.0.1:0", false},
		{"every interface", ":0", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := serve(t, nil, "emulator", "--addr", tc.addr, "--token", "secret-token", "--doc", "4711/17", "--doc", "4712/21")
			stdout, stderr := &emu.stdout, &emu.stderr
			m := waitFor(t, stdout, regexp.MustCompile(`api-url: +(\S+)`))
			api := m[1]
			site17 := waitFor(t, stdout, regexp.MustCompile(`doc-id 17 renders openapi.yml on branch main; its live build: (\S+)`))[1]
			waitFor(t, stdout, regexp.MustCompile(`project-id 4712 .*\n  doc-id 21 `))

			req, _ := http.NewRequest("GET", api+"/docs.list?projectId=4712", nil)
			req.Header.Set("Authorization", "Bearer secret-token")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			list, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.HasSuffix(api, "/v1") || !strings.Contains(string(list), `"doc-21.project-4712.docs.example"`) {
				t.Errorf("api-url %s (want the path prefix /v1); docs list %s (want doc 21's own domain)", api, list)
			}
			resp, err = http.Get(site17)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 404 || !strings.Contains(string(page), "no live build yet") {
				t.Errorf("the site of a doc without a build: %d %s", resp.StatusCode, page)
			}
			waitFor(t, stderr, regexp.MustCompile(`emulator: GET /v1/docs.list\?projectId=4712 200 \S+\n`))
			waitFor(t, stderr, regexp.MustCompile(`emulator: GET /sites/17/ 404 \S+\n`))
			if strings.Contains(stderr.String(), "secret-token") {
				t.Errorf("stderr shows the token:\n%s", stderr.String())
			}
			if warned := strings.Contains(stderr.String(), "warning: listening on"); warned != tc.warn {
				t.Errorf("warned %v, want %v:\n%s", warned, tc.warn, stderr.String())
			}
			if err := emu.stop(); err != nil {
				t.Errorf("the emulator ended with %v", err)
			}
		})
	}
}

// TestEmulatorTryLine: the command the emulator suggests publishes a
// description to its first doc, and the build it releases succeeds, also
// when the user gives their own file in place of openapi.yaml.
func TestEmulatorTryLine(t *testing.T) {
	t.Parallel()
	emu := serve(t, nil, "emulator", "--addr", "127.0.0.1:0", "--build-delay", "10ms", "--quiet")
	defer func() {
		if err := emu.stop(); err != nil {
			t.Errorf("the emulator ended with %v", err)
		}
	}()
	banner := waitFor(t, &emu.stdout, regexp.MustCompile(`token: +(\S+)\n(?s:.*)Try: DOCS_PUBLISH_TOKEN=(\S+) (?:go run \.|\S+) (.*)\n`))
	try := strings.Fields(banner[3])
	if tok := banner[1]; tok == "emulator-token" || banner[2] != tok || slices.Contains(try, tok) {
		t.Fatalf("token %q, Try: %s %v: want the start's own random token in the environment, not on the command line", tok, banner[2], try)
	}
	ws := t.TempDir()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "bookstore.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	i := slices.Index(try, "--file")
	if i < 0 || i+1 >= len(try) || try[i+1] != "openapi.yaml" {
		t.Fatalf("%v: want --file openapi.yaml", try)
	}
	try[i+1] = "bookstore.yaml"
	var out, errOut lockedBuffer
	err = Run(context.Background(), Env{
		Args: append(try, "--workspace", ws), Getenv: func(k string) string { return map[string]string{"DOCS_PUBLISH_TOKEN": banner[2]}[k] },
		Stdout: &out, Stderr: &errOut, Action: actionYAML(t), Version: "test",
	})
	if err != nil {
		t.Fatalf("%v: the suggested command failed:\n%s%s", try, out.String(), errOut.String())
	}
	zip := regexp.MustCompile(`zip-path=(\S+)`).FindStringSubmatch(out.String())
	if zip == nil {
		t.Fatalf("no zip-path output:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(ws, zip[1])); err != nil {
		t.Errorf("no zip after the suggested command: %v", err)
	}
}

// TestDemoServe: with --serve the demo keeps the emulator running and
// prints the address of the live site it published.
func TestDemoServe(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.swagger2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	demo := serve(t, spec, "demo", "--dir", filepath.Join(t.TempDir(), "demo"), "--serve")
	site := waitFor(t, &demo.stdout, regexp.MustCompile(`The live site: (\S+)`))[1]
	resp, err := http.Get(site)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `<h1>Bookstore API</h1>`) {
		t.Errorf("the live site: %d %.300s", resp.StatusCode, page)
	}
	if err := demo.stop(); err != nil {
		t.Errorf("the demo ended with %v\n%s", err, demo.stderr.String())
	}
}

// TestSubcommandUsageErrors: a bad flag or seed file of a subcommand is a
// usage error (exit 2), as the main command's are.
func TestSubcommandUsageErrors(t *testing.T) {
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.yaml")
	if err := os.WriteFile(seed, []byte("projects: [{id: '1', dcos: []}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"emulator", "--no-such-flag"},
		{"emulator", "--seed", seed},
		{"emulator", "--variant", "nope"},
		{"demo", "--no-such-flag"},
		{"demo", "extra"},
	} {
		_, _, err := run(t, actionYAML(t), nil, args...)
		var ue *UsageError
		if !errors.As(err, &ue) || ExitCode(context.Background(), err) != ExitUsage {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
}

// TestTryLineCommand: the Try: line runs docs-publish the way the emulator
// was started: go run's build as "go run .", a program found on PATH by
// its name, another by its path.
func TestTryLineCommand(t *testing.T) {
	t.Parallel()
	for arg0, want := range map[string]string{
		"/tmp/go-build2481/b001/exe/docs-publish":                      "go run .",
		"/root/.cache/go-build/61/619e6a6c07cf7c52fc07-d/docs-publish": "go run .",
		"docs-publish":                "docs-publish",
		"./docs-publish":              "./docs-publish",
		"/usr/local/bin/docs-publish": "/usr/local/bin/docs-publish",
		"":                            "docs-publish",
		"/home/a b/it's/docs-publish": `'/home/a b/it'\''s/docs-publish'`,
	} {
		if got := command(arg0); got != want {
			t.Errorf("started as %q: %q, want %q", arg0, got, want)
		}
	}
}

// TestEmulatorOnABusyPort: an address another program listens on is an
// error that says how to pick another.
func TestEmulatorOnABusyPort(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errOut lockedBuffer
	err = Run(context.Background(), Env{
		Args: []string{"emulator", "--addr", ln.Addr().String(), "--quiet"}, Getenv: func(string) string { return "" },
		Stdout: &out, Stderr: &errOut, Action: actionYAML(t), Version: "test",
	})
	if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "--addr 127.0.0.1:0") {
		t.Errorf("error %v, want the address in use and how to pick a free port", err)
	}
}
