package gitclone

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/gitclone/gitclonetest"
)

// repo makes a repository with git, the way actions/checkout leaves one: two
// commits, the first holding a description, a file it refers to, a folder,
// and a symbolic link that leads out.
func repo(t *testing.T) (dir, first, second string) {
	t.Helper()
	dir = t.TempDir()
	git := gitclonetest.Git(t, dir)
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("api/openapi.yaml", "openapi: 3.0.3\n")
	write("api/common/params.yaml", "limit: {}\n")
	write(".env", "TOKEN=secret\n")
	for link, target := range map[string]string{
		"api/passwd.yaml": "/etc/passwd",        // out, absolute
		"api/up.yaml":     "../../outside.yaml", // out, relative
		"api/v1.yaml":     "openapi.yaml",       // a file beside it
		"api/shared":      "common",             // a folder beside it
		"api/env.yaml":    "../.env",            // a hidden file of the repository
		"api/loop.yaml":   "loop.yaml",          // itself
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	first = git("rev-parse", "HEAD")
	write("api/openapi.yaml", "openapi: 3.1.0\n")
	git("commit", "-q", "-am", "second")
	second = git("rev-parse", "HEAD")
	return dir, first, second
}

func TestCommitFiles(t *testing.T) {
	t.Parallel()
	dir, first, second := repo(t)
	old, err := Commit(dir, dir, first)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := Commit(dir, dir, second)
	if err != nil {
		t.Fatal(err)
	}
	read := func(fsys fs.FS, name string) (string, error) {
		data, err := fs.ReadFile(fsys, name)
		return string(data), err
	}
	if got, err := read(old, "api/openapi.yaml"); err != nil || got != "openapi: 3.0.3\n" {
		t.Errorf("first commit's description: %q, %v", got, err)
	}
	if got, err := read(cur, "api/openapi.yaml"); err != nil || got != "openapi: 3.1.0\n" {
		t.Errorf("second commit's description: %q, %v", got, err)
	}
	if got, err := read(old, "api/common/params.yaml"); err != nil || got != "limit: {}\n" {
		t.Errorf("a file in a folder: %q, %v", got, err)
	}
	// Links inside the repository are followed, as a checkout follows them.
	if got, err := read(old, "api/v1.yaml"); err != nil || got != "openapi: 3.0.3\n" {
		t.Errorf("a link to a file beside it: %q, %v", got, err)
	}
	if got, err := read(old, "api/shared/params.yaml"); err != nil || got != "limit: {}\n" {
		t.Errorf("a file through a linked folder: %q, %v", got, err)
	}
	f, err := old.Open("api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stat(); st.Size() != int64(len("openapi: 3.0.3\n")) || st.IsDir() || !st.Mode().IsRegular() {
		t.Errorf("stat: size %d, dir %v, mode %v", st.Size(), st.IsDir(), st.Mode())
	}
	f.Close()

	cases := []struct {
		name string
		want func(error) bool
	}{
		{"api/missing.yaml", func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
		{"nowhere/missing.yaml", func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
		{"api/common", func(err error) bool { var nr *NotRegularError; return errors.As(err, &nr) && nr.Kind == "folder" }},
		{"api/passwd.yaml", func(err error) bool {
			var nr *NotRegularError
			return errors.As(err, &nr) && strings.Contains(nr.Kind, "leads out of the repository")
		}},
		{"api/up.yaml", func(err error) bool {
			var nr *NotRegularError
			return errors.As(err, &nr) && strings.Contains(nr.Kind, "leads out of the repository")
		}},
		{"api/env.yaml", func(err error) bool {
			var nr *NotRegularError
			return errors.As(err, &nr) && strings.Contains(nr.Kind, "hidden")
		}},
		{"api/loop.yaml", func(err error) bool { var nr *NotRegularError; return errors.As(err, &nr) }},
		{"../etc/passwd", func(err error) bool { return errors.Is(err, fs.ErrInvalid) }},
		{"/etc/passwd", func(err error) bool { return errors.Is(err, fs.ErrInvalid) }},
		{".", func(err error) bool { return errors.Is(err, fs.ErrInvalid) }},
	}
	for _, tc := range cases {
		f, err := old.Open(tc.name)
		if err == nil {
			data, _ := io.ReadAll(f)
			t.Errorf("%s opened, holding %q", tc.name, data)
			continue
		}
		if !tc.want(err) {
			t.Errorf("%s: unexpected error %v", tc.name, err)
		}
	}
}

func TestCommitNotInTheClone(t *testing.T) {
	t.Parallel()
	dir, first, second := repo(t)
	if _, err := Commit(dir, dir, strings.Repeat("ab", 20)); !errors.Is(err, ErrNoCommit) {
		t.Errorf("an unknown commit: %v, want ErrNoCommit", err)
	}
	// A shallow clone, as actions/checkout makes by default, holds only the
	// newest commit.
	shallow := filepath.Join(t.TempDir(), "shallow")
	out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+dir, shallow).CombinedOutput()
	if err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if _, err := Commit(shallow, shallow, first); !errors.Is(err, ErrNoCommit) {
		t.Errorf("the parent in a shallow clone: %v, want ErrNoCommit", err)
	}
	if _, err := Commit(shallow, shallow, second); err != nil {
		t.Errorf("the commit a shallow clone holds: %v", err)
	}
	if _, err := Commit(dir, dir, "main"); err == nil || errors.Is(err, ErrNoCommit) {
		t.Errorf("a branch name: %v, want an error that it is not a commit id", err)
	}
	if _, err := Commit(os.TempDir(), t.TempDir(), second); err == nil || errors.Is(err, ErrNoCommit) {
		t.Errorf("a folder that is no clone: %v", err)
	}
}

// TestNoClone: a workspace without a .git folder is ErrNoRepository.
func TestNoClone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := Commit(dir, dir, "0123456789abcdef0123456789abcdef01234567")
	if !errors.Is(err, ErrNoRepository) {
		t.Errorf("err = %v, want ErrNoRepository", err)
	}
}
