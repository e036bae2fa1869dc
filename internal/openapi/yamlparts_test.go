package openapi

import (
	"context"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// partsAgree parses YAML whole and in parts, whatever its size, and
// reports any difference between the two trees: kinds, text, keys and
// their order, places, and the values counted against the limits. It
// returns whether the parts were used (a description the split cannot
// cut, or one that fails to parse, is parsed whole).
func partsAgree(t *testing.T, name string, data []byte) bool {
	t.Helper()
	data, shifts := unescapeSlashes(data)
	whole := yamlConverter{name: name, src: &Source{Name: name, budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits, shifts: shifts}
	whole.bud = whole.src.budget
	parts := yamlConverter{name: name, src: &Source{Name: name, budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits, shifts: shifts}
	parts.bud = parts.src.budget
	_, doc, extra, err := decodeYAML(append([]byte(nil), data...))
	if err != nil || extra != nil {
		// What the whole parse refuses, the parts may not accept.
		if got, ok, perr := parts.parseInParts(data, 0, 0); ok && perr == nil {
			t.Errorf("%s: the whole parse fails (%v), the parts give %v", name, err, got)
		}
		return false
	}
	want, werr := whole.convert(doc)
	got, ok, err := parts.parseInParts(data, 0, 0)
	if !ok {
		if parts.bud.values != 0 {
			t.Errorf("%s: the parts gave up after counting %d values", name, parts.bud.values)
		}
		return false
	}
	if werr != nil || err != nil {
		t.Errorf("%s: whole: %v; in parts: %v", name, werr, err)
		return true
	}
	if d := treeDiff(want, got, "#"); d != "" {
		t.Errorf("%s: in parts, %s", name, d)
	}
	if whole.bud.values != parts.bud.values {
		t.Errorf("%s: %d values counted whole, %d in parts", name, whole.bud.values, parts.bud.values)
	}
	// Cut only where an entry or a list is 64 bytes or more: the parts
	// still give the same tree.
	some := yamlConverter{name: name, src: &Source{Name: name, budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits, shifts: shifts}
	some.bud = some.src.budget
	if got, ok, err := some.parseInParts(data, 0, 64); ok && err == nil {
		if d := treeDiff(want, got, "#"); d != "" {
			t.Errorf("%s: in parts of 64 bytes or more, %s", name, d)
		}
	} else if err != nil {
		t.Errorf("%s: in parts of 64 bytes or more: %v", name, err)
	}
	return true
}

// treeDiff is the first difference between two trees, or "".
func treeDiff(a, b *Node, at string) string {
	if a.Kind != b.Kind || a.Scalar() != b.Scalar() || a.Pos != b.Pos || len(a.Fields()) != len(b.Fields()) || len(a.Items()) != len(b.Items()) {
		return fmt.Sprintf("at %s: %s %q at %v with %d members, %d items; want %s %q at %v with %d members, %d items",
			at, b.Kind, b.Scalar(), b.Pos, len(b.Fields()), len(b.Items()), a.Kind, a.Scalar(), a.Pos, len(a.Fields()), len(a.Items()))
	}
	for i := range a.Fields() {
		fa, fb := a.Fields()[i], b.Fields()[i]
		if fa.Key != fb.Key || fa.KeyPos != fb.KeyPos {
			return fmt.Sprintf("at %s: key %q at %v, want %q at %v", at, fb.Key, fb.KeyPos, fa.Key, fa.KeyPos)
		}
		if d := treeDiff(fa.Value, fb.Value, at+"/"+escapeToken(fa.Key)); d != "" {
			return d
		}
	}
	for i := range a.Items() {
		if d := treeDiff(a.Items()[i], b.Items()[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// TestYAMLInPartsAgrees: every YAML file under testdata/, and edges of what
// the split can cut, give the same tree in parts as whole.
func TestYAMLInPartsAgrees(t *testing.T) {
	t.Parallel()
	fsys := os.DirFS("../../testdata")
	used := 0
	iofs.WalkDir(fsys, ".", func(p string, d iofs.DirEntry, err error) error {
		if ext := path.Ext(p); ext == ".yaml" || ext == ".yml" {
			data, err := iofs.ReadFile(fsys, p)
			if err != nil {
				t.Fatal(err)
			}
			if partsAgree(t, p, data) {
				used++
			}
		}
		return err
	})
	if used < 10 {
		t.Errorf("the parts were used for %d files, want most YAML descriptions", used)
	}
	cases := []struct {
		name, data string
		parts      bool
	}{
		{"comments and blank lines", "# top\nopenapi: 3.0.0\n\n# paths\npaths:\n  # first\n  /a:\n    get: {}\n\n  /b:   # b\n    put:\n      x: |\n        text\n\n        more\n  '/c':\n    x: 1\n  \"/d\": 2\ninfo: {title: t}\n", true},
		{"no line end at the end", "openapi: 3.0.0\npaths:\n  /a: 1\n  /b:\n    x: 2\nx-b: 2", true},
		{"line ends written CR LF", "openapi: 3.0.0\r\nx-a: 1\r\nx-b:\r\n  k: 1\r\n  j: 2\r\n", true},
		{"a line broken by a lone CR", "openapi: 3.0.0\nx-a: 1\rx-b: 2\nx-c: 3\n", false},
		{"a lone CR first", "\ropenapi: 3.0.0\nx-a: 1\nx-b: 2\n", false},
		{"a CR that ends the file", "openapi: 3.0.0\nx-a: 1\nx-b: 2\r", false},
		{"a blank line and a comment indented deeper than the first key", "openapi: 3.0.0\nx-a: 1\nx-b:\n      \n      # c\n  k: 1\n  j: 2\n", true},
		{"a list of exactly packFrom items", "openapi: 3.0.0\nx-list:\n" + strings.Repeat("  - a\n", packFrom) + "x-b: 1\n", true},
		{"a key twice across parts", "openapi: 3.0.0\npaths:\n  /a: 1\n  /a: 2\n", false},
		{"a top key twice", "openapi: 3.0.0\nx: 1\nx: 2\n", false},
		{"an alias to another part", "openapi: 3.0.0\na: &x {k: 1}\nb: *x\n", false},
		{"an alias inside a part", "openapi: 3.0.0\npaths:\n  /a: &x {k: 1}\n  /b: 2\n", true},
		{"a merge key", "openapi: 3.0.0\npaths:\n  <<: {a: 1}\n  /b: 2\n", true},
		{"a merge key among the top's", "openapi: 3.0.0\n<<: {a: 1}\nb: 2\n", false},
		{"a document marker", "---\nopenapi: 3.0.0\n", false},
		{"a quoted scalar over lines", "openapi: 3.0.0\npaths:\n  /a: \"one\n  /b: two\"\n", false},
		{"a list at the top of an entry", "openapi: 3.0.0\ntags:\n- a\n- b\n", true},
		{"a list after a value", "openapi: 3.0.0\ntags: x\n- a\n", false},
		{"a list indented under its key, in parts of items", "openapi: 3.0.0\nx-list:\n  # first\n  - a\n  -\n  - {k: v}\n  - k: v\n    j: |\n      text\n\n      - not an item\n  # between\n  - - nested\n    - more\ninfo: {title: t}\n", true},
		{"a list of lists and a key after", "openapi: 3.0.0\npaths:\n  /a:\n  - 1\n  - 2\n  /b: 3\n", true},
		{"a list with an alias to an earlier item", "openapi: 3.0.0\nx-list:\n  - &a {k: 1}\n  - *a\n", false},
		{"a list with an item indented less", "openapi: 3.0.0\nx-list:\n    - a\n  - b\n", false},
		{"a list with a document marker", "openapi: 3.0.0\nx-list:\n- a\n---\n- b\n", false},
		{"a list with a plain scalar over lines", "openapi: 3.0.0\nx-list:\n  - a\n    b\n  - c\n", true},
		{"a list with a quoted scalar over items", "openapi: 3.0.0\nx-list:\n  - \"a\n  - b\"\n", false},
		{"a list with a flow sequence over lines", "openapi: 3.0.0\nx-list:\n  - [a,\n    b]\n  - c\n", true},
		{"a list with a tag", "openapi: 3.0.0\nx-list: !!seq\n  - a\n", true},
		{"slash escapes", "openapi: 3.0.0\npaths:\n  /a: \"x\\/y\"\n  /b: \"\\/\\/z\"\n", true},
		{"keys that read as numbers", "openapi: 3.0.0\npaths:\n  200: a\n  0x1F: b\n", true},
		{"a byte-order mark starting a later line", "openapi: 3.0.0\nx-a: 1\n\ufeffx-b: 2\n", false},
		{"a UTF-16 mark in a later part", "openapi: 3.0.0\nx-a: 1\n\xff\xfe k\x00:\x00 \x00v\x00: \x20\nx-c: 1\n", false},
		{"a key that starts beyond ASCII", "openapi: 3.0.0\nx-a: 1\n\u00e9t\u00e9: 2\n", false},
		{"many short lines", "openapi: 3.0.0\n" + strings.Repeat("\n", partsFrom) + "x: 1\n", false},
		{"a very long line", "openapi: 3.0.0\nx: " + strings.Repeat("a", 70<<10) + "\ny: 1\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := partsAgree(t, tc.name, []byte(tc.data)); got != tc.parts {
				t.Errorf("parts used: %v, want %v", got, tc.parts)
			}
		})
	}
}

// TestLargeYAMLInPartsAgrees: GitHub's description written as YAML, cut
// into parts as a run cuts it, gives the tree of the whole. A long test,
// which CI runs without -race: TestYAMLInPartsAgrees runs the parts'
// goroutines under -race, on files of thirty to forty parts each, more
// than are parsed ahead at once.
func TestLargeYAMLInPartsAgrees(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // parses 13 MB of YAML twice an indent
	// CI parses the text with indent 2 alone: indent 4 (half the test's
	// time) reached no statement of this package that indent 2 does not
	// (measured with -coverprofile); the full sweep parses both.
	for _, indent := range []int{2, 4} {
		t.Run(fmt.Sprintf("indent %d", indent), func(t *testing.T) {
			if indent != 2 {
				testenv.Sweep(t)
			}
			if !partsAgree(t, fmt.Sprintf("github.yaml (indent %d)", indent), githubYAML(t, indent)) {
				t.Error("the parts were not used")
			}
		})
	}
}

type stringsBuilder struct{ data []byte }

func (s *stringsBuilder) Write(b []byte) (int, error) {
	s.data = append(s.data, b...)
	return len(b), nil
}

// FuzzYAMLInParts: on any input the split accepts, the parts give the tree
// of the whole.
func FuzzYAMLInParts(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/specs/*.yaml")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte("openapi: 3.0.0\npaths:\n  /a: &x {k: 1}\n  /b: *x\ntags:\n- a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		partsAgree(t, "f.yaml", data)
	})
}

// TestLargeListsInPartsOfItems: a large block sequence is cut into parts
// of whole items, each parsed on its own, rather than parsed whole: nine
// million short items parsed whole take the YAML library gigabytes.
func TestLargeListsInPartsOfItems(t *testing.T) {
	testenv.Long(t) // parses a list of 100,000 items twice
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\nx-list:\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "  - i%d\n", i)
	}
	data := []byte(b.String())
	parts, ok := splitParts(data, bigEntry)
	if !ok {
		t.Fatal("not split")
	}
	items, count := 0, 0
	for _, p := range parts {
		if p.items {
			items++
			if len(p.text) > 2*itemsPart(bigEntry) {
				t.Errorf("a part of %d bytes, want at most about %d", len(p.text), itemsPart(bigEntry))
			}
			count += strings.Count(string(p.text), "  - i")
		}
	}
	if want := len(data) / itemsPart(bigEntry); items < want || count != 100_000 {
		t.Errorf("%d parts of items, %d items: want at least %d parts, 100000 items", items, count, want)
	}
	if !partsAgree(t, "list.yaml", data) {
		t.Error("the parts were not used")
	}
}

// TestPartsDepth: a description nested exactly as deep as Depth allows is
// converted in parts, across the levels the parts cut; one level deeper is
// not accepted by the parts (the whole parse refuses it). A file smaller
// than the size from which parts are worth it, or a Depth too small to
// cut at, is left to the whole parse.
func TestPartsDepth(t *testing.T) {
	t.Parallel()
	const bound = 12
	parse := func(doc string, lim Limits, from int) (bool, error) {
		lim = lim.withDefaults()
		c := yamlConverter{name: "a.yaml", src: &Source{Name: "a.yaml", budget: newBudget(context.Background(), lim)}, lim: lim}
		c.bud = c.src.budget
		_, ok, err := c.parseInParts([]byte(doc), from, 0)
		return ok, err
	}
	for _, depth := range []int{bound, bound + 1} {
		// The top at level 0, x-b's value at 1, k's at 2, m's at 3: the
		// innermost value at depth.
		doc := "openapi: 3.0.0\nx-a: 1\nx-b:\n  j: 1\n  k:\n    m: " + nested(depth-3, false, "1") + "\n"
		ok, err := parse(doc, Limits{Depth: bound}, 0)
		if within := depth <= bound; (ok && err == nil) != within {
			t.Errorf("nested %d levels, Depth %d: parts used %v, %v; want the parts to do the work: %v", depth, bound, ok, err, within)
		}
	}
	doc := "openapi: 3.0.0\nx-a: 1\nx-b:\n  k: 1\n"
	for _, tc := range []struct {
		lim   Limits
		from  int
		parts bool
	}{
		{Limits{}, len(doc), true},
		{Limits{}, len(doc) + 1, false},
		{Limits{Depth: 4}, 0, true},
		{Limits{Depth: 3}, 0, false},
	} {
		if ok, err := parse(doc, tc.lim, tc.from); ok != tc.parts || err != nil {
			t.Errorf("Depth %d, from %d bytes: parts used %v, %v; want %v", tc.lim.Depth, tc.from, ok, err, tc.parts)
		}
	}
}

// TestPartsOnOneCore: with one core the parts are parsed one ahead of
// their conversion, and all are converted.
func TestPartsOnOneCore(t *testing.T) { // not parallel: it sets GOMAXPROCS
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	done := make(chan bool)
	go func() {
		done <- partsAgree(t, "one core", []byte("openapi: 3.0.0\nx-a: 1\nx-b:\n  k: 1\n  j: 2\nx-c: 3\nx-d: [4]\n"))
	}()
	select {
	case used := <-done:
		if !used {
			t.Error("the parts were not used")
		}
	case <-time.After(time.Minute):
		t.Fatal("the parts were not all converted within a minute on one core")
	}
}
