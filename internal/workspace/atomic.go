package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// tempName is a fresh hidden name beside target.
func tempName(target string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return path.Join(path.Dir(target), ".docs-publish-"+hex.EncodeToString(b)+".part")
}

// File is a file being written atomically: it appears at its target only
// when Commit succeeds. Abort (or a failed Commit) leaves nothing behind.
// What was written can be read back (ReadAt) before it is committed.
type File struct {
	*os.File
	w       *Workspace
	tmp     string
	target  string
	settled bool
}

// mkdirAll makes the folders of dir that do not exist, each 0755 and the
// workspace owner's, as the files written in them are.
func (w *Workspace) mkdirAll(dir string) error {
	if dir == "." || dir == "/" {
		return nil
	}
	st, err := w.root.Stat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s is a file, not a folder", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := w.mkdirAll(path.Dir(dir)); err != nil {
		return err
	}
	if err := w.root.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return w.settle(dir, 0o755)
}

// Create starts writing name (a slash path in the workspace).
func (w *Workspace) Create(name string) (*File, error) {
	if err := w.mkdirAll(path.Dir(name)); err != nil {
		return nil, w.explain(name, err)
	}
	tmp := tempName(name)
	fh, err := w.root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, w.explain(name, err)
	}
	return &File{File: fh, w: w, tmp: tmp, target: name}, nil
}

// Commit flushes the file to disk and moves it to its target, readable by
// later steps.
func (f *File) Commit() error {
	if f.settled {
		return errors.New("workspace: file already committed or aborted")
	}
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.w.settle(f.tmp, 0o644)
	}
	if err == nil {
		err = f.w.explain(f.target, f.w.root.Rename(f.tmp, f.target))
	}
	if err != nil {
		f.Abort()
		return err
	}
	f.settled = true
	return nil
}

// Abort drops the file. It is a no-op after Commit.
func (f *File) Abort() {
	if f.settled {
		return
	}
	f.settled = true
	f.Close()
	f.w.root.Remove(f.tmp)
}

// WriteFile writes data to name atomically.
func (w *Workspace) WriteFile(name string, data []byte) error {
	f, err := w.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// Dir is a folder being written atomically: written through Root, it
// appears at its target only when Commit succeeds.
type Dir struct {
	Root    *os.Root // the folder under construction
	w       *Workspace
	tmp     string
	target  string
	settled bool
}

// CreateDir starts writing the folder name, which must not exist or be
// empty.
func (w *Workspace) CreateDir(name string) (*Dir, error) {
	if err := w.mkdirAll(path.Dir(name)); err != nil {
		return nil, w.explain(name, err)
	}
	tmp := tempName(name)
	if err := w.root.Mkdir(tmp, 0o700); err != nil {
		return nil, w.explain(name, err)
	}
	r, err := w.root.OpenRoot(tmp)
	if err != nil {
		w.root.Remove(tmp)
		return nil, err
	}
	return &Dir{Root: r, w: w, tmp: tmp, target: name}, nil
}

// Commit gives the folder's contents the modes later steps need (0755
// folders, 0644 files) and moves it to its target, replacing an empty
// folder there.
func (d *Dir) Commit() error {
	if d.settled {
		return errors.New("workspace: folder already committed or aborted")
	}
	err := fs.WalkDir(d.Root.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if e.IsDir() {
			mode = 0o755
		}
		return d.w.settle(path.Join(d.tmp, p), mode)
	})
	d.Root.Close()
	if err == nil {
		err = d.w.clearTarget(d.target)
	}
	if err == nil {
		err = d.w.explain(d.target, d.w.root.Rename(d.tmp, d.target))
	}
	if err != nil {
		d.Abort()
		return err
	}
	d.settled = true
	return nil
}

// Abort drops the folder. It is a no-op after Commit.
func (d *Dir) Abort() {
	if d.settled {
		return
	}
	d.settled = true
	d.Root.Close()
	d.w.root.RemoveAll(d.tmp)
}

// clearTarget removes an empty folder at name, so a folder can be renamed
// there; anything else at name is left alone and refused.
func (w *Workspace) clearTarget(name string) error {
	st, err := w.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return w.explain(name, err)
	case !st.IsDir():
		return fmt.Errorf("%s exists and is not a folder", name)
	}
	if err := w.root.Remove(name); err != nil {
		return fmt.Errorf("%s exists and is not empty: %w", name, err)
	}
	return nil
}

// settle gives a written entry its mode and the workspace's owner.
func (w *Workspace) settle(name string, mode fs.FileMode) error {
	if err := w.root.Chmod(name, mode); err != nil {
		return err
	}
	return w.owner.give(w.root, name)
}
