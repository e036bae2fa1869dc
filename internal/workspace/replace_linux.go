package workspace

import (
	"path"

	"golang.org/x/sys/unix"
)

// replaceFile moves the file tmp to target, in the same folder. A regular
// file at target is exchanged with tmp (renameat2's RENAME_EXCHANGE), then
// removed under tmp's name: renamed over, it made ext4 allocate and start
// writing the new file's blocks within the rename (its auto_da_alloc), and
// drop the old file's there too, which took a 7 MB upload 6 to 10 ms where
// the exchange and the removal take under 1 ms. The target holds the old
// file or the new one at every moment, as with a rename. Where the folder
// cannot be opened or the system cannot exchange (another file system, an
// older kernel), it renames.
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
	if err := unix.Renameat2(fd, old, fd, name, unix.RENAME_EXCHANGE); err != nil {
		return w.root.Rename(tmp, target)
	}
	// tmp's name now leads to what was at target: a file, unless it became
	// a folder since it was looked at, which goes back where it was.
	if err := unix.Unlinkat(fd, old, 0); err != nil {
		unix.Renameat2(fd, old, fd, name, unix.RENAME_EXCHANGE)
		return err
	}
	return nil
}
