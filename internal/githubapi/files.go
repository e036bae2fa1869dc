package githubapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"sync"
	"time"
)

// NotRegularError is a path of the commit that is not a regular file: a
// folder, a symbolic link that leads out of the repository, or a submodule.
type NotRegularError struct {
	Kind string
}

func (e *NotRegularError) Error() string { return "is a " + e.Kind + ", not a regular file" }

// TooManyFilesError is a read past the files a Files may fetch.
type TooManyFilesError struct {
	Max int
}

func (e *TooManyFilesError) Error() string {
	return fmt.Sprintf("more than %d files would be fetched through GitHub's API", e.Max)
}

// Files is a commit's files, fetched through the contents API as they are
// opened: the base of a pull request, without a clone that holds it. Each
// file opened is one request (two for a file over 1 MB), so a Files fetches
// at most MaxFiles files, each at most MaxFileBytes long.
type Files struct {
	ctx          context.Context
	c            *Client
	sha          string
	MaxFiles     int
	MaxFileBytes int64

	mu      sync.Mutex
	fetched int
	checked error // the commit's check, once made
	once    sync.Once
}

// ErrNoCommit is a commit the repository does not hold (a force-push
// dropped it, or the event named another repository's).
var ErrNoCommit = errors.New("the repository has no such commit")

// checkCommit makes sure, once, that the commit exists: the contents API
// answers 404 alike for a file the commit lacks and for a commit that does
// not exist, and only the first means the description is new.
func (f *Files) checkCommit() error {
	f.once.Do(func() {
		var commit struct {
			SHA string `json:"sha"`
		}
		_, err := f.c.getJSON(f.ctx, request{method: http.MethodGet, path: f.c.repoPath("git", "commits", f.sha)}, &commit)
		var ae *APIError
		switch {
		case errors.As(err, &ae) && (ae.Status == http.StatusNotFound || ae.Status == http.StatusUnprocessableEntity):
			f.checked = fmt.Errorf("%w: %s", ErrNoCommit, f.sha)
		case err != nil:
			f.checked = err
		}
	})
	return f.checked
}

// Files is commit sha's files. The context bounds every fetch: fs.FS has
// no context of its own.
func (c *Client) Files(ctx context.Context, sha string) *Files {
	return &Files{ctx: ctx, c: c, sha: sha, MaxFiles: 500, MaxFileBytes: 128 << 20}
}

// Open implements fs.FS: it fetches the file. A folder, a symbolic link
// that leads out of the repository or a submodule is a *NotRegularError
// (GitHub follows a link to a file of the repository itself), and a path
// the commit does not hold is fs.ErrNotExist.
func (f *Files) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f.mu.Lock()
	f.fetched++
	over := f.fetched > f.MaxFiles
	f.mu.Unlock()
	if over {
		return nil, &fs.PathError{Op: "open", Path: name, Err: &TooManyFilesError{f.MaxFiles}}
	}
	if err := f.checkCommit(); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	data, size, err := f.fetch(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &memFile{Reader: bytes.NewReader(data), name: path.Base(name), size: size}, nil
}

// content is a file as the contents API describes it.
type content struct {
	Type     string `json:"type"`
	Size     int64  `json:"size"`
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// fetch reads one file: its metadata, with the content inline up to 1 MB,
// and the raw content when it is larger.
func (f *Files) fetch(name string) ([]byte, int64, error) {
	var raw json.RawMessage
	_, err := f.c.getJSON(f.ctx, request{method: http.MethodGet, path: f.c.repoPath("contents", name),
		query: url.Values{"ref": {f.sha}}}, &raw)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		return nil, 0, fs.ErrNotExist
	}
	if err != nil {
		return nil, 0, err
	}
	var file content
	if len(raw) > 0 && raw[0] == '[' {
		return nil, 0, &NotRegularError{"folder"}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, 0, fmt.Errorf("GitHub's answer for %s is not the JSON expected: %w", name, err)
	}
	switch file.Type {
	case "file":
	case "symlink":
		return nil, 0, &NotRegularError{"symbolic link"}
	case "submodule":
		return nil, 0, &NotRegularError{"submodule"}
	default:
		return nil, 0, &NotRegularError{fmt.Sprintf("%q", file.Type)}
	}
	if file.Size > f.MaxFileBytes {
		// The loader refuses it by its size; nothing more is fetched.
		return nil, file.Size, nil
	}
	if file.Encoding == "base64" {
		data, err := base64.StdEncoding.DecodeString(stripNewlines(file.Content))
		if err != nil {
			return nil, 0, fmt.Errorf("GitHub's answer for %s holds content that is not base64: %w", name, err)
		}
		return data, int64(len(data)), nil
	}
	data, err := f.raw(name)
	return data, int64(len(data)), err
}

// raw fetches a file's bytes as they are (the contents API gives a file
// over 1 MB only this way), at most MaxFileBytes+1 of them.
func (f *Files) raw(name string) ([]byte, error) {
	var buf bytes.Buffer
	_, err := f.c.do(f.ctx, request{method: http.MethodGet, path: f.c.repoPath("contents", name),
		query: url.Values{"ref": {f.sha}}, accept: "application/vnd.github.raw+json", into: &buf, max: f.MaxFileBytes})
	if errors.Is(err, errCapped) {
		err = nil // over the limit: the loader refuses the file by its size
	}
	return buf.Bytes(), err
}

// stripNewlines removes the line breaks GitHub writes into base64 content.
func stripNewlines(s string) string {
	return string(bytes.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, []byte(s)))
}

// memFile is a fetched file.
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m, nil }
func (m *memFile) Close() error               { return nil }
func (m *memFile) Name() string               { return m.name }
func (m *memFile) Size() int64                { return m.size }
func (m *memFile) Mode() fs.FileMode          { return 0o444 }
func (m *memFile) ModTime() time.Time         { return time.Time{} }
func (m *memFile) IsDir() bool                { return false }
func (m *memFile) Sys() any                   { return nil }
