package workspace

import (
	"fmt"
	"path"

	"golang.org/x/sys/unix"
)

// replaceFile moves the file tmp to target, in the same folder. A regular
// file at target is exchanged with tmp (renameat2's RENAME_EXCHANGE), then
// removed under tmp's name: renamed over, it made ext4 allocate and start
// writing the new file's blocks within the rename (its auto_da_alloc), and
// drop the old file's there too, which took a 7 MB upload 6 to 10 ms where
// the exchange and the removal take under 1 ms. While the system runs, the
// target holds the old file or the new one at every moment, as with a
// rename; across a crash of the machine it no longer has the rename's
// guarantee from ext4 that the new file's blocks were written first (the
// workspace never syncs: a machine failing ends the job). A run killed
// between the exchange and the removal leaves the old file under tmp's
// name, as one killed while writing leaves the new one. Where the folder
// cannot be opened, or the system cannot exchange (a file system without
// it, an older kernel, a filter on system calls), it renames.
func (w *Workspace) replaceFile(tmp, target string) error {
	if st, err := w.root.Lstat(target); err != nil || !st.Mode().IsRegular() {
		return w.root.Rename(tmp, target)
	}
	dir, err := w.root.Open(path.Dir(target))
	if err != nil {
		return w.root.Rename(tmp, target)
	}
	defer dir.Close()
	fd := int(dir.Fd())
	old, name := path.Base(tmp), path.Base(target)
	if w.beforeExchange != nil {
		w.beforeExchange()
	}
	if err := unix.Renameat2(fd, old, fd, name, unix.RENAME_EXCHANGE); err != nil {
		return w.root.Rename(tmp, target)
	}
	// tmp's name now leads to what was at target: a file, unless it became
	// a folder since it was looked at (the removal refuses a folder), which
	// goes back where it was.
	if err := unix.Unlinkat(fd, old, 0); err != nil {
		if xerr := unix.Renameat2(fd, old, fd, name, unix.RENAME_EXCHANGE); xerr != nil {
			return &strandedError{tmp: tmp, err: fmt.Errorf("%w; putting it back: %w", err, xerr)}
		}
		return err
	}
	return nil
}
