package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// NotFolderError is a path whose parent, or another folder on its way, is
// a file.
type NotFolderError struct {
	Path   string // the path to write ("" until it is known)
	Folder string // the part of it that is a file
}

func (e *NotFolderError) Error() string {
	return fmt.Sprintf("%s cannot be made: %s is a file, not a folder", e.Path, e.Folder)
}

// IsFolderError is a path to write a file to that is a folder.
type IsFolderError struct {
	Path string
}

func (e *IsFolderError) Error() string {
	return fmt.Sprintf("%s is an existing folder, not a file", e.Path)
}

// WriteError is a write in the workspace that the system refused. Its text
// says what is wrong with the path in words, without the system call that
// failed (renameat, openat), which tells a user nothing; Err keeps the
// cause for errors.Is.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return e.Path + " cannot be written: " + reason(e.Err) }

func (e *WriteError) Unwrap() error { return e.Err }

// reason says in words why the system refused a write.
func reason(err error) string {
	switch {
	case errors.Is(err, syscall.ENOTEMPTY):
		return "a folder that is not empty is in its place"
	case errors.Is(err, syscall.EISDIR), errors.Is(err, fs.ErrExist):
		// A file renamed over a file replaces it: only a folder is in the way.
		return "a folder is in its place"
	case errors.Is(err, syscall.ENOTDIR):
		return "a part of the path is a file, not a folder"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied (the run's user may not write there)"
	case errors.Is(err, syscall.EROFS):
		return "the file system is read-only"
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "no space left on the disk"
	case errors.Is(err, syscall.ENAMETOOLONG):
		return "a name in the path is too long"
	}
	// The system's own words, without the call and paths around them.
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &le):
		return le.Err.Error()
	case errors.As(err, &se):
		return se.Err.Error()
	}
	return err.Error()
}

// writeErr describes a failed write of name: a refusal to leave the
// workspace stays an *OutsideError, an error of this package stays as it
// is, and what the system refused becomes a *WriteError.
func (w *Workspace) writeErr(name string, err error) error {
	if err == nil {
		return nil
	}
	err = w.explain(name, err)
	var oe *OutsideError
	var nf *NotFolderError
	var isf *IsFolderError
	if errors.As(err, &nf) && nf.Path == "" {
		nf.Path = name
	}
	var we *WriteError
	if errors.As(err, &oe) || errors.As(err, &nf) || errors.As(err, &isf) || errors.As(err, &we) {
		return err
	}
	return &WriteError{Path: name, Err: err}
}

// CheckFile checks, before anything is written, that a file can be written
// at name: writing it stays inside the workspace (CheckWritable), name is
// not a folder, no folder on its way is a file, and the system lets the run
// make it (see probe).
func (w *Workspace) CheckFile(name string) error {
	if err := w.CheckWritable(name); err != nil {
		return err
	}
	if st, err := w.root.Stat(name); err == nil && st.IsDir() {
		return &IsFolderError{Path: name}
	}
	return w.probe(name, false)
}

// CheckFolder is CheckFile for a folder to write at name, which must not
// exist or be an empty folder (IsEmptyOrAbsent says which).
func (w *Workspace) CheckFolder(name string) error {
	if err := w.CheckWritable(name); err != nil {
		return err
	}
	return w.probe(name, true)
}

// probe makes what writing name will make, and removes it at once: the
// folders on its way that do not exist, then name itself (a folder when
// folder is true), or, when name exists, a temporary file beside it, as an
// atomic write does. So a name too long, a folder the run may not write in
// or a read-only disk are found before anything is sent.
func (w *Workspace) probe(name string, folder bool) error {
	dir, err := w.nearestFolder(name)
	if err != nil {
		return err
	}
	var missing []string // the folders to make, outermost first
	for d := path.Dir(name); d != dir; d = path.Dir(d) {
		missing = append([]string{d}, missing...)
	}
	made := "" // the outermost folder made, removed with all below it
	defer func() {
		if made != "" {
			w.root.RemoveAll(made)
		}
	}()
	for _, d := range missing {
		if err := w.root.Mkdir(d, 0o700); err != nil {
			return w.writeErr(name, err)
		}
		if made == "" {
			made = d
		}
	}
	target := name
	if _, err := w.root.Lstat(name); err == nil {
		target, folder = tempName(name), false
	}
	if folder {
		err = w.root.Mkdir(target, 0o700)
	} else {
		var fh *os.File
		if fh, err = w.root.OpenFile(target, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			fh.Close()
		}
	}
	if err != nil {
		return w.writeErr(name, err)
	}
	return w.writeErr(name, w.root.Remove(target))
}

// nearestFolder is the nearest of name's folders that exists. One on the
// way that is a file is a *NotFolderError.
func (w *Workspace) nearestFolder(name string) (string, error) {
	for dir := path.Dir(name); ; dir = path.Dir(dir) {
		st, err := w.root.Stat(dir)
		switch {
		case err == nil && !st.IsDir():
			return "", &NotFolderError{Path: name, Folder: dir}
		case err == nil:
			return dir, nil
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return "", w.writeErr(name, err) // ENOTDIR: a file further up, found there
		}
		if dir == "." {
			return ".", nil
		}
	}
}
