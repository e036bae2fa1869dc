package gitclone

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/gitclone/gitclonetest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// outsider makes a repository outside the workspace whose only commit
// holds api/openapi.yaml, and returns its folder and the commit.
func outsider(t *testing.T) (dir, sha string) {
	t.Helper()
	dir = t.TempDir()
	git := gitclonetest.Git(t, dir)
	git("init", "-q")
	os.MkdirAll(filepath.Join(dir, "api"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "api", "openapi.yaml"), []byte("outside: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "outside")
	return dir, git("rev-parse", "HEAD")
}

// TestGitDataElsewhereIsNotFollowed: a workspace whose clone would send the
// reader to another repository on the machine gives the outside commit's
// files in no case.
func TestGitDataElsewhereIsNotFollowed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// plant makes the workspace ws lead to the outside repository.
		plant func(t *testing.T, ws, out string)
		// root is the workspace given to Commit, ws when empty.
		root func(ws string) string
		want func(error) bool
	}{
		{
			name: ".git file naming a git folder outside",
			plant: func(t *testing.T, ws, out string) {
				os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: "+filepath.Join(out, ".git")+"\n"), 0o644)
			},
			want: elsewhere(".git is a file"),
		},
		{
			name: ".git file naming a git folder by a relative path",
			plant: func(t *testing.T, ws, out string) {
				rel, _ := filepath.Rel(ws, filepath.Join(out, ".git"))
				os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: "+rel+"\n"), 0o644)
			},
			want: elsewhere(".git is a file"),
		},
		{
			name: ".git a link to a git folder outside",
			plant: func(t *testing.T, ws, out string) {
				os.Symlink(filepath.Join(out, ".git"), filepath.Join(ws, ".git"))
			},
			want: elsewhere("symbolic link"),
		},
		{
			name: "objects borrowed through objects/info/alternates",
			plant: func(t *testing.T, ws, out string) {
				gitclonetest.Git(t, ws)("init", "-q")
				os.MkdirAll(filepath.Join(ws, ".git", "objects", "info"), 0o755)
				os.WriteFile(filepath.Join(ws, ".git", "objects", "info", "alternates"), []byte(filepath.Join(out, ".git", "objects")+"\n"), 0o644)
			},
			want: elsewhere("alternates"),
		},
		{
			name: "objects kept in another git folder through commondir",
			plant: func(t *testing.T, ws, out string) {
				gitclonetest.Git(t, ws)("init", "-q")
				os.WriteFile(filepath.Join(ws, ".git", "commondir"), []byte(filepath.Join(out, ".git")+"\n"), 0o644)
			},
			want: elsewhere("commondir"),
		},
		{
			name: "a link inside .git that leads out",
			plant: func(t *testing.T, ws, out string) {
				gitclonetest.Git(t, ws)("init", "-q")
				objects := filepath.Join(ws, ".git", "objects")
				os.RemoveAll(objects)
				os.Symlink(filepath.Join(out, ".git", "objects"), objects)
			},
			// The link resolves inside .git, where there is no such object.
			want: func(err error) bool { return errors.Is(err, ErrNoCommit) },
		},
		{
			name: "a clone outside the workspace",
			plant: func(t *testing.T, ws, out string) {
				gitclonetest.Git(t, ws)("init", "-q")
			},
			root: func(ws string) string { return filepath.Join(ws, "sub") },
			want: elsewhere("outside the workspace"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, sha := outsider(t)
			ws := t.TempDir()
			tc.plant(t, ws, out)
			root := ws
			if tc.root != nil {
				root = tc.root(ws)
				os.MkdirAll(root, 0o755)
			}
			files, err := Commit(root, ws, sha)
			if err == nil {
				data, rerr := fs.ReadFile(files, "api/openapi.yaml")
				t.Fatalf("the outside commit was read: %q, %v", data, rerr)
			}
			if !tc.want(err) {
				t.Fatalf("unexpected error: %v", err)
			}
			if strings.Contains(err.Error(), out) {
				t.Errorf("the error names the outside repository: %v", err)
			}
		})
	}
}

func elsewhere(what string) func(error) bool {
	return func(err error) bool {
		var e *ElsewhereError
		return errors.As(err, &e) && errors.Is(err, ErrRefused) && strings.Contains(e.Error(), what)
	}
}

// TestPackedClone: a clone whose objects are packed (as a fetch leaves
// them) is read through the packs.
func TestPackedClone(t *testing.T) {
	t.Parallel()
	dir, first, _ := repo(t)
	gitclonetest.Git(t, dir)("gc", "-q")
	if m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack")); len(m) == 0 {
		t.Fatal("git gc left no pack")
	}
	files, err := Commit(dir, dir, first)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fs.ReadFile(files, "api/openapi.yaml"); err != nil || string(got) != "openapi: 3.0.3\n" {
		t.Errorf("%q, %v", got, err)
	}
}

// TestObjectBombsAreRefused: a loose object that claims more than an object
// may hold, or inflates past what its header claims, is refused before it
// is read whole. Not parallel: it measures what the process allocates.
func TestObjectBombsAreRefused(t *testing.T) {
	testenv.Long(t) // inflates 64 MiB
	const inflated = 64 << 20
	cases := []struct {
		name        string
		claim, real int64
		wantSize    int64
	}{
		// The header claims 3 GB; what follows is small, so a reader that
		// trusts the stream over the header would read it without harm.
		{"a claim of 3 GB", 3 << 30, 1 << 20, 3 << 30},
		// The header claims 10 bytes; the stream inflates to 64 MiB.
		{"more than the header claims", 10, inflated, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, first, _ := repo(t)
			git := gitclonetest.Git(t, dir)
			blob := git("rev-parse", first+":api/openapi.yaml")
			gitclonetest.Bomb(t, dir, blob, "blob", tc.claim, tc.real)

			files, err := Commit(dir, dir, first)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			data, err := fs.ReadFile(files, "api/openapi.yaml")
			runtime.ReadMemStats(&after)
			var tl *TooLargeError
			if !errors.As(err, &tl) || !errors.Is(err, ErrRefused) || tl.Hash != blob || tl.Size != tc.wantSize {
				t.Fatalf("read %d bytes, error %v; want a *TooLargeError for %s claiming %d", len(data), err, blob, tc.wantSize)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
				t.Errorf("reading the bomb allocated %d MiB", got>>20)
			}
		})
	}

	// A bomb in place of the commit itself is refused when the commit is.
	dir, first, _ := repo(t)
	gitclonetest.Bomb(t, dir, first, "commit", 3<<30, 1<<10)
	var tl *TooLargeError
	if _, err := Commit(dir, dir, first); !errors.As(err, &tl) || !strings.Contains(err.Error(), "more than the 128 MiB") {
		t.Errorf("a bomb in place of the commit: %v", err)
	}
}
