// Package gitclone reads a commit's files from a local clone, as a file
// system the description loader can be given. The action's image has no git
// program, so the repository is read with github.com/go-git/go-git.
package gitclone

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ErrNoCommit is a commit the clone does not hold, as in a shallow clone
// (actions/checkout fetches one commit by default).
var ErrNoCommit = errors.New("the commit is not in the local clone")

// NotRegularError is a path of the commit that is not a regular file: a
// folder, a symbolic link or a submodule.
type NotRegularError struct {
	Kind string
}

func (e *NotRegularError) Error() string {
	return "is a " + e.Kind + ", not a regular file"
}

// Files is the tree of one commit, read-only, by slash paths relative to the
// repository's top folder.
type Files struct {
	tree *object.Tree
	when time.Time
}

// Commit opens the clone whose top folder is dir and returns the files of
// the commit sha (a full 40-digit hex id). It is ErrNoCommit when the clone
// does not hold that commit.
func Commit(dir, sha string) (*Files, error) {
	if !plumbing.IsHash(sha) {
		return nil, fmt.Errorf("%q is not a commit id", sha)
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, err
	}
	c, err := repo.CommitObject(plumbing.NewHash(sha))
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, ErrNoCommit
	}
	if err != nil {
		return nil, err
	}
	tree, err := c.Tree()
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		// A shallow or partial clone may hold the commit but not its tree.
		return nil, ErrNoCommit
	}
	if err != nil {
		return nil, err
	}
	return &Files{tree: tree, when: c.Committer.When}, nil
}

// Open implements fs.FS. Only regular files open: a folder, a link or a
// submodule is a *NotRegularError, as a link in a commit could lead anywhere.
func (f *Files) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	e, err := f.tree.FindEntry(name)
	if err != nil {
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			err = fs.ErrNotExist
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	switch e.Mode {
	case filemode.Regular, filemode.Executable, filemode.Deprecated:
	case filemode.Dir:
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{"folder"}}
	case filemode.Symlink:
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{"symbolic link"}}
	default:
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{"submodule"}}
	}
	file, err := f.tree.TreeEntryFile(e)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &blobFile{f: file, name: path.Base(name), when: f.when}, nil
}

// blobFile is an open file of the commit; its content is read on first Read.
type blobFile struct {
	f    *object.File
	name string
	when time.Time
	r    io.ReadCloser
}

func (b *blobFile) Stat() (fs.FileInfo, error) { return b, nil }

func (b *blobFile) Read(p []byte) (int, error) {
	if b.r == nil {
		r, err := b.f.Reader()
		if err != nil {
			return 0, err
		}
		b.r = r
	}
	return b.r.Read(p)
}

func (b *blobFile) Close() error {
	if b.r != nil {
		return b.r.Close()
	}
	return nil
}

// fs.FileInfo of a blob.
func (b *blobFile) Name() string       { return b.name }
func (b *blobFile) Size() int64        { return b.f.Size }
func (b *blobFile) Mode() fs.FileMode  { return 0o444 }
func (b *blobFile) ModTime() time.Time { return b.when }
func (b *blobFile) IsDir() bool        { return false }
func (b *blobFile) Sys() any           { return nil }
