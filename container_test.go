//go:build unix

package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/ghaction"
)

// The image, run for real: built from the Dockerfile's final stage with a
// binary built here, and started the way the GitHub runner starts a
// container action. It needs a Docker engine (.ci/run starts one); without
// one the tests are skipped and say so.

// dockerCLI is a docker client that builds with BuildKit (which builds only
// the stages the final one needs, so no base image is pulled), with an
// engine that answers. $DOCKER names one; else Debian's /usr/bin/docker,
// whose BuildKit is built in; else docker on the PATH.
func dockerCLI(t *testing.T) string {
	t.Helper()
	cli := os.Getenv("DOCKER")
	if cli == "" {
		cli = "docker"
		if _, err := os.Stat("/usr/bin/docker"); err == nil {
			cli = "/usr/bin/docker"
		}
	}
	// CI requires the image tests to run: there, a missing engine fails.
	skip := t.Skipf
	if os.Getenv("DOCS_PUBLISH_REQUIRE_DOCKER") == "1" {
		skip = t.Fatalf
	}
	if _, err := exec.LookPath(cli); err != nil {
		skip("no docker client: install docker.io and start dockerd to run the image tests (.ci/run does)")
	}
	if out, err := exec.Command(cli, "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		skip("no Docker engine answers (%s): start dockerd to run the image tests (.ci/run does)", bytes.TrimSpace(out))
	}
	return cli
}

const imageTag = "docs-publish:container-test"

var (
	imageOnce sync.Once
	imageErr  error
)

// buildImage builds the image once per test run, from the Dockerfile with
// BIN_SOURCE=prebuilt: a static binary built here and the machine's CA
// certificates in the build context.
func buildImage(t *testing.T, docker string) {
	t.Helper()
	imageOnce.Do(func() { imageErr = build(docker) })
	if imageErr != nil {
		t.Fatal(imageErr)
	}
}

func build(docker string) error {
	ctx, err := os.MkdirTemp("", "docs-publish-image")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ctx)
	gb := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version=container-test", "-o", filepath.Join(ctx, "docs-publish"), ".")
	gb.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := gb.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		return fmt.Errorf("the machine's CA certificates (Debian's ca-certificates package): %w", err)
	}
	dockerfile, err := os.ReadFile("Dockerfile")
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"ca-certificates.crt": certs, "Dockerfile": dockerfile} {
		if err := os.WriteFile(filepath.Join(ctx, name), data, 0o644); err != nil {
			return err
		}
	}
	cmd := exec.Command(docker, "build", "--build-arg", "BIN_SOURCE=prebuilt", "-t", imageTag, ctx)
	cmd.Env = append(os.Environ(), "DOCKER_BUILDKIT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("docker build: %v\n%s", err, out)
	}
	return nil
}

// runnerContainer is a container action's run as the runner sets it up:
// the workspace, home, workflow (event.json) and file-command folders on
// the host, mounted where the runner mounts them.
type runnerContainer struct {
	ws, home, workflow, files string
	outFile, summaryFile      string // on the host
	args                      []string
	env                       []string // for the docker client: the inputs' values
}

