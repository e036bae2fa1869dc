package apidiff

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
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
	pruned, _ = sameReport(t, name, base, head)
	return pruned
}

// The ways Compare reads a pair, as sameReport names them beside the checks
// that found a change.
const (
	readRefused = "read: both refuse"
	readPast    = "read: pruned past what the whole refuses"
	readPruned  = "read: pruned"
	readWhole   = "read: whole"
	readSame    = "read: the same"
)

// sameReport is samePruned, and what the pair exercised: the checks (change
// IDs) that found something in the whole comparison, and how Compare read
// it.
func sameReport(t *testing.T, name string, base, head []byte) (pruned bool, shows []string) {
	t.Helper()
	whole, werr := compareWhole(context.Background(), base, head, nil)
	got, err := Compare(base, head)
	switch {
	case werr != nil && err != nil:
		return false, []string{readRefused}
	case werr != nil:
		// Compare read less than the whole: what it could not read was in a
		// part that is the same on both sides.
		return true, []string{readPast}
	case err != nil:
		t.Errorf("%s: %v; the whole documents compare", name, err)
		return false, nil
	}
	if d := cmp.Diff(comparable(whole), comparable(got)); d != "" {
		t.Errorf("%s: the pruned report differs from the whole (-whole +pruned):\n%s", name, d)
	}
	for _, c := range whole.Changes {
		shows = append(shows, c.ID)
	}
	b, errB := index(compact(base))
	h, errH := index(compact(head))
	if errB != nil || errH != nil {
		return false, append(shows, readWhole)
	}
	p := prune(b, h)
	switch {
	case p.same:
		return true, append(shows, readSame)
	case p.keep != nil && len(closure(p.keep, b, h)) < len(b.units)+len(h.units):
		return true, append(shows, readPruned)
	}
	return false, append(shows, readWhole)
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

// TestPrunedComparisonIsTheWhole: on the project's pairs, both ways, and
// on its bundling fixtures with each edit and all of them, the report is
// the whole comparison's.
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
}

// TestPrunedComparisonIsTheWholeOnOasdiffCopy: the same on the copy of a
// part of oasdiff's test data in testdata/oasdiff. Long, as the sample of
// the whole data, which covers its checks.
func TestPrunedComparisonIsTheWholeOnOasdiffCopy(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	n, pruned, _ := sameOnOasdiffData(t, filepath.Join("testdata", "oasdiff"), 1, nil)
	t.Logf("oasdiff's test data (copied): %d pairs, %d pruned", n, pruned)
	if n < 20 || pruned < n/4 {
		t.Errorf("%d pairs, %d of them pruned: the copy of oasdiff's test data is missing", n, pruned)
	}
}

// pairResult is what a pair of oasdiff's test data exercised, both ways.
type pairResult struct {
	name  string          // "folder/a.yaml → b.yaml", relative to the data's folder
	shows map[string]bool // the checks that found a change, and how Compare read it
}

// sameOnOasdiffData checks every pair of descriptions of oasdiff's test
// data under dir, both ways: in each folder, each file against the next
// ones (oasdiff names its pairs alike: spec1 and spec2, base and revision),
// and each base against its revision. With only, just the pairs it names.
func sameOnOasdiffData(t *testing.T, dir string, next int, only map[string]bool) (n, pruned int, results []pairResult) {
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
		done := map[string]bool{} // a file's next one may be its revision too
		load := func(name string) []byte {
			if b, ok := docs[name]; ok {
				return b
			}
			docs[name] = bundleFile(fsys, name)
			return docs[name]
		}
		pair := func(a, b string) {
			rel, _ := filepath.Rel(dir, filepath.Join(d, a))
			name := filepath.ToSlash(rel) + " → " + b
			if done[name] || only != nil && !only[name] {
				return
			}
			done[name] = true
			x, y := load(a), load(b)
			if x == nil || y == nil {
				return
			}
			n++
			r := pairResult{name: name, shows: map[string]bool{}}
			p, there := sameReport(t, name, x, y)
			if p {
				pruned++
			}
			_, back := sameReport(t, filepath.ToSlash(rel)+" ← "+b, y, x)
			for _, s := range append(there, back...) {
				r.shows[s] = true
			}
			results = append(results, r)
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
	slices.SortFunc(results, func(a, b pairResult) int { return strings.Compare(a.name, b.name) })
	return n, pruned, results
}

// oasdiffData is the folder of oasdiff's test data in the module cache.
func oasdiffData(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/oasdiff/oasdiff").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "data")
}

// oasdiffSample names the pairs of oasdiff's test data that CI compares in
// its long tests, each with what it shows that no pair before it does: a
// pair for each check that finds a change anywhere in the data, and for
// each way Compare reads a pair. The full sweep, a long test, chooses it.
const oasdiffSample = "testdata/oasdiff-sample.txt"

// chooseSample picks pairs until every thing a pair shows is shown: each
// time the pair that adds the most, the first by name among equals.
func chooseSample(results []pairResult) []pairResult {
	shown := map[string]bool{}
	var sample []pairResult
	for {
		best, bestAdds := -1, 0
		for i, r := range results {
			adds := 0
			for s := range r.shows {
				if !shown[s] {
					adds++
				}
			}
			if adds > bestAdds {
				best, bestAdds = i, adds
			}
		}
		if best < 0 {
			break
		}
		r := pairResult{name: results[best].name, shows: map[string]bool{}}
		for s := range results[best].shows {
			if !shown[s] {
				r.shows[s], shown[s] = true, true
			}
		}
		sample = append(sample, r)
	}
	slices.SortFunc(sample, func(a, b pairResult) int { return strings.Compare(a.name, b.name) })
	return sample
}

// writeSample is the sample file: a pair a line, a tab, and what it is in
// the sample for.
func writeSample(sample []pairResult, pairs int) string {
	var b strings.Builder
	shows := 0
	for _, r := range sample {
		shows += len(r.shows)
	}
	fmt.Fprintf(&b, "# %d of the %d pairs of oasdiff's test data (data/ in its module) that the full sweep compares, chosen so that\n", len(sample), pairs)
	fmt.Fprintf(&b, "# each check that finds a change in any pair, and each way Compare reads a pair (%d in all), shows in one of them.\n", shows)
	fmt.Fprintf(&b, "# The long tests compare these, both ways; the full sweep checks that they still cover all it finds.\n")
	fmt.Fprintf(&b, "# Written by DOCS_PUBLISH_LONG_TESTS=1 DOCS_PUBLISH_FULL_SWEEPS=1 DOCS_PUBLISH_NETWORK_TESTS=1 go test ./internal/apidiff -run 'OasdiffData$' -update\n")
	for _, r := range sample {
		shows := slices.Sorted(maps.Keys(r.shows))
		fmt.Fprintf(&b, "%s\t%s\n", r.name, strings.Join(shows, ", "))
	}
	return b.String()
}

// readSample reads the sample file: each pair and what it is there for.
func readSample(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(oasdiffSample)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, shows, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: %q has no tab", oasdiffSample, line)
		}
		out[name] = strings.Split(shows, ", ")
	}
	return out
}

