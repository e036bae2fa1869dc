package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// readAgrees reads YAML with the reader and with the YAML library, and
// reports any difference: in the tree (kinds, text, keys and their order,
// places), in the values counted against lim, or in the error. It returns
// whether the reader read it; when it does not, it must have spent
// nothing of the budget.
func readAgrees(t *testing.T, name string, data []byte, lim Limits) bool {
	t.Helper()
	lim = lim.withDefaults()
	data, shifts := unescapeSlashes(data)
	conv := func() *yamlConverter {
		c := &yamlConverter{name: name, src: &Source{Name: name, budget: newBudget(context.Background(), lim)}, lim: lim, shifts: shifts}
		c.bud = c.src.budget
		return c
	}
	lib, own := conv(), conv()
	got, ok, err := own.readPlainYAML(data)
	if !ok {
		if own.bud.values != 0 {
			t.Errorf("%s: the reader gave up after counting %d values", name, own.bud.values)
		}
		return false
	}
	_, doc, extra, lerr := decodeYAML(append([]byte(nil), data...))
	if lerr != nil || extra != nil {
		t.Errorf("%s: the library refuses it (%v, another document: %v), the reader gives %v, %v", name, lerr, extra != nil, got, err)
		return true
	}
	want, werr := lib.convert(doc)
	switch {
	case werr != nil || err != nil:
		var we, ge *LoadError
		if !errors.As(werr, &we) || !errors.As(err, &ge) || *we != *ge {
			t.Errorf("%s: the library: %v; the reader: %v", name, werr, err)
		}
	default:
		if d := treeDiff(want, got, "#"); d != "" {
			t.Errorf("%s: read without the library, %s", name, d)
		}
	}
	if werr == nil && lib.bud.values != own.bud.values {
		t.Errorf("%s: %d values counted by the library, %d by the reader", name, lib.bud.values, own.bud.values)
	}
	return true
}

