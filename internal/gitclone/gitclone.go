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
	"strings"
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

// Open implements fs.FS. Symbolic links are followed as a checkout would
// follow them, as long as they stay inside the repository and do not lead
// to a hidden file or folder (a name with a leading dot, where tools keep
// credentials) that name did not name itself; then only a regular file
// opens: a folder, a submodule, or a link that leads out is a
// *NotRegularError.
func (f *Files) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	real, e, err := f.resolve(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if hidden(real) && !hidden(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{"symbolic link to " + real + ", a hidden file"}}
	}
	switch e.Mode {
	case filemode.Regular, filemode.Executable, filemode.Deprecated:
	case filemode.Dir:
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{"folder"}}
	default:
		return nil, &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{"submodule"}}
	}
	file, err := f.tree.TreeEntryFile(e)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &blobFile{f: file, name: path.Base(name), when: f.when}, nil
}

// maxHops bounds the links followed for one path.
const maxHops = 40

// resolve follows the links on name's way, each relative to its folder,
// and gives the path reached and its entry.
func (f *Files) resolve(name string) (string, *object.TreeEntry, error) {
	parts := strings.Split(name, "/")
	resolved := ""
	var e *object.TreeEntry
	for hops := 0; len(parts) > 0; {
		p := parts[0]
		parts = parts[1:]
		switch p {
		case "", ".":
			continue
		case "..":
			if resolved == "" {
				return "", nil, &NotRegularError{"symbolic link that leads out of the repository"}
			}
			resolved = path.Dir(resolved)
			if resolved == "." {
				resolved = ""
			}
			continue
		}
		next := path.Join(resolved, p)
		var err error
		if e, err = f.tree.FindEntry(next); err != nil {
			if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
				err = fs.ErrNotExist
			}
			return "", nil, err
		}
		if e.Mode != filemode.Symlink {
			resolved = next
			continue
		}
		if hops++; hops > maxHops {
			return "", nil, &NotRegularError{"chain of more than 40 symbolic links"}
		}
		target, err := f.linkTarget(e)
		if err != nil {
			return "", nil, err
		}
		if path.IsAbs(target) {
			return "", nil, &NotRegularError{"symbolic link that leads out of the repository"}
		}
		parts = append(strings.Split(target, "/"), parts...)
	}
	if e == nil {
		return "", nil, fs.ErrNotExist
	}
	return resolved, e, nil
}

// linkTarget is what a link entry points at.
func (f *Files) linkTarget(e *object.TreeEntry) (string, error) {
	file, err := f.tree.TreeEntryFile(e)
	if err != nil {
		return "", err
	}
	if file.Size > 4096 {
		return "", &NotRegularError{"symbolic link with a target too long"}
	}
	return file.Contents()
}

// hidden says whether a path has a part with a leading dot.
func hidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
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
