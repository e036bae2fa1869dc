//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// TestCancelMidDownload starts the binary as the runner does, lets it get
// halfway through the download, and sends SIGTERM as the runner does on
// cancel. It must stop within 5 s, fail, say which step was cut short, keep
// the outputs already known, and leave no partial file.
func TestCancelMidDownload(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = 0 })
			emu.Inject(emulator.Fault{Endpoint: "download", Kind: emulator.FaultSlowBody, Delay: time.Minute, Times: 10})
			in := baseInputs(emu)
			in["download"] = "true"
			in["download-path"] = "out/site.zip"
			cmd, ws, outFile, stdout := startAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})

			// Wait until the zip is being written.
			deadline := time.Now().Add(10 * time.Second)
			for {
				parts, _ := filepath.Glob(filepath.Join(ws, "out", ".*.part"))
				if len(parts) > 0 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the download never started\n%s", stdout)
				}
				time.Sleep(10 * time.Millisecond)
			}
			sent := time.Now()
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if took := time.Since(sent); took > 5*time.Second {
				t.Errorf("exited %s after the signal, want within 5s", took)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
				t.Errorf("exit %v, want 130 (cancelled)", err)
			}
			left, _ := os.ReadDir(filepath.Join(ws, "out"))
			if len(left) != 0 {
				t.Errorf("files left in out/: %v", left)
			}
			if !strings.Contains(stdout.String(), "::error title=docs-publish::cancelled during download build") {
				t.Errorf("no annotation naming the step cut short:\n%s", stdout)
			}
			// The annotation says by what, what was done, and what to do.
			for _, w := range []string{sig.String() + " signal received): build ", "was released under doc", "check the doc's builds"} {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("the annotation does not say %q:\n%s", w, stdout)
				}
			}
			if strings.Contains(stdout.String(), "context canceled") {
				t.Errorf("the context's bare words:\n%s", stdout)
			}
			outputs, _ := os.ReadFile(outFile)
			if !bytes.Contains(outputs, []byte("build-id<<")) || bytes.Contains(outputs, []byte("zip-path<<")) {
				t.Errorf("outputs after cancel:\n%s", outputs)
			}
		})
	}
}
