package openapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// The corpus: real descriptions nobody here wrote (API owners' own files,
// official examples, other tools' fixtures), fetched at test time from the
// package registries (testdata/corpus/corpus.tsv names each, by package and
// path). Each is loaded, bundled, validated and encoded as a run would, and
// compared with its own source: a single-file JSON description must come out
// identical, key order included; any other must, with every $ref expanded,
// be its source with every $ref expanded: every top-level value (paths and
// webhooks, info, tags, x-* and the rest) and every component the source
// defines, used or not (discriminator mappings included). A description may be refused as
// invalid, with its reason; none may come out different. FIDELITY.md
// reports the counts (go test ./internal/openapi -run TestCorpus -update
// rewrites it; the test checks it against every run).

type corpusEntry struct {
	pkg, path, version, format string
	multi                      bool
}

type corpusResult struct {
	entry   corpusEntry
	outcome string // "exact", "refused", "mismatch"
	reason  string
	onePass bool // a run read it in a single pass
}

func readCorpus(t *testing.T) []corpusEntry {
	t.Helper()
	f, err := os.Open("../../testdata/corpus/corpus.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 {
			continue
		}
		out = append(out, corpusEntry{pkg: cols[0], path: cols[1], version: cols[2], format: cols[3], multi: cols[5] == "multi"})
	}
	return out
}

// fetchCorpus brings each package into the user cache once: npm packages
// with npm pack, Go modules with go mod download. It returns each
// package's folder.
func fetchCorpus(t *testing.T, entries []corpusEntry) map[string]string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	base := filepath.Join(cache, "docs-publish-testdata", "corpus")
	dirs := map[string]string{}
	for _, e := range entries {
		if _, done := dirs[e.pkg]; done {
			continue
		}
		if strings.HasPrefix(e.pkg, "@") || !strings.Contains(strings.SplitN(e.pkg, "@", 2)[0], ".") {
			dirs[e.pkg] = fetchNPM(t, base, e.pkg)
		} else {
			dirs[e.pkg] = fetchModule(t, base, e.pkg)
		}
	}
	return dirs
}