// newRunnerContainer prepares a run of the image with inputs (every
// declared input is set, as the runner sets it) and files in the workspace.
func newRunnerContainer(t *testing.T, name string, inputs, files map[string]string) *runnerContainer {
	t.Helper()
	meta, err := ghaction.ParseMetadata(actionYAML)
	if err != nil {
		t.Fatal(err)
	}
	c := &runnerContainer{ws: t.TempDir(), home: t.TempDir(), workflow: t.TempDir(), files: t.TempDir()}
	// The runner's workspace belongs to its user, not root.
	if err := os.Chown(c.ws, 1001, 1001); err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		full := filepath.Join(c.ws, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(c.workflow, "event.json"), []byte(`{"ref":"refs/heads/main"}`), 0o644)
	id := strconv.FormatInt(time.Now().UnixNano(), 36)
	out, sum := "set_output_"+id, "step_summary_"+id
	c.outFile, c.summaryFile = filepath.Join(c.files, out), filepath.Join(c.files, sum)
	os.WriteFile(c.outFile, nil, 0o644)
	os.WriteFile(c.summaryFile, nil, 0o644)
	c.args = []string{"run", "--name", name, "--workdir", "/github/workspace", "--network", "host",
		"-v", c.ws + ":/github/workspace", "-v", c.home + ":/github/home",
		"-v", c.workflow + ":/github/workflow", "-v", c.files + ":/github/file_commands"}
	runner := map[string]string{
		"HOME": "/github/home", "GITHUB_ACTIONS": "true", "CI": "true",
		"GITHUB_WORKSPACE": "/github/workspace", "GITHUB_EVENT_PATH": "/github/workflow/event.json",
		"GITHUB_OUTPUT": "/github/file_commands/" + out, "GITHUB_STEP_SUMMARY": "/github/file_commands/" + sum,
	}
	for k, v := range runnerEnv {
		runner[k] = v
	}
	runner["GITHUB_EVENT_NAME"] = "push"
	for k, v := range runner {
		c.args = append(c.args, "-e", k+"="+v)
	}
	// Inputs go as the runner passes them: -e NAME, the value from the
	// client's environment, so the token is not on the command line.
	for _, in := range meta.Inputs {
		v, given := inputs[in.Name]
		if !given {
			v = ghaction.EvalDefault(in.Default, func(k string) string { return runnerEnv[k] })
		}
		name := ghaction.RunnerVar(in.Name)
		c.args = append(c.args, "-e", name)
		c.env = append(c.env, name+"="+v)
	}
	return c
}

