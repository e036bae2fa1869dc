//go:build unix

package workspace

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestKeptFileBelongsToTheWorkspaceOwner: run as root (as a container
// action is), a file kept open for reading back is in place with the mode
// and the owner of every file written, so the runner's later steps can read
// and remove it.
func TestKeptFileBelongsToTheWorkspaceOwner(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root, as the container runs")
	}
	dir := t.TempDir()
	must(t, os.Chown(dir, 1234, 2345))
	w, err := Open(dir)
	must(t, err)
	defer w.Close()
	f, err := w.Create("build/bundle.json")
	must(t, err)
	io.WriteString(f, "{}")
	must(t, f.Keep())
	defer f.Close()
	st, err := os.Stat(filepath.Join(dir, "build", "bundle.json"))
	must(t, err)
	if sys := st.Sys().(*syscall.Stat_t); sys.Uid != 1234 || sys.Gid != 2345 || st.Mode().Perm() != 0o644 {
		t.Errorf("kept file: owner %d:%d, mode %v; want 1234:2345, -rw-r--r--", sys.Uid, sys.Gid, st.Mode().Perm())
	}
}