func fetchNPM(t *testing.T, base, pkg string) string {
	t.Helper()
	dir := filepath.Join(base, "npm", strings.NewReplacer("/", "_", "@", "_").Replace(pkg))
	if _, err := os.Stat(filepath.Join(dir, "package")); err == nil {
		return filepath.Join(dir, "package")
	}
	os.MkdirAll(dir, 0o755)
	out, err := exec.Command("npm", "pack", "--silent", "--pack-destination", dir, pkg).Output()
	if err != nil {
		t.Fatalf("npm pack %s: %v", pkg, err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(lastLine(string(out))))
	if out, err := exec.Command("tar", "-xzf", tgz, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("unpack %s: %v %s", tgz, err, out)
	}
	os.Remove(tgz)
	return filepath.Join(dir, "package")
}

func fetchModule(t *testing.T, base, mod string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = t.TempDir() // outside any module
	cmd.Env = append(os.Environ(), "GOMODCACHE="+filepath.Join(base, "gomod"), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", mod, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s", mod, out)
	}
	return info.Dir
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestCorpus(t *testing.T) {
	testenv.Long(t)
	testenv.Network(t)
	entries := readCorpus(t)
	if len(entries) < 100 {
		t.Fatalf("the corpus lists %d descriptions, want at least 100", len(entries))
	}
	sample := readCorpusSample(t, entries)
	dirs := fetchCorpus(t, entries)
	results := make([]corpusResult, len(entries))
	var mu sync.Mutex
	t.Run("descriptions", func(t *testing.T) {
		for i, e := range entries {
			t.Run(e.pkg+"/"+e.path, func(t *testing.T) {
				t.Parallel()
				r := checkCorpusEntry(t, os.DirFS(dirs[e.pkg]), e)
				if r.outcome == "mismatch" {
					t.Errorf("%s", r.reason)
				}
				r.onePass = preparedInOnePass(t, os.DirFS(dirs[e.pkg]), e.path)
				mu.Lock()
				results[i] = r
				mu.Unlock()
			})
		}
	})
	// A run, single pass or tree, gives what the tree gives, and YAML cut
	// into parts the tree of the whole: CI on the sample that
	// testdata/corpus/both-ways-sample.txt names, the full sweep on every
	// description.
	bothWays := func(t *testing.T, inSample bool) {
		for i, e := range entries {
			if sample[e.pkg+"/"+e.path] != inSample {
				continue
			}
			t.Run(e.pkg+"/"+e.path, func(t *testing.T) {
				t.Parallel()
				fsys := os.DirFS(dirs[e.pkg])
				onePass := agree(t, fsys, e.path, Limits{})
				// Read after the descriptions' subtests ended (or, under
				// a -run that left them out, never written).
				if r := results[i]; r.entry.path != "" && r.onePass != onePass {
					t.Errorf("the single pass did the work: %v beside the tree, %v alone", onePass, r.onePass)
				}
				if e.format != "json" {
					data, err := iofs.ReadFile(fsys, e.path)
					if err != nil {
						t.Fatal(err)
					}
					partsAgree(t, e.path, data)
				}
			})
		}
	}
	t.Run("both ways", func(t *testing.T) { bothWays(t, true) })
	t.Run("both ways, the rest", func(t *testing.T) {
		testenv.Sweep(t)
		bothWays(t, false)
	})
	report := fidelityReport(results)
	const file = "../../FIDELITY.md"
	if *update {
		if err := os.WriteFile(file, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./internal/openapi -run TestCorpus -update writes it)", err)
	}
	if string(want) != report {
		t.Errorf("FIDELITY.md does not say what this run found: rerun with -update and review the difference")
	}
}

// preparedInOnePass says whether a run, bundling or not, prepared the
// description in a single pass (FIDELITY.md counts them).
func preparedInOnePass(t *testing.T, fsys iofs.FS, name string) bool {
	t.Helper()
	for _, bundle := range []bool{true, false} {
		if prepareWith(t, fsys, name, PrepareOptions{Bundle: bundle}).onePass {
			return true
		}
	}
	return false
}

// readCorpusSample reads the descriptions CI prepares both ways (by
// package and path), each of them one the corpus lists.
func readCorpusSample(t *testing.T, entries []corpusEntry) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("../../testdata/corpus/both-ways-sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.pkg+"/"+e.path] = true
	}
	sample := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !listed[line] {
			t.Fatalf("both-ways-sample.txt names %s, which the corpus does not list", line)
		}
		sample[line] = true
	}
	return sample
}

// checkCorpusEntry runs one description through the pipeline and compares
// the result with its source.
func checkCorpusEntry(t *testing.T, fsys iofs.FS, e corpusEntry) corpusResult {
	r := corpusResult{entry: e}
	refuse := func(err error) corpusResult {
		r.outcome, r.reason = "refused", firstLine(err.Error())
		return r
	}
	ctx := context.Background()
	doc, err := Load(ctx, fsys, e.path, DefaultLimits)
	if err != nil {
		return refuse(err)
	}
	if doc, err = Bundle(ctx, doc, BundleOptions{FS: fsys}); err != nil {
		return refuse(err)
	}
	for _, f := range Validate(doc) {
		if f.Severity == Error {
			return refuse(fmt.Errorf("%s", f))
		}
	}
	out, err := Encode(doc, DefaultLimits)
	if err != nil {
		return refuse(err)
	}
	if err := noDuplicateKeys(out); err != nil {
		r.outcome, r.reason = "mismatch", "the bundle holds a key twice: "+err.Error()
		return r
	}
	src, err := Load(ctx, fsys, e.path, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if !hasFileRefs(src) {
		// One file: bundling changes nothing. As JSON in, as JSON out, the
		// same tokens in the same order, as an independent JSON reader
		// reads the source; a YAML source, as its own JSON.
		raw, err := iofs.ReadFile(fsys, e.path)
		if err != nil {
			t.Fatal(err)
		}
		if e.format != "json" {
			raw = src.AppendJSON(nil)
		}
		if a, b := tokens(t, raw), tokens(t, out); a != b {
			r.outcome, r.reason = "mismatch", "the upload differs from the source:\n"+firstDiff(a, b)
			return r
		}
		r.outcome = "exact"
		return r
	}
	// With every $ref expanded, the same document.
	bundled, err := Load(ctx, fstest.MapFS{"bundle.json": {Data: out}}, "bundle.json", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	c := &expandedComparison{
		src:    newDereferencer(t, fsys, src),
		bundle: newDereferencer(t, fstest.MapFS{"bundle.json": {Data: out}}, bundled),
	}
	r.outcome, r.reason = c.document(src, bundled, formatOf(src))
	return r
}

func hasFileRefs(n *Node) bool {
	switch n.Kind {
	case Object:
		if r := n.Get("$ref"); r != nil && r.Kind == String && !strings.HasPrefix(r.Scalar(), "#") && !isRemote(r.Scalar()) {
			return true
		}
		for _, f := range n.Fields() {
			if hasFileRefs(f.Value) {
				return true
			}
		}
	case Array:
		for _, it := range n.Items() {
			if hasFileRefs(it) {
				return true
			}
		}
	}
	return false
}

// tokens writes JSON as a list of its tokens: strings decoded, numbers as
// written, keys in order.
func tokens(t *testing.T, data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return b.String()
		}
		if err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		fmt.Fprintf(&b, "%T:%v\n", tok, tok)
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("source: %.300s\nupload: %.300s", la[i], lb[i])
		}
	}
	return fmt.Sprintf("one is longer (%d against %d)", len(la), len(lb))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// fidelityReport writes what the corpus run found, the same every run.
