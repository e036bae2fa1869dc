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

// pending is a file or folder written under a temporary name beside its
// target, until it is committed or dropped.
type pending struct {
	w       *Workspace
	tmp     string
	target  string
	made    []string // the folders made for it, deepest last
	settled bool
}

// commit finishes the entry with finish (which closes what is open), then
// moves it to its target with move. On any failure it drops it with abort,
// unless the move left what was at the target under the temporary name.
func (p *pending) commit(what string, finish func() error, move func(tmp, target string) error, abort func()) error {
	if p.settled {
		return fmt.Errorf("workspace: %s already committed or aborted", what)
	}
	err := finish()
	if err == nil {
		err = move(p.tmp, p.target)
	}
	if err == nil {
		p.settled = true
		return nil
	}
	var stranded *strandedError
	if errors.As(err, &stranded) {
		p.settled = true // tmp's name holds what was at the target: kept
	} else {
		abort()
	}
	return p.w.writeErr(p.target, err)
}

// drop removes the entry with remove, once, and the folders made for it
// that are empty then; it is a no-op after commit.
func (p *pending) drop(remove func()) {
	if p.settled {
		return
	}
	p.settled = true
	remove()
	p.w.removeMade(p.made)
}

// removeMade removes the folders in made (deepest last) that are empty: a
// folder made for a file that was not written is not left behind, and one
// that another writer has used since is kept.
func (w *Workspace) removeMade(made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		if w.root.Remove(made[i]) != nil {
			return
		}
	}
}

// File is a file being written atomically: it appears at its target only
// when Commit succeeds. Abort (or a failed Commit) leaves nothing behind.
// What was written can be read back (ReadAt) before it is committed.
type File struct {
	*os.File
	pending
}

// mkdirAll makes the folders of dir that do not exist, each 0755 and the
// workspace owner's, as the files written in them are. It returns the
// folders it made, outermost first, which are removed again when it fails.
func (w *Workspace) mkdirAll(dir string) (made []string, err error) {
	defer func() {
		if err != nil {
			w.removeMade(made)
			made = nil
		}
	}()
	var missing []string
	for ; dir != "." && dir != "/"; dir = path.Dir(dir) {
		st, err := w.root.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return nil, &NotFolderError{Folder: dir}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, dir)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		err := w.root.Mkdir(missing[i], 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue // another writer's, made meanwhile
		}
		if err != nil {
			return made, err
		}
		made = append(made, missing[i])
		if err := w.settle(missing[i], 0o755); err != nil {
			return made, err
		}
	}
	return made, nil
}

// Create starts writing name (a slash path in the workspace).
func (w *Workspace) Create(name string) (*File, error) {
	made, err := w.mkdirAll(path.Dir(name))
	if err != nil {
		return nil, w.writeErr(name, err)
	}
	tmp := tempName(name)
	fh, err := w.root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		w.removeMade(made)
		return nil, w.writeErr(name, err)
	}
	return &File{File: fh, pending: pending{w: w, tmp: tmp, target: name, made: made}}, nil
}

// Commit closes the file and moves it to its target, readable by later
// steps. The rename is what makes the write atomic to every reader; the
// file is not flushed to disk first (fsync): it guards only against the
// machine failing, which ends the job that would read the file too, and
// it cost a 13 MB upload 8 to 20 ms, a sixth of preparing it.
func (f *File) Commit() error {
	return f.commit("file", func() error {
		err := f.Close()
		if err == nil {
			err = f.w.settle(f.tmp, 0o644)
		}
		return err
	}, f.w.replaceFile, f.Abort)
}

// Keep is Commit, with the file left open for reading what was written
// (ReadAt): its target may change once it is in place, what was written
// cannot. The caller closes it.
func (f *File) Keep() error {
	return f.commit("file", func() error { return f.w.settle(f.tmp, 0o644) }, f.w.replaceFile, f.Abort)
}

// Abort drops the file. It is a no-op after Commit.
func (f *File) Abort() {
	f.drop(func() {
		f.Close()
		f.w.root.Remove(f.tmp)
	})
}

// Scratch returns a new empty file for the run's own use, open for reading
// and writing, that no path leads to: it is made at the workspace's top
// under a fresh hidden name and unlinked at once, so nothing is left of it
// however the run ends, and it goes when it is closed.
func (w *Workspace) Scratch() (*os.File, error) {
	tmp := tempName(".")
	fh, err := w.root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("make a scratch file: %w", &WriteError{Path: "the workspace", Err: err})
	}
	if err := w.root.Remove(tmp); err != nil {
		fh.Close()
		return nil, fmt.Errorf("make a scratch file: %w", &WriteError{Path: "the workspace", Err: err})
	}
	return fh, nil
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
	Root *os.Root // the folder under construction
	pending
}

// CreateDir starts writing the folder name, which must not exist or be
// empty.
func (w *Workspace) CreateDir(name string) (*Dir, error) {
	made, err := w.mkdirAll(path.Dir(name))
	if err != nil {
		return nil, w.writeErr(name, err)
	}
	tmp := tempName(name)
	if err := w.root.Mkdir(tmp, 0o700); err != nil {
		w.removeMade(made)
		return nil, w.writeErr(name, err)
	}
	r, err := w.root.OpenRoot(tmp)
	if err != nil {
		w.root.Remove(tmp)
		w.removeMade(made)
		return nil, err
	}
	return &Dir{Root: r, pending: pending{w: w, tmp: tmp, target: name, made: made}}, nil
}

// Commit gives the folder's contents the modes later steps need (0755
// folders, 0644 files) and moves it to its target, replacing an empty
// folder there.
func (d *Dir) Commit() error {
	return d.commit("folder", func() error {
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
		return err
	}, d.w.root.Rename, d.Abort)
}

// Abort drops the folder. It is a no-op after Commit.
func (d *Dir) Abort() {
	d.drop(func() {
		d.Root.Close()
		d.w.root.RemoveAll(d.tmp)
	})
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
		return fmt.Errorf("%s exists and is a file, not a folder", name)
	}
	if err := w.root.Remove(name); err != nil {
		return &WriteError{Path: name, Err: err}
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

// strandedError is a replacement that could not be undone: what was at
// the target is under tmp's name, and must not be removed with the
// temporary file.
type strandedError struct {
	tmp string
	err error
}

func (e *strandedError) Error() string {
	return "what was in its place is now at " + e.tmp + ": " + e.err.Error()
}

func (e *strandedError) Unwrap() error { return e.err }
