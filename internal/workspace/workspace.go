package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Workspace is an open workspace directory.
type Workspace struct {
	dir     string // absolute
	root    *os.Root
	escapes error // os.Root's error for a path that leaves it
	owner   owner
	// beforeExchange, set by tests only, runs in replaceFile between its
	// look at the target and the exchange: where another writer may
	// change the target.
	beforeExchange func()
	// beforeCreate, set by tests only, runs in Create between the look
	// for its folders and the file's creation.
	beforeCreate func()

	mu   sync.Mutex
	read map[string]bool // the files opened for reading, as named
	made *made           // shared with the Workspaces Another opens
}

// Open opens the workspace at dir.
func Open(dir string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	w := &Workspace{dir: abs, root: root, owner: ownerOf(root), made: &made{}}
	// os.Root does not export its "path escapes" error: learn it once, so
	// that refusals can be told from other failures without reading text.
	var pe *fs.PathError
	if _, err := root.Lstat(".."); errors.As(err, &pe) {
		w.escapes = pe.Err
	}
	return w, nil
}

// Another opens w's folder again: a Workspace with its own files read
// (Read), closed on its own, that shares with w the record of the folders
// made to write in, so that a folder one made, and another used, is
// removed by whichever drops the last entry in it.
func (w *Workspace) Another() (*Workspace, error) {
	o, err := Open(w.dir)
	if err != nil {
		return nil, err
	}
	o.made = w.made
	return o, nil
}

// Close releases the workspace.
func (w *Workspace) Close() error { return w.root.Close() }

// Dir is the workspace's absolute path.
func (w *Workspace) Dir() string { return w.dir }

// OutsideError is a path that leaves the workspace.
type OutsideError struct {
	Path string // as given
	Link bool   // it leaves through a symbolic link
}

func (e *OutsideError) Error() string {
	if e.Link {
		return fmt.Sprintf("%s leads outside the workspace through a symbolic link", e.Path)
	}
	return fmt.Sprintf("%s is outside the workspace", e.Path)
}

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch {
	case e.Mode.IsDir():
		what = "a directory, not a file"
	case e.Mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a regular file"
	case e.Mode&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	case e.Mode&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return e.Path + " is " + what
}

// Path turns p, relative to the workspace or absolute inside it, into a
// clean slash path relative to the workspace ("." for the workspace
// itself). A path whose text leaves the workspace is an *OutsideError; one
// that leaves through a link is refused when it is opened.
func (w *Workspace) Path(p string) (string, error) {
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(w.dir, p)
	}
	rel, err := filepath.Rel(w.dir, filepath.Clean(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &OutsideError{Path: p}
	}
	return filepath.ToSlash(rel), nil
}

// RealPath is where name (a clean slash path in the workspace) leads
// through symbolic links: the path of the file itself, inside the
// workspace. A link that leads out is an *OutsideError.
func (w *Workspace) RealPath(name string) (string, error) {
	parts := strings.Split(name, "/")
	resolved := "."
	for hops := 0; len(parts) > 0; {
		p := parts[0]
		parts = parts[1:]
		switch p {
		case "", ".":
			continue
		case "..":
			if resolved == "." {
				return "", &OutsideError{Path: name, Link: true}
			}
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, p)
		st, err := w.root.Lstat(next)
		if err != nil {
			return "", w.explain(name, err)
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if hops++; hops > 40 {
			return "", fmt.Errorf("%s: too many symbolic links", name)
		}
		target, err := w.root.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) || path.IsAbs(filepath.ToSlash(target)) {
			return "", &OutsideError{Path: name, Link: true}
		}
		parts = append(strings.Split(filepath.ToSlash(target), "/"), parts...)
	}
	return resolved, nil
}

// explain turns os.Root's refusal of name into an *OutsideError.
func (w *Workspace) explain(name string, err error) error {
	if w.escapes != nil && errors.Is(err, w.escapes) {
		return &OutsideError{Path: name, Link: true}
	}
	return err
}

// FS is the workspace's files for reading: regular files only.
func (w *Workspace) FS() fs.FS { return regularFS{w} }

type regularFS struct{ w *Workspace }

// RealPath is Workspace.RealPath, so that a reader of the FS can tell where
// a path leads.
func (f regularFS) RealPath(name string) (string, error) { return f.w.RealPath(name) }

// Open opens a regular file without blocking: a FIFO or a device is
// refused, never read. The file is listed in Read.
func (f regularFS) Open(name string) (fs.File, error) {
	fh, err := f.w.open(name)
	if err != nil {
		return nil, err
	}
	f.w.saw(name)
	return fh, nil
}

// saw lists name in Read.
func (w *Workspace) saw(name string) {
	w.mu.Lock()
	if w.read == nil {
		w.read = map[string]bool{}
	}
	w.read[name] = true
	w.mu.Unlock()
}

// open opens a regular file of the workspace for reading, without
// blocking.
func (w *Workspace) open(name string) (*os.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	fh, err := w.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if st, serr := w.root.Stat(name); serr == nil && !st.Mode().IsRegular() {
			return nil, &NotRegularError{Path: name, Mode: st.Mode()} // a socket cannot be opened
		}
		return nil, w.explain(name, err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		fh.Close()
		return nil, &NotRegularError{Path: name, Mode: st.Mode()}
	}
	return fh, nil
}

// Read is every file opened or described (Stat) through this Workspace's
// FS (a description and the files its $refs name, a list of agreed
// changes), each once, as it was named, in sorted order: a file a $ref
// names that is only looked at, as with bundle false, where the upload
// refers to it, is the user's as much as one opened. Open lists nothing:
// it reads the run's own files (a zip it wrote, a report it checks).
func (w *Workspace) Read() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	names := make([]string, 0, len(w.read))
	for name := range w.read {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Stat is what Open would find at name, without opening it: a regular
// file's description (the file is listed in Read), or Open's refusal (a name fs.FS does not take, a
// path that leads out, a file that is not regular). A file whose
// permissions forbid reading it is described, and Open refuses it.
// fs.Stat on a file system without it opens the file, describes it and
// closes it: three calls where one does, for every file a description
// names (each is checked again once open, see openapi's checkOpened).
func (f regularFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	st, err := f.w.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: name, Mode: st.Mode()}
	}
	f.w.saw(name)
	return st, nil
}

// Stat describes name in the workspace, following links inside it.
func (w *Workspace) Stat(name string) (fs.FileInfo, error) {
	st, err := w.root.Stat(name)
	return st, w.explain(name, err)
}

// Lstat describes name in the workspace without following a link at its
// end: a link whose target is missing is there.
func (w *Workspace) Lstat(name string) (fs.FileInfo, error) {
	st, err := w.root.Lstat(name)
	return st, w.explain(name, err)
}

// Open opens a file of the workspace for reading (a regular file only).
func (w *Workspace) Open(name string) (*os.File, error) {
	return w.open(name)
}

// CheckWritable checks, before anything is written, that writing name would
// stay inside the workspace: its nearest existing folder must not lead out
// through a link. (Writing over a link replaces the link, so name itself may
// be one.)
func (w *Workspace) CheckWritable(name string) error {
	_, err := w.nearestFolder(name)
	return err
}

// IsEmptyOrAbsent reports whether name does not exist or is an empty folder.
func (w *Workspace) IsEmptyOrAbsent(name string) (bool, error) {
	st, err := w.root.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, w.explain(name, err)
	}
	if !st.IsDir() {
		return false, nil
	}
	entries, err := fs.ReadDir(w.root.FS(), name)
	return err == nil && len(entries) == 0, w.explain(name, err)
}