func fidelityReport(results []corpusResult) string {
	count := map[string]int{}
	byFormat := map[string]map[string]int{}
	var refused []corpusResult
	for _, r := range results {
		count[r.outcome]++
		k := r.entry.version
		if r.entry.multi {
			k += ", multi-file"
		}
		if byFormat[k] == nil {
			byFormat[k] = map[string]int{}
		}
		byFormat[k][r.outcome]++
		if r.outcome == "refused" {
			refused = append(refused, r)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Fidelity over real descriptions\n\n")
	fmt.Fprintf(&b, "Written by `DOCS_PUBLISH_LONG_TESTS=1 DOCS_PUBLISH_NETWORK_TESTS=1 go test ./internal/openapi -run TestCorpus -update`; the test checks this file against every run, so it says what the code does now.\n\n")
	fmt.Fprintf(&b, "%d real descriptions that nobody here wrote, fetched from the package registries (`testdata/corpus/corpus.tsv` names each): API owners' own files, official examples, and other tools' fixtures, Swagger 2.0 and OpenAPI 3.0 to 3.2, JSON and YAML, single and multi-file. Each is loaded, bundled, validated and encoded as a run would, then compared with its source: a single-file JSON description must come out token for token the same, key order included; any other, with every `$ref` expanded on both sides, must hold the same document: every top-level value (paths and webhooks, info, tags, `x-*` and the rest) and every component the source defines, used or not (discriminator mappings expanded too).\n\n", len(results))
	fmt.Fprintf(&b, "| outcome | descriptions |\n|---|---|\n| exact | %d |\n| refused as invalid | %d |\n| too large to expand on both sides (not compared) | %d |\n| mismatched | %d |\n\n", count["exact"], count["refused"], count["too large"], count["mismatch"])
	onePass := 0
	for _, r := range results {
		if r.onePass {
			onePass++
		}
	}
	fmt.Fprintf(&b, "A run reads a JSON description that names no other file in a single pass, from its file to the upload, keeping only what validation reads; any other, and any the pass cannot decide, through the whole tree. CI prepares a fixed sample of them both ways (testdata/corpus/both-ways-sample.txt: the descriptions that together reach every statement of the openapi package that preparing all of them both ways reaches), the scheduled full sweep every one, and both give the same upload, byte for byte, and the same findings: %d of the %d took the single pass.\n\n", onePass, len(results))
	fmt.Fprintf(&b, "| format | exact | refused |\n|---|---|---|\n")
	keys := make([]string, 0, len(byFormat))
	for k := range byFormat {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", k, byFormat[k]["exact"], byFormat[k]["refused"])
	}
	fmt.Fprintf(&b, "\n## Refused, with the reason\n\nMost are fixtures that other tools' test suites break on purpose.\n\n| package | description | reason |\n|---|---|---|\n")
	slices.SortFunc(refused, func(a, b corpusResult) int {
		return strings.Compare(a.entry.pkg+a.entry.path, b.entry.pkg+b.entry.path)
	})
	for _, r := range refused {
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", r.entry.pkg, r.entry.path, strings.ReplaceAll(r.reason, "|", `\|`))
	}
	return b.String()
}
