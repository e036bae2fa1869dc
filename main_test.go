package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/closedport"
	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// binary is the program, built once, run as the runner runs the container.
var binary string

func TestMain(m *testing.M) {
	testenv.NoRaceExitSleep()
	// Most of these tests wait: on the program they run, on loopback
	// servers, on its polls and retries (the program's own schedule, which
	// they test).
	testenv.WaitingTests()
	if os.Getenv(oneRunChild) != "" { // the program's process: no binary
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "docs-publish-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "docs-publish")
	// Built as the image's binary is (static, -trimpath; the image adds
	// -ldflags), so that CI's builds of the program compile each package
	// once.
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=auto", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const testToken = "tok-3f9a-very-secret"

// runnerEnv is what the runner sets around a container action.
var runnerEnv = map[string]string{
	"GITHUB_ACTIONS":    "true",
	"GITHUB_REF_NAME":   "main",
	"GITHUB_REPOSITORY": "octo/bookstore",
	"GITHUB_SHA":        "abcdef1234567890abcdef1234567890abcdef12",
	"GITHUB_SERVER_URL": "https://github.com",
	"GITHUB_RUN_ID":     "4242",
}

type actionRun struct {
	code           int
	stdout, stderr string
	outputs        map[string]string
	outputOrder    []string
	summary        string
	workspace      string
}

func startEmulator(t *testing.T, mutate func(*emulator.Config)) *emulator.Server {
	t.Helper()
	return emulatortest.Start(t, testToken, 50*time.Millisecond, func(c *emulator.Config) {
		c.FirstBuildID = 1<<53 + 1 // a float64 would round it
		if mutate != nil {
			mutate(c)
		}
	})
}

// runAction runs the binary with every declared input set as the runner
// sets it: INPUT_<NAME> with hyphens kept, to the user's value, else to the
// default of action.yml with its expressions evaluated, else to "".
func runAction(t *testing.T, inputs map[string]string, files map[string]string) actionRun {
	t.Helper()
	return runActionWithEvent(t, "push", inputs, files)
}

// runActionWithEvent is runAction for a workflow started by event.
func runActionWithEvent(t *testing.T, event string, inputs map[string]string, files map[string]string) actionRun {
	t.Helper()
	return runActionWith(t, event, inputs, files, nil)
}

// runActionWith is runActionWithEvent with setup called on the workspace
// once files are written, before the run; it may add to the environment.
func runActionWith(t *testing.T, event string, inputs map[string]string, files map[string]string, setup func(ws string, env map[string]string)) actionRun {
	t.Helper()
	cmd, ws, outFile, stdout := startActionWith(t, event, inputs, files, setup)
	err := cmd.Wait()
	run := actionRun{stdout: stdout.String(), stderr: cmd.Stderr.(*bytes.Buffer).String(), workspace: ws}
	if ee, ok := err.(*exec.ExitError); ok {
		run.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(outFile)
	run.outputs, run.outputOrder = parseOutputFile(t, string(raw))
	sum, _ := os.ReadFile(filepath.Join(filepath.Dir(outFile), "summary"))
	run.summary = string(sum)
	assertNoToken(t, run)
	return run
}

// startAction starts the binary as the runner would and returns it running,
// with its workspace, its GITHUB_OUTPUT file and its stdout.
func startAction(t *testing.T, inputs map[string]string, files map[string]string) (*exec.Cmd, string, string, *bytes.Buffer) {
	t.Helper()
	return startActionWithEvent(t, "push", inputs, files)
}

func startActionWithEvent(t *testing.T, event string, inputs map[string]string, files map[string]string) (*exec.Cmd, string, string, *bytes.Buffer) {
	t.Helper()
	return startActionWith(t, event, inputs, files, nil)
}

func startActionWith(t *testing.T, event string, inputs map[string]string, files map[string]string, setup func(ws string, env map[string]string)) (*exec.Cmd, string, string, *bytes.Buffer) {
	t.Helper()
	meta, err := actionMetadata()
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	for name, content := range files {
		p := filepath.Join(ws, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	extra := map[string]string{}
	if setup != nil {
		setup(ws, extra)
	}
	cmdDir := t.TempDir()
	outFile, sumFile := filepath.Join(cmdDir, "output"), filepath.Join(cmdDir, "summary")
	os.WriteFile(outFile, nil, 0o644)
	os.WriteFile(sumFile, nil, 0o644)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"GITHUB_WORKSPACE=" + ws, "GITHUB_OUTPUT=" + outFile, "GITHUB_STEP_SUMMARY=" + sumFile}
	for k, v := range runnerEnv {
		env = append(env, k+"="+v)
	}
	env = append(env, "GITHUB_EVENT_NAME="+event)
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	// The runner evaluates defaults against the run's context: what setup
	// adds (GITHUB_HEAD_REF on a pull request) counts.
	context := func(k string) string {
		if v, ok := extra[k]; ok {
			return v
		}
		return runnerEnv[k]
	}
	for _, in := range meta.Inputs {
		v, given := inputs[in.Name]
		if !given {
			v = ghaction.EvalDefault(in.Default, context)
		}
		env = append(env, "INPUT_"+strings.ToUpper(in.Name)+"="+v)
	}
	for name := range inputs {
		if _, ok := meta.Input(name); !ok {
			t.Fatalf("test sets input %q, which action.yml does not declare", name)
		}
	}
	cmd := exec.Command(binary)
	cmd.Dir, cmd.Env = ws, env
	stdout := &bytes.Buffer{} // read only after Wait
	cmd.Stdout, cmd.Stderr = stdout, &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, ws, outFile, stdout
}

// actionMetadata is action.yml parsed once for the runs of the program,
// which read its inputs: parsed at each run, it was a tenth of the test
// process's own CPU time. Read only.
var actionMetadata = sync.OnceValues(func() (*ghaction.Metadata, error) { return ghaction.ParseMetadata(actionYAML) })

var heredoc = regexp.MustCompile(`(?s)^([A-Za-z0-9_-]+)<<(\S+)\n(.*?)\n(\S+)\n`)

// parseOutputFile reads GITHUB_OUTPUT as the runner does: name<<DELIM lines.
func parseOutputFile(t *testing.T, s string) (map[string]string, []string) {
	t.Helper()
	out := map[string]string{}
	var order []string
	for s != "" {
		m := heredoc.FindStringSubmatch(s)
		if m == nil || m[2] != m[4] {
			t.Fatalf("GITHUB_OUTPUT is not in the runner's format at %q", s)
		}
		out[m[1]] = m[3]
		order = append(order, m[1])
		s = s[len(m[0]):]
	}
	return out, order
}

// assertNoToken: the token may appear in one place only, the ::add-mask::
// command that tells the runner to hide it.
func assertNoToken(t *testing.T, run actionRun) {
	t.Helper()
	stdout := strings.Replace(run.stdout, "::add-mask::"+testToken+"\n", "", 1)
	for where, text := range map[string]string{"stdout": stdout, "stderr": run.stderr, "summary": run.summary, "outputs": fmt.Sprint(run.outputs)} {
		if strings.Contains(text, testToken) {
			t.Errorf("the token appears in %s", where)
		}
	}
	for p, b := range workspaceFiles(run.workspace) {
		if bytes.Contains(b, []byte(testToken)) {
			t.Errorf("the token appears in %s", p)
		}
	}
}

// workspaceFiles reads the regular files of a workspace (not FIFOs, not
// devices, not what links point at).
func workspaceFiles(ws string) map[string][]byte {
	files := map[string][]byte{}
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files[p], _ = os.ReadFile(p)
		}
		return nil
	})
	return files
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "specs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func baseInputs(emu *emulator.Server) map[string]string {
	return map[string]string{"token": testToken, "api-url": emu.URL(), "project-id": "4711", "file": "api/openapi.yaml"}
}

func TestActionPublishesLikeTheRunnerRunsIt(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	in := baseInputs(emu)
	in["extract-to"] = "site" // implies download
	in["bundle-path"] = "out/bundle.json"
	in["base-file"] = "api/base.yaml" // the same description: no API changes
	sample := readSample(t, "bookstore.swagger2.yaml")
	run := runAction(t, in, map[string]string{"api/openapi.yaml": sample, "api/base.yaml": sample})
	if run.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", run.code, run.stdout, run.stderr)
	}
	if !strings.Contains(run.stdout, "::add-mask::"+testToken) {
		t.Error("the token was not masked")
	}

	// Outputs: exactly those action.yml declares, with the run's values.
	meta, _ := actionMetadata()
	var declared []string
	for _, o := range meta.Outputs {
		declared = append(declared, o.Name)
	}
	got := slices.Clone(run.outputOrder)
	slices.Sort(got)
	slices.Sort(declared)
	if !slices.Equal(got, declared) {
		t.Errorf("outputs written %v, action.yml declares %v", got, declared)
	}
	builds := emu.Builds()
	if len(builds) != 1 {
		t.Fatalf("%d builds, want 1", len(builds))
	}
	b := builds[0]
	want := map[string]string{
		"build-id": "9007199254740993", "doc-id": "17", "file-name": "openapi.yml", "live": "true",
		"zip-path": "docs-build-9007199254740993.zip", "docs-url": "https://doc-17.project-4711.docs.example/",
		"breaking-changes": "0", "api-changes": "0",
	}
	for k, v := range want {
		if run.outputs[k] != v {
			t.Errorf("output %s = %q, want %q", k, run.outputs[k], v)
		}
	}
	if b.ID != run.outputs["build-id"] || !b.Live || !b.SetLive {
		t.Errorf("build in the emulator: %+v", b)
	}

	// The stored file: the description as JSON, keys in the author's order.
	vs := emu.Versions("4711", "main", "openapi.yml")
	if len(vs) != 1 {
		t.Fatalf("%d stored versions of openapi.yml on main, want 1", len(vs))
	}
	golden, err := os.ReadFile("internal/openapi/testdata/golden/bookstore.swagger2.yaml.json")
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	json.Compact(&compact, golden)
	if !bytes.Equal(vs[0].Content, compact.Bytes()) {
		t.Errorf("stored content differs from the golden conversion:\n%s", vs[0].Content)
	}
	if b, _ := os.ReadFile(filepath.Join(run.workspace, "out", "bundle.json")); !bytes.Equal(b, vs[0].Content) || run.outputs["bundle-path"] != "out/bundle.json" {
		t.Errorf("bundle-path %q does not hold the uploaded document", run.outputs["bundle-path"])
	}
	msg := vs[0].CommitMessage
	for _, part := range []string{"octo/bookstore", "abcdef1", "https://github.com/octo/bookstore/actions/runs/4242"} {
		if !strings.Contains(msg, part) {
			t.Errorf("commit message %q does not name %s", msg, part)
		}
	}
	if strings.Contains(msg, "abcdef12") {
		t.Errorf("commit message %q has the long SHA, want the short one", msg)
	}

	// The zip: where zip-path says, relative to the workspace, the site inside.
	zipFile := filepath.Join(run.workspace, run.outputs["zip-path"])
	data, err := os.ReadFile(zipFile)
	if err != nil {
		t.Fatal(err)
	}
	if run.outputs["zip-size"] != fmt.Sprint(len(data)) || !bytes.Equal(data, b.Zip) {
		t.Errorf("zip on disk (%d bytes) is not the build the emulator made (zip-size %s)", len(data), run.outputs["zip-size"])
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var index string
	for _, f := range zr.File {
		if f.Name == "index.html" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			index = string(b)
		}
	}
	if !strings.Contains(index, "Bookstore API") || !strings.Contains(index, `href="#param-limit"`) {
		t.Error("the zip's index.html does not show the sample")
	}
	if run.outputs["site-path"] != "site" {
		t.Errorf("site-path = %q", run.outputs["site-path"])
	}
	page, err := os.ReadFile(filepath.Join(run.workspace, "site", "index.html"))
	if err != nil || string(page) != index {
		t.Errorf("site/index.html is not the zip's index.html (%v)", err)
	}
	entries, _ := os.ReadDir(run.workspace)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("temporary file %s left in the workspace", e.Name())
		}
	}

	// Job summary and log groups.
	for _, want := range []string{"API docs published", "9007199254740993", "octo/bookstore", "**Docs:** <https://doc-17.project-4711.docs.example/>", "| Build outcome | built |"} {
		if !strings.Contains(run.summary, want) {
			t.Errorf("job summary lacks %q:\n%s", want, run.summary)
		}
	}
	for _, g := range []string{"::group::list docs", "::group::update file", "::group::release build", "::group::download build"} {
		if !strings.Contains(run.stdout, g) {
			t.Errorf("log lacks %s", g)
		}
	}
}

func TestActionDefaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		inputs   map[string]string
		file     string
		branch   string
		wantName string
		live     bool
	}{
		{"JSON file gets a .yml name, branch from the ref", map[string]string{"file": "openapi.json"}, "openapi.json", "main", "openapi.yml", true},
		{"set-live false builds without publishing", map[string]string{"set-live": "false"}, "api/openapi.yaml", "main", "openapi.yml", false},
		{"wait-for-build false does not check the build", map[string]string{"wait-for-build": "false"}, "api/openapi.yaml", "main", "openapi.yml", true},
		{"given names and branch", map[string]string{"file-name": "specs/bookstore.yml", "branch": "version/2.0", "commit-message": "Release 2.0"}, "api/openapi.yaml", "version/2.0", "specs/bookstore.yml", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) {
				c.Projects[0].Branches = append(c.Projects[0].Branches, "version/2.0")
				// The doc renders what this run writes, so its build succeeds.
				c.Projects[0].Docs[0].File, c.Projects[0].Docs[0].Branch = tc.wantName, tc.branch
			})
			in := baseInputs(emu)
			in["file"] = tc.file
			for k, v := range tc.inputs {
				in[k] = v
			}
			src := readSample(t, "bookstore.openapi3.yaml")
			if strings.HasSuffix(tc.file, ".json") {
				src = readSample(t, "bookstore.openapi3.json")
			}
			run := runAction(t, in, map[string]string{tc.file: src})
			if run.code != 0 {
				t.Fatalf("exit %d\n%s%s", run.code, run.stdout, run.stderr)
			}
			if vs := emu.Versions("4711", tc.branch, tc.wantName); len(vs) != 1 {
				t.Errorf("no file %s on branch %s", tc.wantName, tc.branch)
			} else if cm := tc.inputs["commit-message"]; cm != "" && vs[0].CommitMessage != cm {
				t.Errorf("commit message %q, want %q", vs[0].CommitMessage, cm)
			}
			if run.outputs["file-name"] != tc.wantName || run.outputs["live"] != fmt.Sprint(tc.live) {
				t.Errorf("outputs %v", run.outputs)
			}
			if _, ok := run.outputs["zip-path"]; ok {
				t.Error("zip-path set without download")
			}
			wantOutcome := "| Build outcome | built |"
			if tc.inputs["wait-for-build"] == "false" {
				wantOutcome = `| Build outcome | unknown: not checked \(wait-for-build: false\) |` // Markdown-escaped
			}
			if !strings.Contains(run.summary, wantOutcome) {
				t.Errorf("summary lacks %q:\n%s", wantOutcome, run.summary)
			}
			var body struct{ SetLive *bool }
			for _, r := range emu.Requests() {
				if r.Method == "POST" {
					json.Unmarshal(r.Body, &body)
				}
			}
			if body.SetLive == nil || *body.SetLive != tc.live {
				t.Errorf("release body did not send setLive %v explicitly", tc.live)
			}
		})
	}
}

