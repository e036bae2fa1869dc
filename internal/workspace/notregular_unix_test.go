//go:build unix

package workspace

import (
	"errors"
	"io/fs"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNotRegularSaysWhatItIs: a path given as a file that is something else
// is refused with a message that says what it is, so that the user knows
// what to fix.
func TestNotRegularSaysWhatItIs(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	must(t, syscall.Mkfifo(filepath.Join(w.Dir(), "fifo"), 0o644))
	ln, err := net.Listen("unix", filepath.Join(w.Dir(), "sock"))
	must(t, err)
	defer ln.Close()
	cases := []struct{ name, want string }{
		{"api", "api is a directory, not a file"},
		{"fifo", "fifo is a named pipe (FIFO), not a regular file"},
		{"sock", "sock is a socket, not a regular file"},
	}
	if syscall.Mknod(filepath.Join(w.Dir(), "zero"), syscall.S_IFCHR|0o644, 1<<8|5) == nil { // /dev/zero, where allowed
		cases = append(cases, struct{ name, want string }{"zero", "zero is a device, not a regular file"})
	}
	for _, tc := range cases {
		_, err := fs.ReadFile(w.FS(), tc.name)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("reading %s: %v, want a *NotRegularError saying %q", tc.name, err, tc.want)
		}
	}
}
