//go:build unix

package main

import (
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// The image, run by nektos/act: an implementation of the Actions runner
// this project did not write. act reads action.yml, evaluates the inputs
// and their defaults, starts the image with docker, and hands the outputs
// to later steps, where the container test starts the image the way we
// read the runner's source. The workflows are under testdata/act; a job
// runs in a local image (busybox on scratch), and the action runs the
// image the container test builds, from a copy of the repository whose
// action.yml names it. No registry is reached (--pull=false) and the
// emulator listens on the host's loopback (--network host).
//
// It needs a Docker engine and act (ACT, or act on the PATH); without them
// the tests are skipped and say so, unless DOCS_PUBLISH_REQUIRE_ACT=1
// (.ci/run) makes that a failure.

// actVersion is the act the tests are written against, as .ci/run installs
// it.
const actVersion = "0.2.89"

// actJobImage is the job's container: act runs run: steps in it with sh.
const actJobImage = "docs-publish:act-job"

func actCLI(t *testing.T) string {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("DOCS_PUBLISH_REQUIRE_ACT") == "1" {
		skip = t.Fatalf
	}
	act := os.Getenv("ACT")
	if act == "" {
		act = "act"
	}
	path, err := exec.LookPath(act)
	if err != nil {
		skip("act is not installed (go install github.com/nektos/act@v%s, then set ACT or put it on the PATH): %v", actVersion, err)
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), actVersion) {
		skip("%s --version: %s %v: the tests are written against act %s", path, strings.TrimSpace(string(out)), err, actVersion)
	}
	return path
}

var (
	jobImageOnce sync.Once
	jobImageErr  error
)

// buildJobImage builds the job's image once per test run: Debian's static
// busybox (package busybox-static) on scratch, its applets linked into /bin.
func buildJobImage(t *testing.T, docker string) {
	t.Helper()
	jobImageOnce.Do(func() { jobImageErr = buildJob(docker) })
	if jobImageErr != nil {
		t.Fatal(jobImageErr)
	}
}

func buildJob(docker string) error {
	const busybox = "/bin/busybox"
	f, err := elf.Open(busybox)
	if err != nil {
		return fmt.Errorf("a static busybox (Debian's busybox-static): %w", err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			f.Close()
			return fmt.Errorf("%s is linked dynamically: install Debian's busybox-static, whose busybox runs on scratch", busybox)
		}
	}
	f.Close()
	ctx, err := os.MkdirTemp("", "docs-publish-act-job")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ctx)
	data, err := os.ReadFile(busybox)
	if err != nil {
		return err
	}
	dockerfile := "FROM scratch\nCOPY busybox /bin/busybox\nRUN [\"/bin/busybox\", \"--install\", \"-s\", \"/bin\"]\n"
	for name, content := range map[string][]byte{"busybox": data, "Dockerfile": []byte(dockerfile)} {
		if err := os.WriteFile(filepath.Join(ctx, name), content, 0o755); err != nil {
			return err
		}
	}
	cmd := exec.Command(docker, "build", "-t", actJobImage, ctx)
	cmd.Env = append(os.Environ(), "DOCKER_BUILDKIT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("docker build of the job image: %v\n%s", err, out)
	}
	return nil
}

// actRepo is a repository for act to check out: action.yml naming the
// image the container test built, one workflow from testdata/act, and a
// commit for each of commits (path to content), in order.
type actRepo struct {
	dir  string
	shas []string
}

func newActRepo(t *testing.T, workflow string, commits ...map[string]string) *actRepo {
	t.Helper()
	r := &actRepo{dir: t.TempDir()}
	image := regexp.MustCompile(`(?m)^  image: .*$`)
	if n := len(image.FindAll(actionYAML, -1)); n != 1 {
		t.Fatalf("action.yml has %d runs.image lines, want 1", n)
	}
	flow, err := os.ReadFile(filepath.Join("testdata", "act", workflow))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"action.yml":                    string(image.ReplaceAll(actionYAML, []byte("  image: docker://"+imageTag))),
		".github/workflows/" + workflow: string(flow),
	}
	r.git(t, "init", "-q", "-b", "main")
	for i, c := range commits {
		for p, content := range c {
			files[p] = content
		}
		for p, content := range files {
			full := filepath.Join(r.dir, p)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		files = map[string]string{}
		r.git(t, "add", "-A")
		r.git(t, "commit", "-q", "-m", fmt.Sprintf("commit %d", i+1))
		r.shas = append(r.shas, r.git(t, "rev-parse", "HEAD"))
	}
	return r
}

func (r *actRepo) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Octo", "-c", "user.email=octo@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// actRun is how a workflow run by act ended.
type actRun struct {
	code int
	out  string // act's log: every step's output, the action's outputs and its job summary
}