// TestPullRequestWritesToItsBranch: on a pull_request run without a
// branch input, the runner sets GITHUB_HEAD_REF to the pull request's
// branch and GITHUB_REF_NAME to <number>/merge: the file goes to the pull
// request's branch, never to a branch called 42/merge. On
// pull_request_target, which has the repository's secrets, the pull
// request's branch is a name its author chose (main included): the file
// goes to pr-42, unless the workflow names a branch.
func TestPullRequestWritesToItsBranch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, event, head, fork, branch, want string
	}{
		{name: "pull_request", event: "pull_request", head: "feature/new-books", fork: "octo/bookstore", want: "feature/new-books"},
		{name: "pull_request_target", event: "pull_request_target", head: "feature/new-books", fork: "octo/bookstore", want: "pr-42"},
		{name: "pull_request_target from a fork whose branch is main", event: "pull_request_target", head: "main", fork: "mallory/bookstore", want: "pr-42"},
		{name: "pull_request_target with a branch named", event: "pull_request_target", head: "main", fork: "mallory/bookstore", branch: "preview", want: "preview"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) {
				c.Projects[0].Branches = append(c.Projects[0].Branches, "feature/new-books", "42/merge", "pr-42", "preview")
				c.Projects[0].Docs[0].Branch = tc.want
			})
			in := baseInputs(emu)
			in["compare"] = "false"
			if tc.branch != "" {
				in["branch"] = tc.branch
			}
			setup := func(ws string, env map[string]string) {
				p := filepath.Join(t.TempDir(), "event.json")
				event := `{"number":42,"pull_request":{"number":42,"head":{"ref":"` + tc.head + `","repo":{"full_name":"` + tc.fork + `"}},"base":{"ref":"main","repo":{"full_name":"octo/bookstore"}}}}`
				if err := os.WriteFile(p, []byte(event), 0o644); err != nil {
					t.Fatal(err)
				}
				env["GITHUB_EVENT_PATH"], env["GITHUB_HEAD_REF"], env["GITHUB_BASE_REF"], env["GITHUB_REF_NAME"] = p, tc.head, "main", "42/merge"
				env["GITHUB_REF"] = "refs/pull/42/merge"
			}
			run := runActionWith(t, tc.event, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")}, setup)
			if run.code != 0 {
				t.Fatalf("exit %d\n%s%s", run.code, run.stdout, run.stderr)
			}
			if vs := emu.Versions("4711", tc.want, "openapi.yml"); len(vs) != 1 {
				t.Errorf("no file openapi.yml on the branch %s", tc.want)
			}
			for _, other := range []string{"42/merge", "main", "feature/new-books", "pr-42", "preview"} {
				if vs := emu.Versions("4711", other, "openapi.yml"); other != tc.want && len(vs) != 0 {
					t.Errorf("the file was written to the branch %s", other)
				}
			}
		})
	}
}

