package openapi

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// The rules for the files a $ref may name. A description comes from whoever
// can open a pull request, and everything it names is read and published:
// only files inside the description's file system (the workspace), and none
// that is hidden (a name with a leading dot, as .git, .env, .netrc, .kube:
// where tools keep credentials), as written or as links lead.

// refFile resolves the file part of a $ref written in from (a slash path)
// and checks it against the rules, returning the cause and why on refusal.
func refFile(from, file string) (string, error) {
	if isFileURL(file) {
		return "", &ruleError{ErrOutside, "is a file: URL, which names a file by its absolute path: refs must be relative paths to files inside the workspace"}
	}
	if path.IsAbs(file) || filepath.IsAbs(file) || filepath.VolumeName(file) != "" {
		return "", &ruleError{ErrOutside, "names an absolute path: refs must be relative paths to files inside the workspace"}
	}
	p := path.Join(path.Dir(from), file)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", &ruleError{ErrOutside, "leaves the workspace: refs must name files inside it"}
	}
	if h := hidden(p); h != "" {
		return "", &ruleError{ErrNotAllowed, fmt.Sprintf("names a hidden file or folder (%s), where tools keep credentials: refused; give it a name without a leading dot", h)}
	}
	return p, nil
}

// hidden returns the first segment of p that is hidden, or "".
var hidden = namerule.Hidden

// ruleError is a $ref refused by a rule, with the rule's cause.
type ruleError struct {
	cause error
	why   string
}

func (e *ruleError) Error() string { return e.why }
func (e *ruleError) Unwrap() error { return e.cause }

// RealPather is a file system that can tell where a path leads through
// symbolic links (the workspace can).
type RealPather interface {
	RealPath(name string) (string, error)
}

// checkOpened checks, once name is open, that the file open is where name
// leads now, and is not hidden: a link swapped between checkRealPath and the
// open cannot slip a hidden file in.
func checkOpened(fsys fs.FS, name string, opened fs.FileInfo) error {
	rp, ok := fsys.(RealPather)
	if !ok {
		return nil
	}
	real, err := rp.RealPath(name)
	if err != nil {
		return err
	}
	if h := hidden(real); h != "" && hidden(name) == "" {
		return &ruleError{ErrNotAllowed, fmt.Sprintf("%s leads through a symbolic link to %s, a hidden file or folder (%s) where tools keep credentials: refused", name, real, h)}
	}
	now, err := fs.Stat(fsys, real)
	if err != nil {
		return err
	}
	if !os.SameFile(opened, now) {
		return &ruleError{ErrNotAllowed, fmt.Sprintf("%s changed while it was opened (a symbolic link on its way was swapped): refused", name)}
	}
	return nil
}

// checkRealPath refuses a path that leads, through links, to a hidden file
// or folder, when fsys can tell where paths lead.
func checkRealPath(fsys fs.FS, name string) error {
	rp, ok := fsys.(RealPather)
	if !ok {
		return nil
	}
	real, err := rp.RealPath(name)
	if err != nil || real == name {
		return nil // reading it says what is wrong
	}
	if h := hidden(real); h != "" && hidden(name) == "" {
		return &ruleError{ErrNotAllowed, fmt.Sprintf("%s leads through a symbolic link to %s, a hidden file or folder (%s) where tools keep credentials: refused", name, real, h)}
	}
	return nil
}
