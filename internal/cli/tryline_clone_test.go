//go:build unix

package cli

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestTryLineFromAFreshClone starts the emulator as docs/emulator.md says, with
// go run in the top folder of a clone, and runs the Try: line it prints as
// printed, in that folder, as a newcomer pastes it: it publishes, and the
// downloaded zip is there. The clone is the repository's tracked files as
// they are in this tree (git ls-files), so what is not in the repository
// is not there. It builds the program twice (the second from the build
// cache), so -short skips it; it needs git and go, and no network
// (GOPROXY=off: the modules come from the module cache).
func TestTryLineFromAFreshClone(t *testing.T) {
	testenv.Long(t) // builds the program
	t.Parallel()
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	listed, err := exec.Command("git", "-C", top, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	clone := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(listed), "\x00"), "\x00") {
		copyTracked(t, filepath.Join(top, name), filepath.Join(clone, name))
	}
	// The run's own build flags stay (CI's -trimpath finds the packages it
	// compiled in the build cache).
	env := append(os.Environ(), "GOPROXY=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly"), "GOWORK=off", "GOTOOLCHAIN=local",
		"GITHUB_ACTIONS=", "GITHUB_WORKSPACE=", "DOCS_PUBLISH_TOKEN=")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	emu := exec.CommandContext(ctx, "go", "run", ".", "emulator", "--addr", "127.0.0.1:0", "--build-delay", "10ms", "--quiet")
	emu.Dir, emu.Env = clone, env
	// go run and the emulator it starts are one process group, interrupted
	// together as Ctrl-C would.
	emu.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	emu.Cancel = func() error { return syscall.Kill(-emu.Process.Pid, syscall.SIGINT) }
	emu.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	emu.Stderr = &stderr
	out, err := emu.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-emu.Process.Pid, syscall.SIGINT)
		emu.Wait()
	}()
	var try string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if l, ok := strings.CutPrefix(lines.Text(), "Try: "); ok {
			try = l
			break
		}
	}
	if try == "" {
		t.Fatalf("the emulator printed no Try: line\n%s", stderr.String())
	}
	go io.Copy(io.Discard, out)
	if !regexp.MustCompile(`^DOCS_PUBLISH_TOKEN=\S+ go run \. `).MatchString(try) || !strings.Contains(try, "--file testdata/specs/") {
		t.Errorf("Try: %s\nwant the token in the environment, go run . and a description of the repository", try)
	}

	run := exec.CommandContext(ctx, "sh", "-c", try)
	run.Dir, run.Env = clone, env
	published, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the Try: line failed as printed: %v\n%s\n%s", err, try, published)
	}
	zip := regexp.MustCompile(`(?m)^zip-path=(\S+)$`).FindSubmatch(published)
	if zip == nil {
		t.Fatalf("no zip-path output:\n%s", published)
	}
	if st, err := os.Stat(filepath.Join(clone, string(zip[1]))); err != nil || st.Size() == 0 {
		t.Errorf("the downloaded zip: %v", err)
	}
}

// copyTracked copies a tracked file (or link) of the tree into the clone;
// one deleted in the tree is left out, as a commit of the tree would.
func copyTracked(t *testing.T, from, to string) {
	t.Helper()
	st, err := os.Lstat(from)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err == nil {
			err = os.Symlink(target, to)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, data, st.Mode().Perm())
	}
	if err != nil {
		t.Fatal(err)
	}
}