// TestOutputPathsCheckedBeforeSending: an output input that points at an
// existing folder, where the run would write a file (or, for extract-to, a
// folder that is not empty), is an input error found with the inputs:
// exit 2, the input named in words, and not one request sent.
func TestOutputPathsCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	cases := []struct{ input, value, want string }{
		{"download-path", "out", `input download-path: "out" is an existing folder`},
		{"download-path", "out/", `input download-path: "out/" is an existing folder`},
		{"bundle-path", "out", `input bundle-path: "out" is an existing folder`},
		{"extract-to", "out", "input extract-to: out exists and is not an empty directory"},
		{"download-path", "api/openapi.yaml/docs.zip", "input download-path: \"api/openapi.yaml/docs.zip\" cannot be made, because api/openapi.yaml is a file"},
	}
	for _, tc := range cases {
		t.Run(tc.input+"="+tc.value, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			in := baseInputs(emu)
			in[tc.input] = tc.value
			run := runAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml"), "out/keep.txt": "kept"})
			if run.code != 2 {
				t.Errorf("exit %d, want 2 (a bad input)\n%s", run.code, run.stdout)
			}
			errs := annotations(run.stdout, "error")
			if len(errs) != 1 || !strings.Contains(errs[0], tc.want) {
				t.Errorf("errors %q, want one saying %q", errs, tc.want)
			}
			for _, call := range []string{"renameat", "openat", "mkdirat"} {
				if strings.Contains(run.stdout+run.stderr, call) {
					t.Errorf("the log names the system call %s", call)
				}
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests reached the service, want none", n)
			}
		})
	}
}