// run starts the container in the foreground and waits for it.
func (c *runnerContainer) run(t *testing.T, docker string) actionRun {
	t.Helper()
	cmd := exec.Command(docker, append(append(c.args[:1:1], append([]string{"--rm"}, c.args[1:]...)...), imageTag)...)
	cmd.Env = append(os.Environ(), c.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	run := actionRun{stdout: stdout.String(), stderr: stderr.String(), workspace: c.ws}
	if ee, ok := err.(*exec.ExitError); ok {
		run.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(c.outFile)
	run.outputs, run.outputOrder = parseOutputFile(t, string(raw))
	sum, _ := os.ReadFile(c.summaryFile)
	run.summary = string(sum)
	return run
}

// TestContainerPublishesLikeTheRunnerRunsIt: the image, started as the
// runner starts a container action, publishes through the emulator on the
// host's loopback, writes its outputs where the host reads them, leaves a
// zip the host can open, and shows the token nowhere but ::add-mask::.
func TestContainerPublishesLikeTheRunnerRunsIt(t *testing.T) {
	docker := dockerCLI(t)
	buildImage(t, docker)
	emu := startEmulator(t, nil)
	in := baseInputs(emu)
	in["download"] = "true"
	c := newRunnerContainer(t, "docs-publish-test-"+strconv.Itoa(os.Getpid()), in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
	run := c.run(t, docker)
	if run.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", run.code, run.stdout, run.stderr)
	}
	if !strings.Contains(run.stdout, "::add-mask::"+testToken+"\n") {
		t.Error("the token was not masked: no ::add-mask:: line for it")
	}
	assertNoToken(t, run)
	zipPath := run.outputs["zip-path"]
	if zipPath != "docs-build-9007199254740993.zip" || run.outputs["build-id"] != "9007199254740993" {
		t.Errorf("outputs %v: want the build id and a workspace-relative zip-path", run.outputs)
	}
	zr, err := zip.OpenReader(filepath.Join(c.ws, zipPath))
	if err != nil {
		t.Fatalf("the host cannot open zip-path %q: %v", zipPath, err)
	}
	zr.Close()
	st, err := os.Stat(filepath.Join(c.ws, zipPath))
	if err != nil {
		t.Fatal(err)
	}
	if sys := st.Sys().(*syscall.Stat_t); sys.Uid != 1001 {
		t.Errorf("the zip belongs to uid %d, want the workspace's owner (1001), so later steps can remove it", sys.Uid)
	}
	if !strings.Contains(run.summary, "API docs published") {
		t.Errorf("job summary:\n%s", run.summary)
	}
	if len(emu.Builds()) != 1 {
		t.Errorf("%d builds, want 1", len(emu.Builds()))
	}
}

// TestContainerStopsOnCancel: the runner cancels with SIGINT, then SIGTERM
// 7.5 s later. The container's PID 1 must take SIGINT: stop within 7.5 s,
// fail, leave no partial file, and say in the summary which step was cut
// short. The download streams half the zip and stalls, so the run is
// cancelled with its temporary file open in the workspace.
func TestContainerStopsOnCancel(t *testing.T) {
	docker := dockerCLI(t)
	buildImage(t, docker)
	emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = 0 })
	emu.Inject(emulator.Fault{Endpoint: "download", Kind: emulator.FaultSlowBody, Delay: time.Minute, Times: 10})
	in := baseInputs(emu)
	in["download"] = "true"
	in["download-path"] = "out/site.zip"
	name := "docs-publish-cancel-" + strconv.Itoa(os.Getpid())
	c := newRunnerContainer(t, name, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
	before := relFiles(c.ws)
	start := exec.Command(docker, append(append(c.args[:1:1], append([]string{"-d"}, c.args[1:]...)...), imageTag)...)
	start.Env = append(os.Environ(), c.env...)
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("docker run: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command(docker, "rm", "-f", name).Run() })
	// Wait until the zip is being written: a temporary file somewhere in
	// the workspace.
	deadline := time.Now().Add(20 * time.Second)
	for !slices.ContainsFunc(relFiles(c.ws), func(p string) bool { return strings.HasSuffix(p, ".part") }) {
		if time.Now().After(deadline) {
			logs, _ := exec.Command(docker, "logs", name).CombinedOutput()
			t.Fatalf("the container never started writing the zip (%d downloads asked):\n%s", emu.RequestsTo("/docs.builds.download"), logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sent := time.Now()
	if out, err := exec.Command(docker, "kill", "--signal", "SIGINT", name).CombinedOutput(); err != nil {
		t.Fatalf("docker kill: %v %s", err, out)
	}
	// Past the runner's SIGTERM at 7.5 s, give up waiting.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, docker, "wait", name).Output()
	took := time.Since(sent)
	if err != nil {
		t.Fatalf("the container did not stop within %s of SIGINT: %v", took.Round(time.Second), err)
	}
	code, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	if code == 0 {
		t.Error("exit 0 after a cancel, want a failure")
	}
	if took > 7500*time.Millisecond {
		t.Errorf("stopped %s after SIGINT; the runner kills it with SIGTERM at 7.5 s", took)
	}
	// Every file of the workspace, hidden ones and those in folders
	// included, is one that was there before the run.
	if after := relFiles(c.ws); !slices.Equal(after, before) {
		t.Errorf("the workspace holds %q after the cancel, want only %q", after, before)
	}
	summary, _ := os.ReadFile(c.summaryFile)
	if !strings.Contains(string(summary), "Cancelled during: download build") {
		t.Errorf("the summary does not name the step cut short:\n%s", summary)
	}
}

// relFiles lists the regular files under dir, at any depth, hidden ones
// included, as sorted slash paths relative to it.
func relFiles(dir string) []string {
	var out []string
	for p := range workspaceFiles(dir) {
		rel, err := filepath.Rel(dir, p)
		if err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	return out
}

// TestContainerImage: the image is small, starts, and holds the CA
// certificates TLS needs.
func TestContainerImage(t *testing.T) {
	docker := dockerCLI(t)
	buildImage(t, docker)
	out, err := exec.Command(docker, "run", "--rm", imageTag, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "docs-publish container-test") {
		t.Errorf("--version in the container: %v %q", err, out)
	}
	size, err := exec.Command(docker, "image", "inspect", "--format", "{{.Size}}", imageTag).Output()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.ParseInt(strings.TrimSpace(string(size)), 10, 64); n <= 0 || n >= 25_000_000 {
		t.Errorf("image is %d bytes, want under 25 MB", n)
	}
	// The certificates are where Go looks for them: export the image's
	// file system and look.
	create, err := exec.Command(docker, "create", imageTag).Output()
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(string(create))
	defer exec.Command(docker, "rm", id).Run()
	tarball, err := exec.Command(docker, "export", id).Output()
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	tr := tar.NewReader(bytes.NewReader(tarball))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sizes[h.Name] = h.Size
	}
	for _, want := range []string{"etc/ssl/certs/ca-certificates.crt", "usr/local/bin/docs-publish"} {
		if sizes[want] == 0 {
			t.Errorf("the image has no %s (it holds %v)", want, sizes)
		}
	}
}