// TestYAMLReadAgrees: what the reader reads it reads as the YAML library
// does, and what it does not read it leaves alone: every YAML file under
// testdata/, and the edges of what it reads.
func TestYAMLReadAgrees(t *testing.T) {
	t.Parallel()
	fsys := os.DirFS("../../testdata")
	read := 0
	iofs.WalkDir(fsys, ".", func(p string, d iofs.DirEntry, err error) error {
		if ext := path.Ext(p); ext == ".yaml" || ext == ".yml" {
			data, err := iofs.ReadFile(fsys, p)
			if err != nil {
				t.Fatal(err)
			}
			if readAgrees(t, p, data, Limits{}) {
				read++
			}
		}
		return err
	})
	t.Logf("read without the library: %d files", read)
	long := strings.Repeat("  - 1\n", packFrom-1)
	cases := []struct {
		name, data string
		read       bool
	}{
		{"block mappings and comments", "# top\nopenapi: 3.0.0\n\n# paths\npaths:\n  # first\n  /a:\n    get: {}\n\n  /b:   # b\n    put:\n      x: 1\n  '/c':\n    x: 1\n  \"/d\": 2\ninfo: {title: t}\n", true},
		{"no line end at the end", "a: 1\nb:\n  c: d", true},
		{"scalars of every kind", "a: 1\nb: -2.5e3\nc: true\nd: null\ne: ~\nf: 0x1F\ng: 0o17\nh: 01234\ni: 1_000\nj: text with spaces  \nk: yes\nl: .5\nm: a#b\nn: x # comment\no: 'it''s'\np: \"q\\\"\\\\\\n\\t\\u00e9\\U0001F600\\/\"\nq: -x\nr: a:b\ns: [a b, 'c', \"d\"]\n", true},
		{"keys that read as numbers and quoted keys", "200: a\n0x1F: b\n'300': c\n\"4\" : d\ntrue: e\n1.50: f\n", true},
		{"flow collections", "a: [1, [2, [3]], {b: [4, {c: d}]}, []]\nb: {}\nc: {x: 'y', \"z\": [w]}\nd: [ 1 , 2 ]\n", true},
		{"a list of plain scalars short of packFrom", "x:\n" + long, true},
		{"a list of packFrom plain scalars", "x:\n" + long + "  - 2\n", true},
		{"a packed list, then an item that is not plain", "x:\n" + long + "  - 2\n  - 'q'\n  - 3\n", true},
		{"a flow list of packFrom plain scalars", "x: [" + strings.Repeat("1,", packFrom) + "z]\n", true},
		{"a list at its key's indentation", "a:\n- 1\n- b: 2\n  c: 3\nd: 4\n", true},
		{"lists of collections", "a:\n  - [1]\n  - {}\n  - b: 1\n    c: [2]\n  -\n    d: 1\n  - e\n", true},
		{"a value on the next line", "a:\n  b\nc:\n  [1]\n", true},
		{"a root list", "- 1\n- a: b\n", true},
		{"many tagged items, in parts of items", "x:\n" + strings.Repeat("  - !!str 1\n  - 2\n", 8000) + "  - 3\ny: 1\n", true},
		{"many items over lines, in parts of items", "x:\n" + strings.Repeat("- 1\n  2\n- 3\n", 8000) + "y: 1\n", true},
		{"many anchored items, the last aliased", "x:\n" + strings.Repeat("  - &a 1\n", 9000) + "  - *a\n", true},
		{"lists in lists", "a:\n  - - 1\n    - - 2\n      - 3\n  - - b: 1\n      c: 2\n", true},
		{"a root scalar", "just text\n", true},
		{"an indented root", "  a: 1\n  b: 2\n", true},
		{"text beyond ASCII", "\u00e9t\u00e9: [\u00e0 la, \u00e9, {\u00e8: \u00ea}]\nx: {a: \u4e16\u754c, b: 1}\n", true},
		{"slash escapes", "a: \"x\\/y\"\nb: [\"\\/\", 1]\n", true},
		{"a number JSON cannot hold", "a: 1\nb: .inf\n", true},
		{"a number JSON cannot hold in a packed list", "x:\n" + long + "  - 1\n  - .nan\n", true},
		{"a long list of flow lists, empty collections and scalars of every style", "x:\n" + strings.Repeat("  - [1]\n  - {}\n  - []\n  - [a, {b: c}]\n  - 'q'\n  - !!str 5\n  - &a 6\n  - |\n    z\n  - 7\n", packFrom/8) + "  - [1]\n", true},
		{"a long list of flow lists, then a mapping", "x:\n" + strings.Repeat("  - [1]\n  - {}\n", packFrom) + "  - {k: v}\n  - [2]\n", true},
		{"a long list of flow lists, then one with a $ref", "x:\n" + strings.Repeat("  - [1]\n", packFrom) + "  - [{$ref: '#/x'}]\n  - [2]\n", true},
		{"a number JSON cannot hold in a long list of flow lists", "x:\n" + strings.Repeat("  - [1]\n", packFrom) + "  - [.nan]\n", true},
		{"a key twice", "a: 1\na: 2\n", false},
		{"keys that read alike", "1: a\n+1: b\n", false},
		{"a key twice among many", "x:\n" + strings.Repeat("  k: 1\n", 1) + func() string {
			var b strings.Builder
			for i := range 40 {
				fmt.Fprintf(&b, "  k%d: 1\n", i)
			}
			return b.String()
		}() + "  k: 2\n", true},
		{"a key twice in a flow mapping", "a: {b: 1, b: 2}\n", true},
		{"an empty value", "a:\nb: 1\n", true},
		{"an empty item", "a:\n- \n- 1\n", true},
		{"an anchor and an alias", "a: &x 1\nb: *x\n", false},
		{"a tag", "a: !!str 1\n", true},
		{"a block scalar", "a: |\n  text\n", true},
		{"literal block scalars, each chomping", "a: |\n  one\n   two\n\n  three\n\n\nb: |-\n  x\n\n\nc: |+\n  y\n\n\nd: 1\n", true},
		{"folded block scalars, each chomping", "a: >\n  one\n  two\n\n  three\n    more\n  four\n\n\nb: >-\n  x\n  y\n\n\nc: >+\n  z\n\n\nd: 1\n", true},
		{"folded lines around more-indented and blank ones", "a: >\n\n  \n  one\n   two\n  three\n\n   four\n\n  five\n  \t six\n  seven\n", true},
		{"block scalars with spaces past their indentation on blank lines", "a: |\n  one\n    \n  two\n     \nb: >\n  x\n      \n  y\n", true},
		{"block scalars with comments", "a: |  # header\n  # not a comment\n  x\n# a comment\nb: >- #\n  y\n  # c\n #d\nc: 1\n", true},
		{"block scalars at the text's end", "a: |\n  x", true},
		{"a kept block scalar at the text's end", "a: |+\n  x\n\n  \n", true},
		{"a block scalar deeper in", "a:\n  b:\n    - c: 1\n      d: >-\n        folded\n        text\n      e: 2\n  f: |\n      deep\n        more\n  g: 1\n", true},
		{"a block scalar with tabs in its text", "a: |\n  x\ty\n  \tz\t\nb: >\n  p\n  \tq\n  r\n", true},
		{"a tab at the start of a block scalar's first line", "a: |\n  \tx\n", false},
		{"a block scalar with an indentation indicator", "a: |2\n    x\n", true},
		{"a block scalar whose first line is less indented than a blank one", "a: |\n    \n  x\n", false},
		{"a block scalar with a tab in its indentation", "a: |\n  x\n \ty\n", false},
		{"an empty block scalar", "a: |\nb: 1\n", true},
		{"a block scalar no deeper than its key", "a:\n  b: |\n  x\n", false},
		{"a block scalar ended by a document marker", "a: |\n  x\n---\nb: 1\n", false},
		{"text after a block scalar's header", "a: | x\n  y\n", false},
		{"block scalars as items", "a:\n  - |\n    one\n    two\n  - >-\n      folded\n      text\n\n  - 3\n- b\n", false},
		{"block scalars as items of a list at its key's indentation", "a:\n- |\n  one\n- >+\n  two\n\nb: 1\n", true},
		{"block scalars as items in a long list", "a:\n" + strings.Repeat("  - |\n    x\n", packFrom+1) + "  - 1\n", true},
		{"a plain scalar over lines", "a: one\n  two\n", false},
		{"a plain item over lines", "- one\n  two\n", true},
		{"a quoted scalar over lines", "a: \"one\n  two\"\n", true},
		{"a flow collection over lines", "a: [1,\n  2]\n", true},
		{"a comment in a flow collection", "a: [1, # c\n  2]\n", true},
		{"a trailing comma", "a: [1, 2,]\n", true},
		{"a flow mapping entry without a value", "a: {b}\n", true},
		{"a colon in a flow scalar", "a: [b:c]\n", true},
		{"a question mark in a flow scalar, which the library refuses", "a: [0?]\n", false},
		{"a question mark in a block scalar", "d: x?\ne: a?b\n", true},
		{"a single pair in a flow list", "a: [b: c]\n", true},
		{"a merge key", "a: {b: 1}\nc:\n  <<: {d: 1}\n", true},
		{"an explicit key", "? a\n: 1\n", false},
		{"a document marker", "---\na: 1\n", false},
		{"two documents", "a: 1\n---\nb: 2\n", false},
		{"a directive", "%YAML 1.2\n---\na: 1\n", false},
		{"a tab after the first key", "a:\t1\n", false},
		{"a tab after a later key", "x: 1\na:\t1\n", true},
		{"tabs in comments and a block scalar", "a: 1 #\tc\nb: |\n  x\ty\n#\t\nc: 2\n", true},
		{"a tab in a flow collection", "a: [1,\t2]\nb: 3\n", true},
		{"CR LF line ends", "a: 1\r\nb: 2\r\n", false},
		{"a byte-order mark", "\ufeffa: 1\n", false},
		{"an error: mapping values in a value", "a: b: c\n", false},
		{"an error: a key indented more", "a: 1\n  b: 2\n", false},
		{"an error: a list after a value", "a: x\n- b\n", false},
		{"an error: an unclosed flow list", "a: [1, 2\n", false},
		{"an error: an unclosed quote", "a: 'b\n", false},
		{"an unknown escape", "a: \"\\q\"\n", false},
		{"an escaped surrogate", "a: \"\\ud800\"\n", false},
		{"a key of 1,001 bytes", strings.Repeat("k", 1001) + ": 1\n", false},
		{"a key of 1,000 bytes", strings.Repeat("k", 1000) + ": 1\n", true},
		{"empty", "", false},
		{"only comments", "# a\n\n# b\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := readAgrees(t, tc.name, []byte(tc.data), Limits{}); got != tc.read {
				t.Errorf("read without the library: %v, want %v", got, tc.read)
			}
		})
	}
}

