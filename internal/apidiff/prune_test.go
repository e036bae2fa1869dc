package apidiff

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff/apiedits"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

// bundleFile loads, bundles and encodes the description name of fsys, as a
// run does; nil when it is no description the run would publish.
func bundleFile(fsys fs.FS, name string) []byte {
	ctx := context.Background()
	doc, err := openapi.Load(ctx, fsys, name, openapi.DefaultLimits)
	if err != nil {
		return nil
	}
	if doc, err = openapi.Bundle(ctx, doc, openapi.BundleOptions{FS: fsys}); err != nil {
		return nil
	}
	out, err := openapi.Encode(doc, openapi.DefaultLimits)
	if err != nil {
		return nil
	}
	return out
}

// withEdits is a bundled description with the edits applied, and whether
// each found something to change.
func withEdits(t testing.TB, data []byte, es ...apiedits.Edit) ([]byte, bool) {
	t.Helper()
	root, err := openapi.Parse("edited.json", data)
	if err != nil {
		t.Fatal(err)
	}
	all := true
	for _, e := range es {
		all = e.Apply(root) && all
	}
	out, err := openapi.Encode(root, openapi.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return out, all
}

// comparable is what a report says, without the places.
func comparable(r *Report) []Change {
	out := make([]Change, len(r.Changes))
	for i, c := range r.Changes {
		out[i] = Change{ID: c.ID, Level: c.Level, Operation: c.Operation, Path: c.Path, Text: c.Text}
	}
	return out
}

// samePruned checks that Compare reports exactly what the comparison of
// the whole documents reports, and says whether Compare gave the library
// less than the whole.
func samePruned(t *testing.T, name string, base, head []byte) (pruned bool) {
	t.Helper()
	whole, werr := compareWhole(base, head)
	got, err := Compare(base, head)
	switch {
	case werr != nil && err != nil:
		return false
	case werr != nil:
		// Compare read less than the whole: what it could not read was in a
		// part that is the same on both sides.
		return true
	case err != nil:
		t.Errorf("%s: %v; the whole documents compare", name, err)
		return false
	}
	if d := cmp.Diff(comparable(whole), comparable(got)); d != "" {
		t.Errorf("%s: the pruned report differs from the whole (-whole +pruned):\n%s", name, d)
	}
	b, errB := index(compact(base))
	h, errH := index(compact(head))
	if errB != nil || errH != nil {
		return false
	}
	p := prune(b, h)
	return p.same || p.keep != nil && len(closure(p.keep, b, h)) < len(b.units)+len(h.units)
}

// fixturePairs are the project's base and head pairs (multi-file ones
// among them), as a run bundles them.
func fixturePairs(t *testing.T) map[string][2][]byte {
	t.Helper()
	root := filepath.Join("..", "..", "testdata", "apidiff")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2][]byte{}
	for _, d := range dirs {
		dir := filepath.Join(root, d.Name())
		out[d.Name()] = [2][]byte{bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head"))}
	}
	return out
}

// TestPrunedComparisonIsTheWhole: on the project's pairs, both ways, on
// its bundling fixtures with each edit and all of them, and on a set of
// oasdiff's own test data, the report is the whole comparison's.
func TestPrunedComparisonIsTheWhole(t *testing.T) {
	t.Parallel()
	pairs := fixturePairs(t)
	for name, p := range pairs {
		pruned := samePruned(t, name, p[0], p[1])
		samePruned(t, name+" reversed", p[1], p[0])
		// A base laid out otherwise than the head (indented) prunes alike,
		// and against itself is no change.
		var indented bytes.Buffer
		if err := json.Indent(&indented, p[0], "", "  "); err != nil {
			t.Fatal(err)
		}
		if samePruned(t, name+" indented", indented.Bytes(), p[1]) != pruned {
			t.Errorf("%s: an indented base is not pruned as the base is", name)
		}
		if r, err := Compare(indented.Bytes(), p[0]); err != nil || len(r.Changes) != 0 {
			t.Errorf("%s: the base indented against itself: %v, %v", name, err, r)
		}
	}
	bundles := filepath.Join("..", "..", "testdata", "bundle")
	dirs, err := os.ReadDir(bundles)
	if err != nil {
		t.Fatal(err)
	}
	prunedEdits := 0
	for _, d := range dirs {
		fsys := os.DirFS(filepath.Join(bundles, d.Name()))
		names, _ := fs.Glob(fsys, "openapi.*")
		names2, _ := fs.Glob(fsys, "swagger.*")
		for _, name := range append(names, names2...) {
			base := bundleFile(fsys, name)
			if base == nil {
				continue
			}
			for _, e := range apiedits.All {
				head, ok := withEdits(t, base, e)
				if ok && samePruned(t, d.Name()+"/"+name+": "+e.Name, base, head) {
					prunedEdits++
				}
			}
			head, _ := withEdits(t, base, apiedits.All...)
			samePruned(t, d.Name()+"/"+name+": all edits", base, head)
		}
	}
	if prunedEdits == 0 {
		t.Error("no edit of a bundling fixture was compared pruned: the test shows nothing")
	}
	n, pruned := sameOnOasdiffData(t, filepath.Join("testdata", "oasdiff"), 1)
	t.Logf("oasdiff's test data (copied): %d pairs, %d pruned", n, pruned)
	if n < 20 || pruned < n/4 {
		t.Errorf("%d pairs, %d of them pruned: the copy of oasdiff's test data is missing", n, pruned)
	}
}

// sameOnOasdiffData checks every pair of descriptions of oasdiff's test
// data under dir, both ways: in each folder, each file against the next
// ones (oasdiff names its pairs alike: spec1 and spec2, base and revision),
// and each base against its revision.
func sameOnOasdiffData(t *testing.T, dir string, next int) (n, pruned int) {
	t.Helper()
	byDir := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := path.Ext(p); !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], filepath.Base(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for d, names := range byDir {
		slices.Sort(names)
		fsys := os.DirFS(d)
		docs := map[string][]byte{}
		load := func(name string) []byte {
			if b, ok := docs[name]; ok {
				return b
			}
			docs[name] = bundleFile(fsys, name)
			return docs[name]
		}
		pair := func(a, b string) {
			x, y := load(a), load(b)
			if x == nil || y == nil {
				return
			}
			n++
			rel, _ := filepath.Rel(dir, filepath.Join(d, a))
			if samePruned(t, rel+" → "+b, x, y) {
				pruned++
			}
			samePruned(t, rel+" ← "+b, y, x)
		}
		for i, a := range names {
			for j := i + 1; j < len(names) && j <= i+next; j++ {
				pair(a, names[j])
			}
			if r := strings.Replace(a, "base", "revision", 1); r != a && slices.Contains(names, r) {
				pair(a, r)
			}
		}
	}
	return n, pruned
}

// TestPrunedComparisonIsTheWholeOnOasdiffData runs the check over all of
// oasdiff's test data, read from the module cache.
func TestPrunedComparisonIsTheWholeOnOasdiffData(t *testing.T) {
	testenv.Long(t)
	testenv.Network(t)
	t.Parallel()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/oasdiff/oasdiff").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n, pruned := sameOnOasdiffData(t, filepath.Join(strings.TrimSpace(string(out)), "data"), 2)
	t.Logf("oasdiff's test data: %d pairs, %d pruned", n, pruned)
	if n < 200 {
		t.Errorf("only %d pairs", n)
	}
}

// githubREST is GitHub's REST description (13 MB of JSON) as a run bundles
// it, fetched from npm into the user's cache the first time.
func githubREST(t testing.TB) []byte {
	t.Helper()
	testenv.Network(t)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	const pkg, file = "@octokit/openapi@23.0.2", "package/generated/api.github.com.json"
	dir := filepath.Join(cache, "docs-publish-testdata", "openapi@23.0.2")
	if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
		os.MkdirAll(dir, 0o755)
		pack := exec.Command("sh", "-c", `tar -xzf "$(npm pack --silent "$0")" "$1" && rm -f *.tgz`, pkg, file)
		pack.Dir = dir
		if out, err := pack.CombinedOutput(); err != nil {
			t.Fatalf("npm pack %s: %v %s", pkg, err, out)
		}
	}
	data := bundleFile(os.DirFS(dir), file)
	if data == nil {
		t.Fatal("GitHub's REST description does not load")
	}
	return data
}

// TestPrunedComparisonIsTheWholeOnGitHub: each edit alone, and all of them,
// on a large real description.
func TestPrunedComparisonIsTheWholeOnGitHub(t *testing.T) {
	testenv.Long(t)
	base := githubREST(t)
	for _, e := range apiedits.All {
		head, ok := withEdits(t, base, e)
		if !ok {
			t.Errorf("%s: nothing to edit", e.Name)
		}
		if !samePruned(t, e.Name, base, head) {
			t.Errorf("%s: compared whole", e.Name)
		}
	}
	head, _ := withEdits(t, base, apiedits.All...)
	if !samePruned(t, "all edits", base, head) {
		t.Error("all edits: compared whole")
	}
}

func BenchmarkCompareGitHub(b *testing.B) {
	base := githubREST(b)
	head, _ := withEdits(b, base, apiedits.All...)
	b.Run("edited", func(b *testing.B) {
		for b.Loop() {
			if _, err := Compare(base, head); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("edited, whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := compareWhole(base, head); err != nil {
				b.Fatal(err)
			}
		}
	})
	same := append([]byte(nil), base...)
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if _, err := Compare(base, same); err != nil {
				b.Fatal(err)
			}
		}
	})
}
