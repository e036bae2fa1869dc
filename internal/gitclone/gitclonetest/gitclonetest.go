// Package gitclonetest runs git for tests that make a repository the way
// actions/checkout leaves one.
package gitclonetest

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git returns a function that runs git in dir, as a committer with no
// global configuration, and returns what it printed, trimmed. The test is
// skipped where git is not installed, and fails when git does.
func Git(t testing.TB, dir string) func(args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
}

// Bomb replaces the loose object hash of the clone in dir with one of type
// typ whose header claims claim bytes and whose content is n zero bytes,
// compressed: about n/1000 bytes on disk.
func Bomb(t testing.TB, dir, hash, typ string, claim, n int64) {
	t.Helper()
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	fmt.Fprintf(z, "%s %d\x00", typ, claim)
	zeros := make([]byte, 1<<20)
	for left := n; left > 0; left -= int64(len(zeros)) {
		z.Write(zeros[:min(left, int64(len(zeros)))])
	}
	z.Close()
	p := filepath.Join(dir, ".git", "objects", hash[:2], hash[2:])
	os.Remove(p)
	if err := os.WriteFile(p, buf.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
}