// TestUnreachableAPIURLFailsFast: with default inputs (a 10-minute
// timeout), a run against an address where nothing listens gives up after
// the unreachable schedule's four attempts and names api-url, instead of
// retrying for the whole timeout. How long those attempts take at the most
// is worked out, without a clock, by docsapi's
// TestUnreachableScheduleIsBounded; here the count shows that schedule was
// the one that ended the run.
func TestUnreachableAPIURLFailsFast(t *testing.T) {
	t.Parallel()
	closedURL := closedport.URL(t)
	in := map[string]string{"token": testToken, "api-url": closedURL, "project-id": "4711", "file": "api/openapi.yaml"}
	run := runAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
	errs := annotations(run.stdout, "error")
	if run.code == 0 || len(errs) == 0 {
		t.Fatalf("exit %d, errors %q: want a failure", run.code, errs)
	}
	last := errs[len(errs)-1]
	for _, want := range []string{"cannot reach " + closedURL, "connection refused", "(4 attempts)", "check api-url"} {
		if !strings.Contains(last, want) {
			t.Errorf("error %q does not say %q", last, want)
		}
	}
	if n := strings.Count(run.stdout, "retrying in"); n != 3 {
		t.Errorf("%d retries logged, want 3 (four attempts):\n%s", n, run.stdout)
	}
}

// TestProxyFailuresNameTheProxy: behind a proxy that asks for credentials,
// or one that is down, the run fails after one CONNECT (or the few attempts
// of an unreachable host), naming the proxy without its credentials and
// the variable it came from, instead of retrying for the whole timeout.
func TestProxyFailuresNameTheProxy(t *testing.T) {
	t.Parallel()
	var connects atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		connects.Add(1)
		w.WriteHeader(http.StatusProxyAuthRequired)
	}))
	t.Cleanup(proxy.Close)
	cases := []struct{ name, variable, addr, want string }{
		{"407", "HTTPS_PROXY", strings.TrimPrefix(proxy.URL, "http://"), "asks for credentials (407 Proxy Authentication Required)"},
		{"down", "https_proxy", closedport.Addr(t), "cannot reach the proxy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := map[string]string{"token": testToken, "api-url": "https://docs.example.test/v1", "project-id": "4711", "file": "api/openapi.yaml", "compare": "false"}
			run := runActionWith(t, "push", in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")}, func(ws string, env map[string]string) {
				env[tc.variable] = "http://ci-bot:pr0xy-secret@" + tc.addr
			})
			errs := annotations(run.stdout, "error")
			if run.code != 1 || len(errs) == 0 {
				t.Fatalf("exit %d, errors %q: want a failure of the network (exit 1)", run.code, errs)
			}
			last := errs[len(errs)-1]
			for _, want := range []string{tc.want, "the proxy http://" + tc.addr + " (from " + tc.variable + ")", "NO_PROXY"} {
				if !strings.Contains(last, want) {
					t.Errorf("error %q does not say %q", last, want)
				}
			}
			if strings.Contains(run.stdout+run.stderr, "pr0xy-secret") {
				t.Error("the proxy's password is in the log")
			}
			if strings.Contains(last, "check api-url") {
				t.Errorf("error %q blames api-url", last)
			}
			if n := connects.Load(); tc.name == "407" && n != 1 {
				t.Errorf("the proxy that asks for credentials was asked %d times, want once", n)
			}
		})
	}
}

