// Package gitclone reads a commit's files from a local clone, as a file
// system the description loader can be given. The action's image has no git
// program, so the repository is read with github.com/go-git/go-git.
package gitclone

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// ErrNoRepository is a workspace that holds no clone: no .git folder.
var ErrNoRepository = errors.New("no git repository in the workspace")

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

// ErrRefused is what every refusal of a clone's data is (errors.Is): an
// *ElsewhereError or a *TooLargeError. Such a clone is not read: its data
// may have been planted, unlike a clone that merely lacks a commit.
var ErrRefused = errors.New("the local clone is refused")

// ElsewhereError is a clone whose git data would be read from outside the
// workspace, or from places a clone of the workspace's own does not use: a
// .git that is a file or a link, objects borrowed from another repository.
// None of it is followed. It names no path outside the workspace.
type ElsewhereError struct {
	// What says what leads out, as "its .git is a file".
	What string
}

func (e *ElsewhereError) Error() string {
	return e.What + ", and git data outside the workspace's own .git folder is not read"
}

func (e *ElsewhereError) Is(target error) bool { return target == ErrRefused }

// TooLargeError is an object of the clone that holds more than MaxObjectBytes
// once inflated (or more than its own header says): a damaged object, or one
// made to exhaust memory. It is refused before it is read whole.
type TooLargeError struct {
	Hash string
	// Size is the size the object claims, or -1 when it inflates past the
	// size its header claims.
	Size int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("object %s of the local clone inflates past the size its header gives, so it is not read: the clone is damaged", e.Hash)
	}
	return fmt.Sprintf("object %s of the local clone holds %d bytes, more than the %d MiB an object may hold here, so it is not read", e.Hash, e.Size, MaxObjectBytes>>20)
}

func (e *TooLargeError) Is(target error) bool { return target == ErrRefused }

// MaxObjectBytes bounds one object of the clone, inflated: as much as the
// description loader reads from one file.
const MaxObjectBytes = 128 << 20

// Files is the tree of one commit, read-only, by slash paths relative to the
// repository's top folder.
type Files struct {
	tree *object.Tree
	when time.Time
}

// Commit opens the clone whose top folder is dir, inside the workspace root,
// and returns the files of the commit sha (a full 40-digit hex id). It is
// ErrNoCommit when the clone does not hold that commit, and an
// *ElsewhereError when the clone's git data is not a folder of its own
// inside root. Objects are read with a cap: a larger one is a
// *TooLargeError. A .git file is refused even where it leads inside root
// (a submodule's does): the base then comes from elsewhere, which costs a
// request, not a wrong answer.
func Commit(root, dir, sha string) (*Files, error) {
	if !plumbing.IsHash(sha) {
		return nil, fmt.Errorf("%q is not a commit id", sha)
	}
	s, err := open(root, dir)
	if err != nil {
		return nil, err
	}
	c, err := object.GetCommit(s, plumbing.NewHash(sha))
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

// open checks that dir's .git is a folder of its own inside root, with
// nothing in it that sends a reader elsewhere, and opens its objects.
func open(root, dir string) (*objects, error) {
	gitDir := filepath.Join(dir, ".git")
	st, err := os.Lstat(gitDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrNoRepository
	case err != nil:
		return nil, err
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, &ElsewhereError{"its .git is a symbolic link"}
	case st.Mode().IsRegular():
		// git worktree and submodules leave a file that names the git
		// folder, which may be anywhere on the machine.
		return nil, &ElsewhereError{"its .git is a file that names a git folder elsewhere, as a worktree or a submodule has"}
	case !st.IsDir():
		return nil, &ElsewhereError{"its .git is not a folder"}
	}
	if ok, err := inside(root, gitDir); err != nil {
		return nil, err
	} else if !ok {
		return nil, &ElsewhereError{"it lies outside the workspace"}
	}
	for _, p := range []struct{ name, what string }{
		{"objects/info/alternates", "it borrows objects from another repository (objects/info/alternates)"},
		{"objects/info/http-alternates", "it borrows objects from another repository (objects/info/http-alternates)"},
		{"commondir", "it keeps its objects in another git folder (commondir)"},
	} {
		if _, err := os.Lstat(filepath.Join(gitDir, filepath.FromSlash(p.name))); err == nil {
			return nil, &ElsewhereError{p.what}
		}
	}
	// Bound to the .git folder: a link inside it resolves within it.
	bound := osfs.New(gitDir, osfs.WithBoundOS())
	return &objects{
		fs: bound,
		// An alternates file planted after the check above finds an empty
		// file system.
		packed: filesystem.NewStorageWithOptions(bound, cache.NewObjectLRUDefault(), filesystem.Options{AlternatesFS: memfs.New()}),
		cache:  cache.NewObjectLRUDefault(),
	}, nil
}

// inside says whether p, its links resolved, is root or below it.
func inside(root, p string) (bool, error) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false, err
	}
	q, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(r, q)
	if err != nil {
		return false, nil
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))), nil
}