// TestLargeYAMLReadAgrees: GitHub's description written as YAML is read
// without the library, into the library's tree. A long test, which CI runs
// without -race (there it took half a CPU-minute): the reader is one
// goroutine, and TestYAMLReadAgrees runs it under -race.
func TestLargeYAMLReadAgrees(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	if !readAgrees(t, "github.yaml", githubYAML(t, 2), Limits{}) {
		t.Error("not read without the library")
	}
}

// githubYAMLs are GitHub's description written as YAML in block style, by
// indent, each made once for the tests that read it: the YAML library's
// parse of the 13 MB and its encoding cost more than a second each.
var githubYAMLs struct {
	sync.Mutex
	texts map[int][]byte
}

// githubYAML is GitHub's description written as YAML in block style with
// the given indent, a copy of its own for each caller.
func githubYAML(t *testing.T, indent int) []byte {
	t.Helper()
	path := testenv.NPMFile(t, "@octokit/openapi", "23.0.2", "generated/api.github.com.json")
	githubYAMLs.Lock()
	defer githubYAMLs.Unlock()
	if text, ok := githubYAMLs.texts[indent]; ok {
		return bytes.Clone(text)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	clearFlowStyle(&doc)
	var b stringsBuilder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(indent)
	if err := enc.Encode(&doc); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	if githubYAMLs.texts == nil {
		githubYAMLs.texts = map[int][]byte{}
	}
	githubYAMLs.texts[indent] = b.data
	return bytes.Clone(b.data)
}

// clearFlowStyle writes JSON's flow collections in YAML's block style.
func clearFlowStyle(n *yaml.Node) {
	if n.Kind != yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		clearFlowStyle(c)
	}
}