// TestBadInputs: each bad input fails with a message that names it and says
// what to do, exits non-zero with an ::error:: annotation, and, when it can
// be found before the first request, leaves the service untouched.
func TestBadInputs(t *testing.T) {
	t.Parallel()
	spec := readSample(t, "bookstore.swagger2.yaml")
	cases := []struct {
		name     string
		inputs   map[string]string
		files    map[string]string
		docs     []emulator.Doc // nil: the default single doc
		want     []string
		requests int // -1: any
		noWrites bool
		builds   int
		summary  string // in the job summary
	}{
		{name: "missing token", inputs: map[string]string{"token": ""}, want: []string{"input token", "secrets."}, requests: 0},
		{name: "missing project-id", inputs: map[string]string{"project-id": ""}, want: []string{"input project-id: is required", "with:"}, requests: 0},
		{name: "unknown project", inputs: map[string]string{"project-id": "999"}, want: []string{"list docs of project 999", "404", "error_code 1404", "tracking_id emu-", `project "999" may not exist`, "check project-id"}, requests: 1, noWrites: true},
		{name: "doc-id not in the list", inputs: map[string]string{"doc-id": "99"}, want: []string{"doc-id 99 is not a doc of this project", "set doc-id to one of: 17 (doc-17.project-4711.docs.example)"}, requests: 1, noWrites: true},
		{name: "zero docs", docs: []emulator.Doc{}, want: []string{"project 4711 has no docs", "web application"}, requests: 1, noWrites: true},
		{name: "several docs without doc-id", docs: []emulator.Doc{{ID: "17", Domain: "a.example", File: "openapi.yml", Branch: "main"}, {ID: "18", File: "openapi.yml", Branch: "main"}},
			want: []string{"has 2 docs and doc-id is empty", "set doc-id to one of: 17 (a.example), 18"}, requests: 1, noWrites: true},
		{name: "spec file missing", inputs: map[string]string{"file": "nope/openapi.yaml"}, files: map[string]string{}, want: []string{"input file", "nope/openapi.yaml does not exist"}, requests: 0},
		{name: "spec neither YAML nor JSON", files: map[string]string{"api/openapi.yaml": "\x00\x01 not a description"}, want: []string{"::error col=1,file=api/openapi.yaml,line=1::", "remove the character U+0000"}, requests: 0},
		{name: "spec a plain text", files: map[string]string{"api/openapi.yaml": "hello world\n"}, want: []string{"::error col=1,file=api/openapi.yaml,line=1::", "neither a YAML nor a JSON", "point the file input"}, requests: 0},
		{name: "file-name with ..", inputs: map[string]string{"file-name": "../other/openapi.yml"}, want: []string{"input file-name", `".." segment`}, requests: 0},
		{name: "bad token", inputs: map[string]string{"token": "wrong-token-value"}, want: []string{"401", "check the token secret"}, requests: 1, noWrites: true},
		{name: "unknown branch", inputs: map[string]string{"branch": "nope"}, want: []string{"update file openapi.yml on branch nope", "404", `branch "nope" may not exist`}, requests: 2},
		{name: "http to a remote host", inputs: map[string]string{"api-url": "http://docs.example.com/v1"}, want: []string{"input api-url", "use https"}, requests: 0},
		{name: "set-live not a boolean", inputs: map[string]string{"set-live": "yes please"}, want: []string{"input set-live", "true or false"}, requests: 0},
		{name: "build fails", inputs: map[string]string{"file-name": "other.yml", "download": "true"}, want: []string{"download build 9007199254740993", "422", "build failed", "openapi.yml on branch main", "for the reason it gives"}, requests: -1, builds: 1, summary: "| Build outcome | failed |"},
		{name: "build fails, waited for", inputs: map[string]string{"file-name": "other.yml"}, want: []string{"wait for build 9007199254740993", "build 9007199254740993 failed", "for the reason it gives", "this run wrote other.yml on branch main"}, requests: -1, builds: 1, summary: "| Build outcome | failed |"},
		{name: "timeout 0", inputs: map[string]string{"timeout": "0"}, want: []string{"input timeout", `"0" is not valid`, "more than 0, such as 90s, 10m"}, requests: 0},
		{name: "request-timeout 0", inputs: map[string]string{"request-timeout": "0s"}, want: []string{"input request-timeout", `"0s" is not valid`, "more than 0"}, requests: 0},
		{name: "build-timeout 0", inputs: map[string]string{"build-timeout": "0"}, want: []string{"input build-timeout", `"0" is not valid`, "more than 0"}, requests: 0},
		{name: "build-timeout negative", inputs: map[string]string{"build-timeout": "-5m"}, want: []string{"input build-timeout", `"-5m" is not valid`, "more than 0"}, requests: 0},
		{name: "wait-for-build not a boolean", inputs: map[string]string{"wait-for-build": "maybe"}, want: []string{"input wait-for-build", "true or false"}, requests: 0},
		{name: "nothing listens at api-url", inputs: map[string]string{"api-url": "{closed}"}, want: []string{"list docs of project 4711", "cannot reach {closed}", "connection refused", "4 attempts", "check api-url"}, requests: 0},
		{name: "wrong path prefix in api-url", inputs: map[string]string{"api-url": "{emulator}/v2"}, want: []string{"404", "api-url may be wrong", "path prefix"}, requests: 1, noWrites: true},
		{name: "download-path outside the workspace", inputs: map[string]string{"download": "true", "download-path": "../site.zip"}, want: []string{"input download-path", "inside"}, requests: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) {
				if tc.docs != nil {
					c.Projects[0].Docs = tc.docs
				}
			})
			in := baseInputs(emu)
			places := strings.NewReplacer("{emulator}", emu.URL(), "{closed}", closedport.URL(t))
			for k, v := range tc.inputs {
				in[k] = places.Replace(v)
			}
			files := tc.files
			if files == nil {
				files = map[string]string{"api/openapi.yaml": spec}
			}
			run := runAction(t, in, files)
			if run.code == 0 {
				t.Fatalf("exit 0 for a bad input\n%s", run.stdout)
			}
			errLine := ""
			for _, l := range strings.Split(run.stdout, "\n") {
				if strings.HasPrefix(l, "::error") {
					errLine = l
				}
			}
			if errLine == "" {
				t.Fatalf("no ::error:: annotation\n%s", run.stdout)
			}
			for _, w := range tc.want {
				if w = places.Replace(w); !strings.Contains(errLine, w) {
					t.Errorf("error %q does not say %q", errLine, w)
				}
			}
			if n := len(emu.Requests()); tc.requests >= 0 && n != tc.requests {
				t.Errorf("%d requests reached the service, want %d", n, tc.requests)
			}
			if tc.noWrites {
				for _, r := range emu.Requests() {
					if r.Method != "GET" {
						t.Errorf("%s %s was sent before the run failed", r.Method, r.Path)
					}
				}
			}
			if n := len(emu.Builds()); n != tc.builds {
				t.Errorf("%d builds started, want %d", n, tc.builds)
			}
			if !strings.Contains(run.summary, "### ❌ ") || !strings.Contains(run.summary, tc.summary) {
				t.Errorf("summary does not say the run failed, or lacks %q:\n%s", tc.summary, run.summary)
			}
		})
	}
}