// objects reads a clone's objects with a cap on each. Loose objects are
// inflated here, never past the size their header gives; packed ones are
// read by go-git, which stops at the size the pack gives, once that size
// is checked.
type objects struct {
	fs     billy.Filesystem
	packed *filesystem.Storage
	cache  cache.Object
}

func (o *objects) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, ok := o.cache.Get(h)
	if !ok {
		var err error
		if obj, err = o.loose(h); errors.Is(err, fs.ErrNotExist) {
			obj, err = o.fromPack(h)
		}
		if err != nil {
			return nil, err
		}
		o.cache.Put(obj)
	}
	if t != plumbing.AnyObject && obj.Type() != t {
		return nil, plumbing.ErrObjectNotFound
	}
	return obj, nil
}

// loose reads a loose object; fs.ErrNotExist when there is none.
func (o *objects) loose(h plumbing.Hash) (obj plumbing.EncodedObject, err error) {
	hex := h.String()
	f, err := o.fs.Open(path.Join("objects", hex[:2], hex[2:]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := objfile.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("object %s of the local clone: %w", hex, err)
	}
	defer r.Close()
	t, size, err := r.Header()
	if err != nil {
		return nil, fmt.Errorf("object %s of the local clone: %w", hex, err)
	}
	if size > MaxObjectBytes {
		return nil, &TooLargeError{Hash: hex, Size: size}
	}
	m := &plumbing.MemoryObject{}
	m.SetType(t)
	n, err := io.Copy(m, io.LimitReader(r, size+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("object %s of the local clone: %w", hex, err)
	case n > size:
		return nil, &TooLargeError{Hash: hex, Size: -1}
	case n < size || r.Hash() != h:
		return nil, fmt.Errorf("object %s of the local clone is damaged", hex)
	}
	return m, nil
}

// fromPack reads an object from the clone's packs, once the size the pack
// gives is checked.
func (o *objects) fromPack(h plumbing.Hash) (plumbing.EncodedObject, error) {
	size, err := o.packed.EncodedObjectSize(h)
	if err != nil {
		return nil, err
	}
	if size > MaxObjectBytes {
		return nil, &TooLargeError{Hash: h.String(), Size: size}
	}
	return o.packed.EncodedObject(plumbing.AnyObject, h)
}

// The rest of storer.EncodedObjectStorer: the clone is only read.

func (o *objects) NewEncodedObject() plumbing.EncodedObject { return &plumbing.MemoryObject{} }

func (o *objects) SetEncodedObject(plumbing.EncodedObject) (plumbing.Hash, error) {
	return plumbing.ZeroHash, errReadOnly
}

func (o *objects) IterEncodedObjects(plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	return nil, errReadOnly
}

func (o *objects) HasEncodedObject(h plumbing.Hash) error {
	_, err := o.EncodedObject(plumbing.AnyObject, h)
	return err
}

func (o *objects) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	obj, err := o.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, err
	}
	return obj.Size(), nil
}

func (o *objects) AddAlternate(string) error { return errReadOnly }

var errReadOnly = errors.New("the local clone is only read")

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
func hidden(p string) bool { return namerule.Hidden(p) != "" }

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
