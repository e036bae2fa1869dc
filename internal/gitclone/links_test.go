package gitclone

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/gitclone/gitclonetest"
	"github.com/go-git/go-git/v5/plumbing"
)

// linkRepo commits api/openapi.yaml and, written straight into git's index
// (a checkout could not make some of them), the links given as name →
// target; it returns the commit.
func linkRepo(t *testing.T, links map[string]string) (dir, sha string) {
	t.Helper()
	dir = t.TempDir()
	git := gitclonetest.Git(t, dir)
	git("init", "-q", "-b", "main")
	if err := os.MkdirAll(filepath.Join(dir, "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "api", "openapi.yaml"), []byte("openapi: 3.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	if len(links) > 0 {
		var names, paths []string
		tmp := t.TempDir()
		for name, target := range links {
			p := filepath.Join(tmp, fmt.Sprint(len(paths)))
			if err := os.WriteFile(p, []byte(target), 0o644); err != nil {
				t.Fatal(err)
			}
			names, paths = append(names, name), append(paths, p)
		}
		update := []string{"update-index", "--add"}
		for i, blob := range strings.Fields(git(append([]string{"hash-object", "-w"}, paths...)...)) {
			update = append(update, "--cacheinfo", "120000,"+blob+","+names[i])
		}
		git(update...)
	}
	git("commit", "-q", "-m", "links")
	return dir, git("rev-parse", "HEAD")
}

// chain links api/l1 → api/l2 → … → api/ln → openapi.yaml.
func chain(n int) map[string]string {
	links := map[string]string{}
	for i := 1; i < n; i++ {
		links[fmt.Sprintf("api/l%d", i)] = fmt.Sprintf("l%d", i+1)
	}
	links[fmt.Sprintf("api/l%d", n)] = "openapi.yaml"
	return links
}

// TestLinkLimits follows a chain of as many links as a checkout follows
// (40) and a link whose target is as long as one may be (4096 bytes), and
// refuses one more of either, saying why.
func TestLinkLimits(t *testing.T) {
	t.Parallel()
	long := func(n int) string { // a target of n bytes that leads to openapi.yaml
		const end = "openapi.yaml"
		return strings.Repeat("./", (n-len(end))/2) + strings.Repeat("/", (n-len(end))%2) + end
	}
	for _, tc := range []struct {
		name  string
		links map[string]string
		open  string
		kind  string // the refusal's, "" for none
	}{
		{"a chain of 40 links", chain(maxHops), "api/l1", ""},
		{"a chain of 41 links", chain(maxHops + 1), "api/l1", "chain of more than 40 symbolic links"},
		{"a target of 4096 bytes", map[string]string{"api/long.yaml": long(4096)}, "api/long.yaml", ""},
		{"a target of 4097 bytes", map[string]string{"api/long.yaml": long(4097)}, "api/long.yaml", "symbolic link with a target too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, sha := linkRepo(t, tc.links)
			files, err := Commit(dir, dir, sha)
			if err != nil {
				t.Fatal(err)
			}
			data, err := fs.ReadFile(files, tc.open)
			if tc.kind == "" {
				if err != nil || string(data) != "openapi: 3.1.0\n" {
					t.Errorf("read %q, %v; want the description the links lead to", data, err)
				}
				return
			}
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.Kind != tc.kind {
				t.Fatalf("read %q, %v; want a *NotRegularError of kind %q", data, err, tc.kind)
			}
			if want := "is a " + tc.kind + ", not a regular file"; !strings.HasSuffix(err.Error(), want) {
				t.Errorf("message %q does not end with %q", err, want)
			}
		})
	}
}

// TestEntryOfAnotherType refuses a file whose entry in the commit's tree
// names an object that is no file's content (a folder's), instead of
// giving that object's bytes as the file.
func TestEntryOfAnotherType(t *testing.T) {
	t.Parallel()
	dir, _ := linkRepo(t, nil)
	git := gitclonetest.Git(t, dir)
	tree := git("rev-parse", "HEAD:api")
	git("update-index", "--add", "--cacheinfo", "100644,"+tree+",api/fake.yaml")
	git("commit", "-q", "-m", "a file entry naming a tree")
	files, err := Commit(dir, dir, git("rev-parse", "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	if data, err := fs.ReadFile(files, "api/fake.yaml"); err == nil {
		t.Errorf("read %q from an entry naming a folder's object", data)
	}
}

// TestObjectSize gives go-git, which may ask a clone's storage for an
// object's size, the size of a file's content, and an error for an object
// the clone does not hold.
func TestObjectSize(t *testing.T) {
	t.Parallel()
	dir, _ := linkRepo(t, nil)
	git := gitclonetest.Git(t, dir)
	s, err := open(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.EncodedObjectSize(plumbing.NewHash(git("rev-parse", "HEAD:api/openapi.yaml"))); err != nil || n != int64(len("openapi: 3.1.0\n")) {
		t.Errorf("size of the description's blob: %d, %v", n, err)
	}
	if n, err := s.EncodedObjectSize(plumbing.NewHash(strings.Repeat("ab", 20))); err == nil {
		t.Errorf("size of an object the clone does not hold: %d, no error", n)
	}
}

// TestObjectAtTheCap reads an object whose header gives exactly
// MaxObjectBytes, as one an object may hold: it is refused only because
// what follows the header is shorter than the header says.
func TestObjectAtTheCap(t *testing.T) {
	t.Parallel()
	dir, sha := linkRepo(t, nil)
	git := gitclonetest.Git(t, dir)
	blob := git("rev-parse", sha+":api/openapi.yaml")
	gitclonetest.Bomb(t, dir, blob, "blob", MaxObjectBytes, 1<<10)
	files, err := Commit(dir, dir, sha)
	if err != nil {
		t.Fatal(err)
	}
	_, err = fs.ReadFile(files, "api/openapi.yaml")
	var tl *TooLargeError
	if err == nil || errors.As(err, &tl) || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("an object of exactly %d bytes with 1 KiB of content: %v; want it read and found damaged", MaxObjectBytes, err)
	}
}