// TestPrunedComparisonIsTheWholeOnOasdiffData runs the check over all of
// oasdiff's test data, read from the module cache, and checks that the
// sample CI runs still shows every check that finds a change here.
func TestPrunedComparisonIsTheWholeOnOasdiffData(t *testing.T) {
	testenv.Long(t)
	testenv.Sweep(t)
	testenv.Network(t)
	t.Parallel()
	n, pruned, results := sameOnOasdiffData(t, oasdiffData(t), 2, nil)
	t.Logf("oasdiff's test data: %d pairs, %d pruned", n, pruned)
	if n < 200 {
		t.Errorf("only %d pairs", n)
	}
	if *update {
		if err := os.WriteFile(oasdiffSample, []byte(writeSample(chooseSample(results), n)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	covered := map[string]bool{}
	for _, shows := range readSample(t) {
		for _, s := range shows {
			covered[s] = true
		}
	}
	for _, r := range results {
		for s := range r.shows {
			if !covered[s] {
				t.Errorf("%s shows %q, which no pair of %s does: rerun with -update", r.name, s, oasdiffSample)
				covered[s] = true
			}
		}
	}
}

// TestPrunedComparisonIsTheWholeOnOasdiffSample: the sample of oasdiff's
// test data, from the module cache (where building this package put it);
// each pair still shows what it is in the sample for. A long test: CI runs
// it without -race (the comparison's goroutines are the same on every pair,
// and TestPrunedComparisonIsTheWhole runs them under -race).
func TestPrunedComparisonIsTheWholeOnOasdiffSample(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // 121 pairs, both ways
	sample := readSample(t)
	only := map[string]bool{}
	for name := range sample {
		only[name] = true
	}
	n, _, results := sameOnOasdiffData(t, oasdiffData(t), 2, only)
	if n != len(sample) {
		t.Errorf("%d pairs of the sample compared, want %d: a pair is no longer in oasdiff's data", n, len(sample))
	}
	for _, r := range results {
		for _, s := range sample[r.name] {
			if !r.shows[s] {
				t.Errorf("%s no longer shows %q, which it is in %s for: rerun the full sweep with -update", r.name, s, oasdiffSample)
			}
		}
	}
}

// githubREST is GitHub's REST description (13 MB of JSON) as a run bundles
// it, fetched from npm into the user's cache the first time.
func githubREST(t testing.TB) []byte {
	t.Helper()
	testenv.Network(t)
	const file = "package/generated/api.github.com.json"
	dir := strings.TrimSuffix(testenv.NPMFile(t, "@octokit/openapi", "23.0.2", "generated/api.github.com.json"), filepath.FromSlash("/"+file))
	data := bundleFile(os.DirFS(dir), file)
	if data == nil {
		t.Fatal("GitHub's REST description does not load")
	}
	return data
}

// TestPrunedComparisonIsTheWholeOnGitHub: all the edits at once, and in
// the full sweep each edit alone, on a large real description. Each
// comparison of the whole takes the library some 30 s of CPU: CI's sample
// is all the edits at once, which reaches every edit's units; alone, each
// edit is also compared on the project's own pairs
// (TestPrunedComparisonIsTheWhole).
func TestPrunedComparisonIsTheWholeOnGitHub(t *testing.T) {
	testenv.Long(t)
	base := githubREST(t)
	head, _ := withEdits(t, base, apiedits.All...)
	if !samePruned(t, "all edits", base, head) {
		t.Error("all edits: compared whole")
	}
	for _, e := range apiedits.All {
		t.Run(e.Name, func(t *testing.T) {
			testenv.Sweep(t)
			head, ok := withEdits(t, base, e)
			if !ok {
				t.Errorf("%s: nothing to edit", e.Name)
			}
			if !samePruned(t, e.Name, base, head) {
				t.Errorf("%s: compared whole", e.Name)
			}
		})
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
			if _, err := compareWhole(context.Background(), base, head, nil); err != nil {
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