// fixture reads a directory of testdata into a files map under prefix.
func fixture(t *testing.T, dir, prefix string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".golden.json") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, _ := os.ReadFile(p)
		files[filepath.Join(prefix, rel)] = string(b)
		return nil
	})
	return files
}

// annotations returns the workflow commands of a level; go-githubactions
// writes their properties sorted by name.
func annotations(stdout, level string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "::"+level+" ") || strings.HasPrefix(l, "::"+level+"::") {
			out = append(out, l)
		}
	}
	return out
}

// TestSpecPipeline runs the description pipeline through the binary:
// bundling, validation findings as annotations, dry run.
func TestSpecPipeline(t *testing.T) {
	t.Parallel()
	brokenParams := "limit:\n  name: limit\n  in: query\n  type: int\n  default: many\noffset:\n  name: offset\n  in: query\n  type: integer\nx/trace~id:\n  name: X-Trace-Id\n  in: header\n  type: string\n"
	unusedParam := "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\nparameters:\n  spare: {name: spare, in: query, type: string}\n"
	cases := []struct {
		name      string
		inputs    map[string]string
		files     map[string]string
		code      int
		requests  bool
		errorAt   string // an ::error annotation's properties
		warningAt string
		check     func(t *testing.T, emu *emulator.Server, run actionRun)
	}{
		{name: "multi-file description is bundled", inputs: map[string]string{"file": "api/swagger.yaml"}, files: fixture(t, "testdata/bundle/swagger2", "api"), requests: true,
			check: func(t *testing.T, emu *emulator.Server, run actionRun) {
				golden, _ := os.ReadFile("testdata/bundle/swagger2/bundle.golden.json")
				var want bytes.Buffer
				json.Compact(&want, golden)
				if vs := emu.Versions("4711", "main", "swagger.yml"); len(vs) != 1 || !bytes.Equal(vs[0].Content, want.Bytes()) {
					t.Errorf("stored document is not the golden bundle")
				}
				if strings.Contains(run.stdout, "bundle is false") {
					t.Errorf("a bundled upload is said to refer to files it does not hold:\n%s", run.stdout)
				}
			}},
		{name: "bundle false uploads the file as it is", inputs: map[string]string{"file": "api/swagger.yaml", "bundle": "false"}, files: fixture(t, "testdata/bundle/swagger2", "api"), requests: true,
			check: func(t *testing.T, emu *emulator.Server, run actionRun) {
				if vs := emu.Versions("4711", "main", "swagger.yml"); len(vs) != 1 || !bytes.Contains(vs[0].Content, []byte(`"common/parameters.yml#/offset"`)) {
					t.Errorf("references to other files were not kept")
				}
				// The files the upload refers to and does not hold are named.
				if want := "::notice title=docs-publish::bundle is false, so the upload refers to 4 files it does not hold (common/definitions.yml, common/parameters.yml, common/responses.yml, paths/book.yml): the service looks for them from swagger.yml among the project's files on branch main"; !strings.Contains(run.stdout, want) {
					t.Errorf("no notice %q in\n%s", want, run.stdout)
				}
			}},
		{name: "error in a referenced file stops the run", inputs: map[string]string{"file": "api/swagger.yaml"},
			files: func() map[string]string {
				f := fixture(t, "testdata/bundle/swagger2", "api")
				f["api/common/parameters.yml"] = brokenParams
				return f
			}(),
			code: 3, errorAt: "col=9,file=api/common/parameters.yml,line=4"},
		{name: "warnings do not stop the run", inputs: map[string]string{"file": "api/a.yaml"}, files: map[string]string{"api/a.yaml": unusedParam}, requests: true, warningAt: "col=3,file=api/a.yaml,line=9"},
		{name: "fail-on-warnings stops it", inputs: map[string]string{"file": "api/a.yaml", "fail-on-warnings": "true"}, files: map[string]string{"api/a.yaml": unusedParam}, code: 3, warningAt: "col=3,file=api/a.yaml,line=9"},
		{name: "dry run sends nothing and writes the bundle", inputs: map[string]string{"file": "api/swagger.yaml", "dry-run": "true", "bundle-path": "build/bundle.json", "token": "", "api-url": "", "project-id": ""},
			files: fixture(t, "testdata/bundle/swagger2", "api"),
			check: func(t *testing.T, emu *emulator.Server, run actionRun) {
				got, _ := os.ReadFile(filepath.Join(run.workspace, "build", "bundle.json"))
				golden, _ := os.ReadFile("testdata/bundle/swagger2/bundle.golden.json")
				var want bytes.Buffer
				json.Compact(&want, golden)
				if !bytes.Equal(got, want.Bytes()) || run.outputs["bundle-path"] != "build/bundle.json" {
					t.Errorf("bundle-path output %q, file matches golden: %v", run.outputs["bundle-path"], bytes.Equal(got, want.Bytes()))
				}
				if !strings.Contains(run.stdout, "dry run: nothing was sent") || !strings.Contains(run.summary, "Dry run") {
					t.Errorf("dry run not reported:\n%s", run.stdout)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) {
				// The doc renders the file this run writes.
				name := filepath.Base(tc.inputs["file"])
				c.Projects[0].Docs[0].File = strings.TrimSuffix(name, filepath.Ext(name)) + ".yml"
			})
			in := baseInputs(emu)
			for k, v := range tc.inputs {
				in[k] = v
			}
			run := runAction(t, in, tc.files)
			if run.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", run.code, tc.code, run.stdout)
			}
			if n := len(emu.Requests()); (n > 0) != tc.requests {
				t.Errorf("%d requests reached the service", n)
			}
			if tc.errorAt != "" && !slices.ContainsFunc(annotations(run.stdout, "error"), func(l string) bool { return strings.Contains(l, tc.errorAt) }) {
				t.Errorf("no ::error %s in\n%s", tc.errorAt, run.stdout)
			}
			if tc.warningAt != "" && !slices.ContainsFunc(annotations(run.stdout, "warning"), func(l string) bool { return strings.Contains(l, tc.warningAt) }) {
				t.Errorf("no ::warning %s in\n%s", tc.warningAt, run.stdout)
			}
			if (tc.errorAt != "" || tc.warningAt != "") && !strings.Contains(run.summary, "Findings in the description") {
				t.Errorf("findings missing from the job summary:\n%s", run.summary)
			}
			if tc.check != nil {
				tc.check(t, emu, run)
			}
		})
	}
}