// TestYAMLReadLimits: at every bound on the values, and on the depth, the
// reader refuses what the library's tree is refused for, at the same
// place, and counts what it counts.
func TestYAMLReadLimits(t *testing.T) {
	t.Parallel()
	doc := "a: 1\nb:\n  - x\n  - [1, {c: 'd'}]\n  - e: f\nh: {i: [j]}\nk: .inf\n"
	for values := int64(1); values <= 40; values++ {
		if !readAgrees(t, fmt.Sprintf("values %d", values), []byte(doc), Limits{Values: values}) {
			t.Errorf("values %d: not read", values)
		}
	}
	list := "x:\n" + strings.Repeat("  - 1\n", packFrom+10)
	for _, values := range []int64{3, 100, 2 * packFrom, 2*packFrom + 30} {
		readAgrees(t, fmt.Sprintf("a packed list, values %d", values), []byte(list), Limits{Values: values})
	}
	for _, depth := range []int{4, 5, 6} {
		// Past the bound the library reads the entry, and refuses it.
		if !readAgrees(t, fmt.Sprintf("depth %d", depth), []byte("a: [[[[1]]]]\n"), Limits{Depth: depth}) {
			t.Errorf("Depth %d: not read", depth)
		}
	}

}

// FuzzReadPlainYAML: on any input, what the reader reads it reads as the
// YAML library does.
func FuzzReadPlainYAML(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/specs/*.yaml")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte("a: [1, [2, {b: c}]]\nd:\n- e: 'f'\n  g: \"h\\u00e9\"\n- [1]\n- {}\n"))
	f.Add([]byte("a: >-\n  one\n   two\n\n  three\n  \tfour\nb: |+\n  x\n\n    \nc: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readAgrees(t, "f.yaml", data, Limits{Values: 200, Depth: 8})
	})
}

// TestYAMLReadAgreesOnGeneratedDocuments: documents written at random from
// the part of YAML the reader reads, and near it (a character changed
// here and there), read as the YAML library reads them; most of them are
// read without it. The first 500 of them: a long test reads the 2,500
// after them.
func TestYAMLReadAgreesOnGeneratedDocuments(t *testing.T) {
	t.Parallel()
	yamlReadAgreesOnGenerated(t, 0, 500)
}

// TestYAMLReadAgreesOnMoreGeneratedDocuments is
// TestYAMLReadAgreesOnGeneratedDocuments on the next 2,500 documents: a
// single goroutine's reading, which that test runs under -race.
func TestYAMLReadAgreesOnMoreGeneratedDocuments(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	yamlReadAgreesOnGenerated(t, 500, 3000)
}

// yamlReadAgreesOnGenerated reads the generated documents from first to
// end (each run writes the same documents in the same order).
func yamlReadAgreesOnGenerated(t *testing.T, first, end int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(36, 1))
	read := 0
	docs := end - first
	for i := range end {
		doc := genYAML(rng)
		if rng.IntN(4) == 0 {
			// A byte changed: the reader must still agree, or leave it.
			b := []byte(doc)
			b[rng.IntN(len(b))] = " :-#[]{},'\"\na1\t\u00e9"[rng.IntN(17)]
			doc = string(b)
		}
		if i < first {
			continue
		}
		if readAgrees(t, fmt.Sprintf("doc %d", i), []byte(doc), Limits{Depth: 9}) {
			read++
		}
		if t.Failed() {
			t.Logf("doc %d:\n%s", i, doc)
			return
		}
	}
	t.Logf("%d of %d documents read without the library", read, docs)
	if read < docs/2 {
		t.Errorf("%d of %d documents read without the library, want most", read, docs)
	}
}

// genYAML writes a block mapping at random, of the kinds of values the
// reader reads.
func genYAML(rng *rand.Rand) string {
	var b strings.Builder
	genMapping(rng, &b, 0, 0, false)
	return b.String()
}

var (
	genKeys    = []string{"a", "b", "k1", "200", "0x1F", "true", "null", "'q'", "\"d\\u00e9\"", "a b", "x#y", "\u00e9t\u00e9", "-k", "1.50", "+1", "/p/{id}", "'it''s'", "\"\\/s\""}
	genScalars = []string{"1", "-2.5e3", "true", "~", "null", "0o17", "01234", "1_000", "text with spaces", "a#b", "x # c", "'s''q'", "\"e\\n\\t\\\"\\U0001F600\"", "-x", "a:b", ".5", "\u4e16\u754c", "yes", "'#'", "\"\\/\"", "1e400", "0x", "[]", "{}"}
)

func genMapping(rng *rand.Rand, b *strings.Builder, indent, depth int, inItem bool) {
	n := 1 + rng.IntN(4)
	keys := rng.Perm(len(genKeys)) // a key twice is left to the library
	for i := range n {
		if i > 0 || !inItem {
			b.WriteString(strings.Repeat(" ", indent))
		}
		fmt.Fprintf(b, "%s:", genKeys[keys[i]])
		genValue(rng, b, indent, depth)
		if rng.IntN(6) == 0 {
			b.WriteString(strings.Repeat(" ", rng.IntN(6)) + "# note\n\n")
		}
	}
}

func genValue(rng *rand.Rand, b *strings.Builder, indent, depth int) {
	step := 2 + 2*rng.IntN(2)
	switch k := rng.IntN(10); {
	case depth < 4 && k < 3:
		b.WriteString("\n")
		genMapping(rng, b, indent+step, depth+1, false)
	case depth < 4 && k < 5:
		b.WriteString("\n")
		at := indent + step
		if rng.IntN(3) == 0 {
			at = indent // a list at its key's indentation
		}
		for range 1 + rng.IntN(3) {
			b.WriteString(strings.Repeat(" ", at) + "- ")
			switch rng.IntN(5) {
			case 4:
				// What the library reads for the reader.
				b.WriteString([]string{"&i1 7\n", "!!str 8\n", genBlockScalar(rng, strings.Repeat(" ", at+2))[1:], "plain\n" + strings.Repeat(" ", at+2) + "continued\n", "*i1\n", "\n"}[rng.IntN(6)])
			case 0:
				genMapping(rng, b, at+2, depth+1, true)
			case 2:
				s := genScalars[rng.IntN(len(genScalars))]
				fmt.Fprintf(b, "- %s\n%s- %s\n", s, strings.Repeat(" ", at+2), s)
			case 1:
				b.WriteString(genFlow(rng, depth+1) + "\n")
			default:
				b.WriteString(genScalars[rng.IntN(len(genScalars))] + "\n")
			}
		}
	case k == 9 && rng.IntN(2) == 0:
		// What the library reads for the reader: a block scalar, a tag,
		// an anchor and its alias, a scalar over lines, an empty value.
		deeper := strings.Repeat(" ", indent+step)
		b.WriteString([]string{
			genBlockScalar(rng, deeper),
			genBlockScalar(rng, deeper),
			" !!str 5\n",
			" &x1 [1, 2]\n",
			" *x1\n",
			" plain\n" + deeper + "continued\n",
			" \"quoted\n" + deeper + "over lines\"\n",
			"\n",
		}[rng.IntN(8)])
	case k < 8:
		b.WriteString(" " + genFlow(rng, depth) + "\n")
	default:
		b.WriteString(" " + genScalars[rng.IntN(len(genScalars))] + strings.Repeat(" ", rng.IntN(2)) + "\n")
	}
}

// genBlockScalar is a literal or folded block scalar, each chomping, with
// its lines indented deeper: lines of text, more indented ones, blank ones
// with spaces or none, tabs in the text.
func genBlockScalar(rng *rand.Rand, deeper string) string {
	var b strings.Builder
	b.WriteString(" " + []string{"|", ">"}[rng.IntN(2)] + []string{"", "-", "+"}[rng.IntN(3)])
	if rng.IntN(4) == 0 {
		b.WriteString("  # header")
	}
	b.WriteString("\n" + deeper + "first line\n") // a tab before it is the library's error
	for range rng.IntN(6) {
		switch rng.IntN(6) {
		case 0:
			b.WriteString(strings.Repeat(" ", rng.IntN(len(deeper)+3)) + "\n")
		case 1:
			b.WriteString(deeper + strings.Repeat(" ", 1+rng.IntN(3)) + "more indented\n")
		case 2:
			b.WriteString(deeper + "\ttab\tin text\n")
		default:
			b.WriteString(deeper + "text line\n")
		}
	}
	return b.String()
}

func genFlow(rng *rand.Rand, depth int) string {
	if depth > 4 || rng.IntN(3) == 0 {
		s := genScalars[rng.IntN(len(genScalars))]
		if strings.ContainsAny(s, ":#") {
			return "1"
		}
		return s
	}
	var parts []string
	seq := rng.IntN(2) == 0
	keys := rng.Perm(len(genKeys))
	for i := range rng.IntN(4) {
		v := genFlow(rng, depth+1)
		if !seq {
			v = genKeys[keys[i]] + ": " + v
		}
		parts = append(parts, v)
	}
	sep := []string{",", ", ", " , "}[rng.IntN(3)]
	if seq {
		return "[" + strings.Join(parts, sep) + "]"
	}
	return "{" + strings.Join(parts, sep) + "}"
}

// TestYAMLRefusedPartCostsOnce: an entry deep in block mappings that the
// library, given its lines alone, reads otherwise (an alias to an anchor
// outside it) sends the document to the library once, not once a level
// (a nesting's depth times the text). Four times the depth, the same
// list: about the same allocations. Not parallel: it counts the heap. A
// long test, as the other costs counted in allocations are: one goroutine
// reads each document.
func TestYAMLRefusedPartCostsOnce(t *testing.T) {
	testenv.Long(t)
	growthtest.Bounded(t, "an alias deep in block mappings", 25, func(depth int) {
		var b strings.Builder
		b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-anchor: &a {q: 1}\nx-deep:\n")
		for d := range depth {
			b.WriteString(strings.Repeat(" ", d+1) + "k:\n")
		}
		in := strings.Repeat(" ", depth+1)
		b.WriteString(in + "list: [1" + strings.Repeat(",1", 20_000) + "]\n" + in + "z: *a\n")
		prepareYAML(t, fstest.MapFS{"a.yaml": {Data: []byte(b.String())}}).Release()
	})
}

// TestBlockScalarsReadWithoutTheLibrary: an entry's or an item's block
// scalar costs the reader a few allocations, where giving its lines to
// the YAML library costs a decoder each (some 40). Not parallel: it
// counts allocations.
func TestBlockScalarsReadWithoutTheLibrary(t *testing.T) {
	const n = 500
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: >-\n  folded\n  text\nl%d:\n  - |\n    literal\n", i, i)
	}
	data := []byte(b.String())
	allocs := testing.AllocsPerRun(3, func() {
		lim := Limits{}.withDefaults()
		c := &yamlConverter{name: "a.yaml", src: &Source{Name: "a.yaml", budget: newBudget(context.Background(), lim)}, lim: lim}
		c.bud = c.src.budget
		if _, ok, err := c.readPlainYAML(data); !ok || err != nil {
			t.Fatalf("not read: %v", err)
		}
	})
	if per := allocs / (2 * n); per > 10 {
		t.Errorf("%.1f allocations a block scalar, want at most 10: the library read them", per)
	}
}

// TestMembersCountedAhead: a mapping of more than countFrom members, block
// or flow, grows its slice once, to the number of its members, counted
// ahead past what would mislead a count (commas and braces in quotes and
// in the collections it holds, list items at its keys' indentation,
// comments, blank lines, block scalars), and reads as the library reads
// it; a mapping nested in it is counted too.
func TestMembersCountedAhead(t *testing.T) {
	t.Parallel()
	flowMember := func(i int) string {
		switch i % 5 {
		case 0:
			return fmt.Sprintf(`k%d: "a, b} \" ,"`, i)
		case 1:
			return fmt.Sprintf("'k%d,}': 'it''s, }'", i)
		case 2:
			return fmt.Sprintf("k%d: [1, {a: 2, b: [3, 4]}, '], ']", i)
		case 3:
			return fmt.Sprintf("k%d: {x: 1, y: 2}", i)
		}
		return fmt.Sprintf("k%d: a b", i)
	}
	blockMember := func(i int) string {
		switch i % 5 {
		case 0:
			return fmt.Sprintf("  k%d:\n  - 1\n  - x: 2\n", i)
		case 1:
			return fmt.Sprintf("  # k%d\n\n  k%d: |\n    text\n\n    k: v\n", i, i)
		case 2:
			return fmt.Sprintf("  'k%d': {a: 1, b: 2}\n", i)
		case 3:
			return fmt.Sprintf("  k%d:\n    a: 1\n    b: [1, 2]\n", i)
		}
		return fmt.Sprintf("  k%d: 1 # a comment\n", i)
	}
	n := 3*countFrom + 7
	var flow, block, nested strings.Builder
	flow.WriteString("x-map: {")
	block.WriteString("x-map:\n")
	nested.WriteString("x-map:\n  inner: {")
	for i := range n {
		if i > 0 {
			flow.WriteString(", ")
			nested.WriteString(", ")
		}
		flow.WriteString(flowMember(i))
		nested.WriteString(flowMember(i))
		block.WriteString(blockMember(i))
	}
	flow.WriteString("}\n")
	nested.WriteString("}\n")
	for i := range n {
		nested.WriteString(blockMember(i))
	}
	for _, tc := range []struct {
		name, doc string
		maps      []string // the mappings counted, by their keys from the top
	}{
		{"flow", flow.String(), []string{"x-map"}},
		{"block", block.String(), []string{"x-map"}},
		{"nested", nested.String(), []string{"x-map", "x-map/inner"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n" + tc.doc)
			if !readAgrees(t, tc.name, doc, Limits{}) {
				t.Fatal("not read without the library")
			}
			root, err := Parse("m.yaml", doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range tc.maps {
				m := root
				for _, k := range strings.Split(at, "/") {
					m = m.Get(k)
				}
				if fs := m.Fields(); len(fs) < n || cap(fs) != len(fs) {
					t.Errorf("%s: %d members in a slice of %d, want %d or more in a slice of as many", at, len(fs), cap(fs), n)
				}
			}
		})
	}
}

// TestMembersCountedAheadLinearly: counting the members of large mappings
// ahead goes through a document's bytes about once, however deep they
// nest: each mapping of n levels counts past those in it, which came to
// n²/2 levels' bytes where the count was not bounded.
func TestMembersCountedAheadLinearly(t *testing.T) {
	t.Parallel()
	nested := func(levels int) []byte {
		// Flow mappings on one line, each in the one before it after
		// countFrom+1 members: {k0: 1, …, x: {k0: 1, …, x: {…}}}.
		var b strings.Builder
		b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-nest: ")
		for range levels {
			b.WriteString("{")
			for i := range countFrom + 1 {
				fmt.Fprintf(&b, "k%d: 1, ", i)
			}
			b.WriteString("x: ")
		}
		b.WriteString("1" + strings.Repeat("}", levels) + "\n")
		return []byte(b.String())
	}
	growthtest.LinearCount(t, "members counted ahead", "bytes", 8, func(levels int) uint64 {
		doc := nested(levels)
		c := &yamlConverter{name: "n.yaml", src: &Source{Name: "n.yaml", budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits}
		c.bud = c.src.budget
		if _, ok, err := c.readPlainYAML(doc); !ok || err != nil {
			t.Fatalf("%d levels: read without the library %v, %v", levels, ok, err)
		}
		if c.counted < len(doc)/2 {
			t.Errorf("%d levels: %d bytes counted ahead of %d: the members were not counted", levels, c.counted, len(doc))
		}
		return uint64(c.counted)
	})
}

// misledFlow is a document with a flow mapping of countFrom+2 members,
// the last after a comment of about size bytes of members and a closing
// brace.
func misledFlow(size int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-map: {")
	for i := range countFrom + 1 {
		fmt.Fprintf(&b, "k%d: 1, ", i)
	}
	b.WriteString("# " + strings.Repeat("a,", size/2) + "}\n  z: 1}\n")
	return b.String()
}

// TestMembersCountedAheadAllocates: a flow mapping followed by a comment
// full of commas is read allocating a small multiple of its size, and holds
// room for its members only, where each comma reserved a member of 32
// bytes for the life of the tree. Not parallel: it counts the bytes the
// process allocates.
func TestMembersCountedAheadAllocates(t *testing.T) {
	doc := []byte(misledFlow(1_000_000))
	var root *Node
	var err error
	allocated := growthtest.Measure(func(int) { root, err = Parse("m.yaml", doc) }, 0).Bytes
	if err != nil {
		t.Fatal(err)
	}
	if allocated > uint64(16*len(doc)) {
		t.Errorf("%d bytes allocated reading %d bytes, want at most 16 a byte", allocated, len(doc))
	}
	fs := root.Get("x-map").Fields()
	if want := countFrom + 2; len(fs) != want || cap(fs) > len(fs)+len(fs)/4+16 {
		t.Errorf("%d members in a slice of %d, want %d in a slice of about as many", len(fs), cap(fs), want)
	}
}

// TestFitFields: a mapping past countFrom members left with room for many
// more, as a count ahead that a text misled would leave it, keeps room
// for its members only; one with a little room more, as appending leaves
// it, is not copied.
func TestFitFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		len, cap int
		wantCap  int
	}{
		{"room for many more", countFrom + 1, 8 * countFrom, countFrom + 1},
		{"room for a quarter more", 4 * countFrom, 5 * countFrom, 5 * countFrom},
		{"a short mapping", 33, 64, 64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n Node
			n.Kind = Object
			n.SetFields(make([]Field, tc.len, tc.cap))
			fitFields(&n)
			if fs := n.Fields(); len(fs) != tc.len || cap(fs) != tc.wantCap {
				t.Errorf("%d members in a slice of %d, want %d in a slice of %d", len(fs), cap(fs), tc.len, tc.wantCap)
			}
		})
	}
}

// TestCountMembersStops: the count ahead counts no more than the members
// that follow, where a comment or an empty member comes in a flow mapping
// before its closing brace, or a line that is not an entry at the keys'
// indent in a block mapping; it counts none in a flow mapping that goes on
// past its line.
func TestCountMembersStops(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		indent     int
		flow       bool
		want       int
	}{
		{"a flow mapping", ", b: 1, c: [1, 2], d: {e: 1}}\n", 0, true, 3},
		{"a comment in a flow mapping", ", b: 1, # c, d, e, f }\n  g: 1}\n", 0, true, 0},
		{"an empty member in a flow mapping", ", b: 1,,,,,,,, c: 1}\n", 0, true, 0},
		{"a flow mapping past its line", ", b: 1, c: 1, d: 1, e: 1,\n  f: 1}\n", 0, true, 0},
		{"a block mapping", "  b: 1\n  # c: 1\n\n  c:\n  - 1\n    d: 1\n  'e': 1\nf: 1\n  g: 1\n", 2, false, 3},
		{"lines that are not entries", "  b: 1\n  c d\n  e: 1\n  f: 1\n  g: 1\n", 2, false, 1},
		{"a complex key", "  b: 1\n  ? c\n  : 1\n  e: 1\n  f: 1\n", 2, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &yamlConverter{name: "n.yaml", src: &Source{Name: "n.yaml", budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits}
			head := "a: 1" // the member read before, the count from its end
			if !tc.flow {
				head = "a:\n" // the line after it
			}
			r := &yamlReader{c: c, d: []byte(head + tc.text), line: 1, cCol: 1}
			if got := r.countMembers(len(head), tc.indent, tc.flow); got != tc.want {
				t.Errorf("%d members counted, want %d", got, tc.want)
			}
		})
	}
}

// TestLongListPlacesAsTheLibrary: every item of a long block list that
// is unpacked part way (a mapping at item 300), and every value in its
// items, has the kind, text and place (line and column) that the YAML
// library's own nodes give, read by the reader, by the converter and in
// parts. They share the packing of items, so that comparing them with one
// another cannot find a place packing moved.
func TestLongListPlacesAsTheLibrary(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-list:\n")
	for i := range 400 {
		switch {
		case i == 300:
			b.WriteString("  - k: v\n    l: [1, 2]\n")
		case i%8 == 0:
			fmt.Fprintf(&b, "  - a%d\n", i)
		case i%8 == 1:
			fmt.Fprintf(&b, "  -   %d\n", i)
		case i%8 == 2:
			fmt.Fprintf(&b, "  - 'q%d'\n", i)
		case i%8 == 3:
			fmt.Fprintf(&b, "  - \"d%d\"\n", i)
		case i%8 == 4:
			fmt.Fprintf(&b, "  - |\n    b%d\n", i)
		case i%8 == 5:
			fmt.Fprintf(&b, "  - [%d, x, [y]]\n", i)
		case i%8 == 6:
			b.WriteString("  - {}\n  - []\n")
		default:
			b.WriteString("  - true\n  - null\n")
		}
	}
	data := []byte(b.String())
	var lib yaml.Node
	if err := yaml.Unmarshal(data, &lib); err != nil {
		t.Fatal(err)
	}
	want := lib.Content[0].Content[7] // x-list's value
	conv := func() *yamlConverter {
		c := &yamlConverter{name: "l.yaml", src: &Source{Name: "l.yaml", budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits}
		c.bud = c.src.budget
		return c
	}
	for _, tc := range []struct {
		name string
		read func() (*Node, bool, error)
	}{
		{"the reader", func() (*Node, bool, error) { return conv().readPlainYAML(data) }},
		{"the converter", func() (*Node, bool, error) {
			_, doc, _, err := decodeYAML(append([]byte(nil), data...))
			if err != nil {
				return nil, true, err
			}
			n, err := conv().convert(doc)
			return n, true, err
		}},
		{"in parts", func() (*Node, bool, error) { return conv().parseInParts(data, 0, 0) }},
		{"in parts of 64 bytes or more", func() (*Node, bool, error) { return conv().parseInParts(data, 0, 64) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, ok, err := tc.read()
			if !ok || err != nil {
				t.Fatalf("not read: %v, %v", ok, err)
			}
			if d := libraryDiff(want, root.Get("x-list"), "x-list"); d != "" {
				t.Error(d)
			}
		})
	}
}

// libraryDiff is the first difference between y, a node of the YAML
// library, and n, what it was read as, or "".
func libraryDiff(y *yaml.Node, n *Node, at string) string {
	kinds := map[string]Kind{"!!str": String, "!!int": Number, "!!float": Number, "!!bool": Bool, "!!null": Null, "!!seq": Array, "!!map": Object}
	if k, ok := kinds[y.ShortTag()]; !ok || n.Kind != k {
		return fmt.Sprintf("%s: %v, the library's %s", at, n.Kind, y.ShortTag())
	}
	if n.Pos != (Pos{Line: int32(y.Line), Col: int32(y.Column)}) {
		return fmt.Sprintf("%s: at %d:%d, the library's at %d:%d", at, n.Pos.Line, n.Pos.Col, y.Line, y.Column)
	}
	switch n.Kind {
	case Array:
		items := n.Elems()
		if len(items) != len(y.Content) {
			return fmt.Sprintf("%s: %d items, the library's %d", at, len(items), len(y.Content))
		}
		for i, it := range items {
			if d := libraryDiff(y.Content[i], it, fmt.Sprintf("%s/%d", at, i)); d != "" {
				return d
			}
		}
	case Object:
		fs := n.Fields()
		if 2*len(fs) != len(y.Content) {
			return fmt.Sprintf("%s: %d members, the library's %d", at, len(fs), len(y.Content)/2)
		}
		for i, f := range fs {
			k := y.Content[2*i]
			if f.Key != k.Value || f.KeyPos != (Pos{Line: int32(k.Line), Col: int32(k.Column)}) {
				return fmt.Sprintf("%s: key %q at %d:%d, the library's %q at %d:%d", at, f.Key, f.KeyPos.Line, f.KeyPos.Col, k.Value, k.Line, k.Column)
			}
			if d := libraryDiff(y.Content[2*i+1], f.Value, at+"/"+f.Key); d != "" {
				return d
			}
		}
	default:
		if n.Scalar() != y.Value {
			return fmt.Sprintf("%s: %q, the library's %q", at, n.Scalar(), y.Value)
		}
	}
	return ""
}
