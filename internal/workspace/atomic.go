package workspace

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sync"
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

// drop removes the entry with remove, once, and the folders the run made
// that are empty then; it is a no-op after commit.
func (p *pending) drop(remove func()) {
	if p.settled {
		return
	}
	p.settled = true
	remove()
	p.w.made.mu.Lock()
	defer p.w.made.mu.Unlock()
	p.w.removeMade()
}

// made is the record of the folders a run made to write in, shared by the
// Workspaces of one folder (see Another): a folder one writer made may
// hold another's entry, and be emptied by either. Its mutex is held from
// a writer's look for its folders to its entry's creation, and while
// empty folders are removed, so that none is removed between the two.
type made struct {
	mu   sync.Mutex
	dirs map[string]bool
}

// removeMade removes the folders the run made that are empty, deepest
// first (a folder emptied by the removal of another goes too), and forgets
// them: a folder made for a file that was not written is not left behind,
// and one that holds an entry (committed or under way) is kept. The caller
// holds w.made.mu.
func (w *Workspace) removeMade() {
	dirs := make([]string, 0, len(w.made.dirs))
	for d := range w.made.dirs {
		dirs = append(dirs, d)
	}
	// A folder is longer than the folders it is in.
	slices.SortFunc(dirs, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, d := range dirs {
		if err := w.root.Remove(d); err == nil || errors.Is(err, fs.ErrNotExist) {
			delete(w.made.dirs, d)
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
// workspace owner's, as the files written in them are, and records them.
// The caller holds w.made.mu, and removes what it made (removeMade) when
// it fails.
func (w *Workspace) mkdirAll(dir string) error {
	var missing []string
	for ; dir != "." && dir != "/"; dir = path.Dir(dir) {
		st, err := w.root.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return &NotFolderError{Folder: dir}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, dir)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		err := w.root.Mkdir(missing[i], 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue // made meanwhile, by a writer outside the run
		}
		if err != nil {
			return err
		}
		if w.made.dirs == nil {
			w.made.dirs = map[string]bool{}
		}
		w.made.dirs[missing[i]] = true
		if err := w.settle(missing[i], 0o755); err != nil {
			return err
		}
	}
	return nil
}

// Create starts writing name (a slash path in the workspace).
func (w *Workspace) Create(name string) (*File, error) {
	w.made.mu.Lock()
	defer w.made.mu.Unlock()
	if err := w.mkdirAll(path.Dir(name)); err != nil {
		w.removeMade()
		return nil, w.writeErr(name, err)
	}
	if w.beforeCreate != nil {
		w.beforeCreate()
	}
	tmp := tempName(name)
	fh, err := w.root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		w.removeMade()
		return nil, w.writeErr(name, err)
	}
	return &File{File: fh, pending: pending{w: w, tmp: tmp, target: name}}, nil
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
	w.made.mu.Lock()
	defer w.made.mu.Unlock()
	if err := w.mkdirAll(path.Dir(name)); err != nil {
		w.removeMade()
		return nil, w.writeErr(name, err)
	}
	tmp := tempName(name)
	if err := w.root.Mkdir(tmp, 0o700); err != nil {
		w.removeMade()
		return nil, w.writeErr(name, err)
	}
	r, err := w.root.OpenRoot(tmp)
	if err != nil {
		w.root.Remove(tmp)
		w.removeMade()
		return nil, err
	}
	return &Dir{Root: r, pending: pending{w: w, tmp: tmp, target: name}}, nil
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
