//go:build unix

package workspace

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadsStayInside: links that lead out, and files that are not regular,
// are refused, and a FIFO is refused at once instead of blocking; fs.Stat,
// which does not open the file, refuses the same.
func TestReadsStayInside(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	must(t, syscall.Mkfifo(filepath.Join(w.Dir(), "fifo"), 0o644))
	ln, err := net.Listen("unix", filepath.Join(w.Dir(), "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	must(t, os.Symlink("api", filepath.Join(w.Dir(), "dir-link")))
	must(t, os.Symlink("fifo", filepath.Join(w.Dir(), "fifo-link")))
	device := syscall.Mknod(filepath.Join(w.Dir(), "zero"), syscall.S_IFCHR|0o644, 1<<8|5) == nil // /dev/zero, where allowed
	cases := []struct {
		name    string
		outside bool
		regular bool // refused as not a regular file
	}{
		{"abs-link", true, false},
		{"rel-link", true, false},
		{"out/secret", true, false},
		{"api", false, true},
		{"fifo", false, true},
		{"sock", false, true},
		{"dir-link", false, true},
		{"fifo-link", false, true},
	}
	if device {
		cases = append(cases, struct {
			name    string
			outside bool
			regular bool
		}{"zero", false, true})
	}
	for _, tc := range cases {
		done := make(chan error, 1)
		go func() {
			_, err := fs.ReadFile(w.FS(), tc.name)
			done <- err
		}()
		select {
		case err := <-done:
			var oe *OutsideError
			var nr *NotRegularError
			if tc.outside != errors.As(err, &oe) || tc.regular != errors.As(err, &nr) {
				t.Errorf("%s: %v (%T)", tc.name, err, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading blocked", tc.name)
		}
		_, err := fs.Stat(w.FS(), tc.name)
		var oe *OutsideError
		var nr *NotRegularError
		if tc.outside != errors.As(err, &oe) || tc.regular != errors.As(err, &nr) {
			t.Errorf("stat %s: %v (%T)", tc.name, err, err)
		}
	}
	data, err := fs.ReadFile(w.FS(), "inside-link")
	if err != nil || string(data) != "openapi: 3.0.0\n" {
		t.Errorf("a link inside the workspace: %q, %v", data, err)
	}
	linked, err := fs.Stat(w.FS(), "inside-link")
	target, terr := os.Stat(filepath.Join(w.Dir(), "api", "openapi.yaml"))
	if err != nil || terr != nil || !os.SameFile(linked, target) {
		t.Errorf("stat of a link inside the workspace: %v, %v: want the file it leads to", err, terr)
	}
	if _, err := fs.Stat(w.FS(), "missing.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stat of a missing file: %v, want fs.ErrNotExist", err)
	}
	// Names that are not an fs.FS's: refused as they are, before any
	// look at the disk, even where they would lead to a file inside.
	for _, name := range []string{"../ws/api/openapi.yaml", "api/../api/openapi.yaml", "./api/openapi.yaml", filepath.Join(w.Dir(), "api", "openapi.yaml"), "api/openapi.yaml/"} {
		if _, err := w.FS().Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("open %s: %v, want fs.ErrInvalid", name, err)
		}
		if _, err := fs.Stat(w.FS(), name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("stat %s: %v, want fs.ErrInvalid", name, err)
		}
	}
}

// TestWrittenFilesBelongToTheWorkspaceOwner: run as root (as a container
// action is), what is written belongs to the workspace's owner, so the
// runner's later steps can remove it, and every file written (one kept open
// for reading back too) has mode 0644, so they can read it.
func TestWrittenFilesBelongToTheWorkspaceOwner(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root, as the container runs")
	}
	dir := t.TempDir()
	must(t, os.Chown(dir, 1234, 2345))
	w, err := Open(dir)
	must(t, err)
	defer w.Close()
	must(t, w.WriteFile("a/b/bundle.json", []byte("{}")))
	d, err := w.CreateDir("out/site")
	must(t, err)
	must(t, d.Root.WriteFile("index.html", nil, 0o644))
	must(t, d.Commit())
	// A file kept open for reading back is in place like any other.
	f, err := w.Create("build/bundle.json")
	must(t, err)
	io.WriteString(f, "{}")
	must(t, f.Keep())
	defer f.Close()
	for _, p := range []string{"a", "a/b", "a/b/bundle.json", "out", "out/site", "out/site/index.html", "build", "build/bundle.json"} {
		st, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if sys := st.Sys().(*syscall.Stat_t); sys.Uid != 1234 || sys.Gid != 2345 {
			t.Errorf("%s belongs to %d:%d, want 1234:2345", p, sys.Uid, sys.Gid)
		}
		if st.Mode().IsRegular() && st.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want -rw-r--r--", p, st.Mode().Perm())
		}
	}
}