// TestMatrixOfConcurrentRuns: eight runs at once against one service, as a
// matrix or a burst of tags would, each ending with its own build.
func TestMatrixOfConcurrentRuns(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	const n = 8
	var mu sync.Mutex
	ids := map[string]bool{}
	// The group returns when its parallel runs have all ended; each run
	// fails its own subtest (t.Fatal only in the goroutine of its test).
	t.Run("runs", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				in := baseInputs(emu)
				in["download"] = "true"
				run := runAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.openapi3.yaml")})
				if run.code != 0 {
					t.Fatalf("a run failed:\n%s", run.stdout)
				}
				if _, err := os.Stat(filepath.Join(run.workspace, run.outputs["zip-path"])); err != nil {
					t.Errorf("run without its zip: %v", err)
				}
				mu.Lock()
				ids[run.outputs["build-id"]] = true
				mu.Unlock()
			})
		}
	})
	if len(ids) != n || len(emu.Builds()) != n {
		t.Errorf("%d distinct build ids and %d builds for %d runs", len(ids), len(emu.Builds()), n)
	}
}

// TestForkPullRequestWithoutToken: a pull request from a fork gets no
// secrets. The run checks the description, publishes nothing, says why, and
// succeeds, unless fail-on-missing-token asks for a failure.
func TestForkPullRequestWithoutToken(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, event, failOnMissing, compare string
		code                                int
		want                                string
		summary                             string // in the job summary
	}{
		{"pull request", "pull_request", "", "", 0, "::notice title=docs-publish::token is empty on a pull_request event", "### 🔍 Checked only"},
		{"pull request, compare off", "pull_request", "", "false", 0, "::notice title=docs-publish::token is empty on a pull_request event", "the description was checked, but nothing was published. Set fail-on-missing-token"},
		{"pull request, strict", "pull_request", "true", "", 2, "input token: is empty", ""},
		{"push", "push", "", "", 2, "input token: is empty", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			in := baseInputs(emu)
			in["token"] = ""
			if tc.failOnMissing != "" {
				in["fail-on-missing-token"] = tc.failOnMissing
			}
			if tc.compare != "" {
				in["compare"] = tc.compare
			}
			run := runActionWithEvent(t, tc.event, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
			if run.code != tc.code || !strings.Contains(run.stdout, tc.want) {
				t.Errorf("exit %d, want %d, and %q in\n%s", run.code, tc.code, tc.want, run.stdout)
			}
			if !strings.Contains(run.summary, tc.summary) || (tc.compare == "false" && strings.Contains(run.summary, "compared with its base")) {
				t.Errorf("summary lacks %q, or says a comparison ran with compare: %q:\n%s", tc.summary, tc.compare, run.summary)
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests sent without a token", n)
			}
		})
	}
}