// run runs the repository's workflow for event with act, the emulator at
// apiURL (the workflow reads it as vars.API_URL), the event's payload, and
// secrets (name to value, passed through the environment).
func (r *actRepo) run(t *testing.T, act, event, apiURL string, payload any, secrets map[string]string) actRun {
	t.Helper()
	home := t.TempDir()
	// An .actrc, even empty, keeps act from asking which image to use.
	if err := os.WriteFile(filepath.Join(home, ".actrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{event, "-W", ".github/workflows/",
		"-P", "ubuntu-latest=" + actJobImage, "--pull=false", "--network", "host",
		"--var", "API_URL=" + apiURL, "--action-cache-path", filepath.Join(home, "actions"), "--no-cache-server",
		"--rm"} // remove the job's containers when it fails too
	if payload != nil {
		data, err := json.Marshal(payload)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(home, "event.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-e", p)
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
	for name, value := range secrets {
		args = append(args, "-s", name) // the value from the environment, not the command line
		env = append(env, name+"="+value)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, act, args...)
	cmd.Dir, cmd.Env = r.dir, env
	out, err := cmd.CombinedOutput()
	run := actRun{out: string(out)}
	if ee, ok := err.(*exec.ExitError); ok {
		run.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("act: %v\n%s", err, out)
	}
	if ctx.Err() != nil {
		t.Fatalf("act did not finish within 3 minutes:\n%s", out)
	}
	if strings.Contains(run.out, testToken) {
		t.Error("the token is in act's log")
	}
	return run
}

// stepLine is the line a run: step printed that starts with prefix, as
// act logs it ("[workflow/job]   | prefix...").
func (r actRun) stepLine(prefix string) (string, bool) {
	for _, l := range strings.Split(r.out, "\n") {
		if _, after, ok := strings.Cut(l, "   | "+prefix); ok {
			return after, true
		}
	}
	return "", false
}

// fields reads name=value pairs separated by spaces.
func fields(line string) map[string]string {
	m := map[string]string{}
	for _, f := range strings.Fields(line) {
		if k, v, ok := strings.Cut(f, "="); ok {
			m[k] = v
		}
	}
	return m
}

// pullRequestEvent is a pull_request event's payload, from head to base.
func pullRequestEvent(head, base string, fork bool) map[string]any {
	repo := map[string]any{"full_name": "octo/bookstore", "fork": false}
	headRepo := map[string]any{"full_name": "octo/bookstore", "fork": fork}
	if fork {
		headRepo["full_name"] = "someone/bookstore"
	}
	return map[string]any{
		"action": "synchronize", "number": 7, "repository": repo,
		"pull_request": map[string]any{
			"number": 7,
			"head":   map[string]any{"ref": "feature", "sha": head, "repo": headRepo},
			"base":   map[string]any{"ref": "main", "sha": base, "repo": repo},
		},
	}
}

// TestActRunsTheAction: the four ways a workflow meets the action, each run
// by act from a workflow a user could have written.
func TestActRunsTheAction(t *testing.T) {
	docker := dockerCLI(t)
	act := actCLI(t)
	buildImage(t, docker)
	buildJobImage(t, docker)
	sample := readSample(t, "bookstore.swagger2.yaml")
	// The head of the pull request removes an operation: a breaking change.
	i, j := strings.Index(sample, "    delete:\n"), strings.Index(sample, "  /authors:")
	if i < 0 || j < i {
		t.Fatal("the sample has no delete operation before /authors")
	}
	head := sample[:i] + sample[j:]

	// Not parallel: each run starts containers, and the machine is small.
	t.Run("push with download: the next step reads and checks the outputs", func(t *testing.T) {
		emu := startEmulator(t, nil)
		repo := newActRepo(t, "publish.yml", map[string]string{"api/openapi.yaml": sample})
		run := repo.run(t, act, "push", emu.URL(), nil, map[string]string{"DOCS_TOKEN": testToken})
		if run.code != 0 {
			t.Fatalf("act exited %d:\n%s", run.code, run.out)
		}
		if _, ok := run.stepLine("outputs checked"); !ok {
			t.Fatalf("the step that checks the outputs did not pass:\n%s", run.out)
		}
		line, _ := run.stepLine("outputs: ")
		got := fields(line)
		builds := emu.Builds()
		if len(builds) != 1 || !builds[0].Live {
			t.Fatalf("builds %+v, want one, live", builds)
		}
		sum := sha256.Sum256(builds[0].Zip)
		want := map[string]string{
			"build-id": builds[0].ID, "zip-path": "docs-build-" + builds[0].ID + ".zip",
			"zip-sha256": hex.EncodeToString(sum[:]), "docs-url": "https://doc-17.project-4711.docs.example/",
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("the next step read %s=%q, want %q", k, got[k], v)
			}
		}
		if !strings.Contains(run.out, "API docs published") {
			t.Errorf("no job summary in act's log:\n%s", run.out)
		}
	})

	t.Run("a build the service fails fails the job", func(t *testing.T) {
		emu := startEmulator(t, func(c *emulator.Config) {
			c.Projects[0].Docs[0].Fail = "the renderer gave up"
		})
		repo := newActRepo(t, "publish.yml", map[string]string{"api/openapi.yaml": sample})
		run := repo.run(t, act, "push", emu.URL(), nil, map[string]string{"DOCS_TOKEN": testToken})
		if run.code == 0 {
			t.Fatalf("act exited 0 for a failed build:\n%s", run.out)
		}
		if !regexp.MustCompile(`::error[^\n]*build \d+ failed[^\n]*the renderer gave up`).MatchString(run.out) {
			t.Errorf("no error annotation saying the build failed, with the service's message:\n%s", run.out)
		}
		if _, ok := run.stepLine("outputs: "); ok {
			t.Error("the step after the failed one ran")
		}
		if !strings.Contains(run.out, "Job failed") {
			t.Errorf("act does not report the job failed:\n%s", run.out)
		}
	})

	t.Run("pull_request with a base commit: the report", func(t *testing.T) {
		emu := startEmulator(t, nil)
		repo := newActRepo(t, "pull-request.yml", map[string]string{"api/openapi.yaml": sample}, map[string]string{"api/openapi.yaml": head})
		event := pullRequestEvent(repo.shas[1], repo.shas[0], false)
		run := repo.run(t, act, "pull_request", emu.URL(), event, map[string]string{"DOCS_TOKEN": testToken})
		if run.code != 0 {
			t.Fatalf("act exited %d:\n%s", run.code, run.out)
		}
		line, ok := run.stepLine("outputs: ")
		if got := fields(line); !ok || got["api-changes"] != "1" || got["breaking-changes"] != "1" || got["build-id"] == "" {
			t.Errorf("the next step read %q, want one API change, breaking, and a build", line)
		}
		short := repo.shas[0][:7]
		// The summary writes the base commit's SHA as a code span, which
		// copies as it is and which GitHub links nothing in.
		for _, want := range []string{
			"::warning col=3,file=api/openapi.yaml,line=57::breaking change: DELETE /books/{bookId}: api removed without deprecation",
			"| ❌ | DELETE /books/{bookId} | api removed without deprecation |",
			"1 breaking change** in api/openapi.yaml against the pull request's base commit `" + short + "`",
		} {
			if !strings.Contains(run.out, want) {
				t.Errorf("act's log lacks %q:\n%s", want, run.out)
			}
		}
		if len(emu.Builds()) != 1 {
			t.Errorf("%d builds, want 1", len(emu.Builds()))
		}
	})

	t.Run("a fork's pull_request without the token succeeds with its notice", func(t *testing.T) {
		emu := startEmulator(t, nil)
		repo := newActRepo(t, "pull-request.yml", map[string]string{"api/openapi.yaml": sample}, map[string]string{"api/openapi.yaml": head})
		event := pullRequestEvent(repo.shas[1], repo.shas[0], true)
		run := repo.run(t, act, "pull_request", emu.URL(), event, nil)
		if run.code != 0 {
			t.Fatalf("act exited %d:\n%s", run.code, run.out)
		}
		if !regexp.MustCompile(`::notice[^\n]*token is empty on a pull_request event`).MatchString(run.out) {
			t.Errorf("no notice that nothing was published for want of a token:\n%s", run.out)
		}
		line, ok := run.stepLine("outputs: ")
		if got := fields(line); !ok || got["build-id"] != "" || got["breaking-changes"] != "1" {
			t.Errorf("the next step read %q, want no build and the comparison's one breaking change", line)
		}
		if n := len(emu.Requests()); n != 0 {
			t.Errorf("%d requests reached the service", n)
		}
	})
}

// TestCIInstallsTheActTheTestsExpect: .ci/run installs the act these tests
// are written against (the tool it builds, or takes from its cache of
// tools).
func TestCIInstallsTheActTheTestsExpect(t *testing.T) {
	t.Parallel()
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^act_tool=\(github\.com/nektos/act@v` + regexp.QuoteMeta(actVersion) + `[ )]`).Match(ci) {
		t.Errorf(".ci/run does not build github.com/nektos/act@v%s", actVersion)
	}
}
