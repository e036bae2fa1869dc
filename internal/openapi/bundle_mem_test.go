package openapi

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// heapHeld is the heap live after a collection.
func heapHeld() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestBundlerRecordsInBoundedMemory: while 64,000 $refs whose lifted names
// clean alike are bundled, what the bundler holds besides the bundled tree
// (its records of the files read, the targets lifted, the names taken, the
// $refs rewritten, its index of the other file's keys, and that file's
// members) stays under 140 bytes a $ref, 123 to 127 measured: it was 250, and
// made the live heap 11 bytes a byte of input where the tree is 6. Not parallel: it measures the heap.
func TestBundlerRecordsInBoundedMemory(t *testing.T) {
	testenv.Long(t) // bundles 64,000 $refs
	const refs = 64_000
	fsys := collidingRefs(refs)
	lim := Limits{Files: 8}
	root, err := Load(context.Background(), fsys, "openapi.yaml", lim)
	if err != nil {
		t.Fatal(err)
	}
	root, b, err := bundle(context.Background(), root, BundleOptions{FS: fsys, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(root.Get("components").Get("schemas").Fields()); got != refs+2 {
		t.Fatalf("%d schemas, want %d", got, refs+2)
	}
	with := heapHeld()
	runtime.KeepAlive(b)
	without := heapHeld() // b is dead: the tree alone
	runtime.KeepAlive(root)
	runtime.KeepAlive(fsys) // the files' text, which the bundler's file system holds too
	held := with - without
	t.Logf("%d $refs: the bundler holds %d KB besides the tree of %d KB (%d bytes a $ref)", refs, held>>10, without>>10, held/refs)
	const perRef = 140
	if held > refs*perRef {
		t.Errorf("the bundler holds %d bytes a $ref besides the tree, want at most %d", held/refs, perRef)
	}
}

// TestIndexFourBytesAMember: the index of a large object holds four
// bytes a member, where a map from key to position took some 50, and
// finds the first member of a key, as Get does. Not parallel: it measures
// the heap.
func TestIndexFourBytesAMember(t *testing.T) {
	const members = 100_000
	n := &Node{Kind: Object}
	fields := make([]Field, 0, members+1)
	for i := range members {
		fields = append(fields, Field{Key: fmt.Sprintf("k%d", members-i), Value: NewScalar(Number, fmt.Sprint(i))})
	}
	fields = append(fields, Field{Key: "k7", Value: NewScalar(String, "second")})
	n.SetFields(fields)
	ix := index{}
	before := heapHeld()
	if got := ix.get(n, "k7").Scalar(); got != fmt.Sprint(members-7) {
		t.Errorf("k7 is %q, want the first k7's %d", got, members-7)
	}
	held := heapHeld() - before
	runtime.KeepAlive(ix)
	t.Logf("an index of %d members holds %d KB", members, held>>10)
	if held > 5*members {
		t.Errorf("the index holds %d bytes a member, want at most 5", held/members)
	}
	for _, key := range []string{"k1", fmt.Sprint("k", members), "k50000"} {
		if got, want := ix.get(n, key), n.Get(key); got != want {
			t.Errorf("%s: the index finds %v, Get %v", key, got, want)
		}
	}
	if got := ix.get(n, "k0"); got != nil {
		t.Errorf("k0 found: %v", got)
	}
}

// TestBundleTablesAgreeWithMaps: the lifted table answers as a Go map
// does over many keys, some set twice (the last value wins) and some alike
// but for their case or a byte, through the table's growth. (The names in
// use are the section's members, found through its index:
// TestIndexAgreesWithGetAsTheObjectGrows.)
func TestBundleTablesAgreeWithMaps(t *testing.T) {
	t.Parallel()
	var lifted liftedTable
	want := map[string]string{}
	for i := range 5000 {
		key := fmt.Sprintf("c.yaml#/k%d", i%3000) // the last 2,000 set again
		local := fmt.Sprintf("#/components/schemas/n%d", i)
		lifted.set(key, local)
		want[key] = local
	}
	for _, key := range []string{"c.yaml#/k0", "c.yaml#/k2999", "c.yaml#/k3000", "c.yaml#/K1", "c.yaml#/k1 ", ""} {
		got, ok := lifted.get(key)
		w, wok := want[key]
		if got != w || ok != wok {
			t.Errorf("lifted %q: %q %v, want %q %v", key, got, ok, w, wok)
		}
	}
	for i := range 3000 {
		key := fmt.Sprintf("c.yaml#/k%d", i)
		if got, _ := lifted.get(key); got != want[key] {
			t.Fatalf("lifted %q: %q, want %q", key, got, want[key])
		}
	}
}

// TestFileTableFindsEveryRecord: the files' records, found through their
// position (blocks of 1, 1, 2, 4 … 256 records, then 256 each), are each
// file's own, where they were handed out, past the blocks' bounds.
func TestFileTableFindsEveryRecord(t *testing.T) {
	t.Parallel()
	var ft fileTable
	bud := newBudget(t.Context(), DefaultLimits)
	var recs []*loadedFile
	for i := range 1300 {
		f := ft.add(fmt.Sprintf("f/%d.yaml", i), bud)
		f.root = NewScalar(Number, fmt.Sprint(i))
		recs = append(recs, f)
	}
	if ft.len() != len(recs) {
		t.Fatalf("%d files, want %d", ft.len(), len(recs))
	}
	for i, want := range recs {
		name := fmt.Sprintf("f/%d.yaml", i)
		got := ft.get(name)
		if got != want || got.src.Name != name || got.root.Scalar() != fmt.Sprint(i) {
			t.Fatalf("%s: record %p (%+v), want %p", name, got, got, want)
		}
	}
	if f := ft.get("f/1300.yaml"); f != nil {
		t.Errorf("a file never read has a record: %+v", f)
	}
}

// TestIndexAgreesWithGetAsTheObjectGrows: an object's index finds what Get
// finds, the first member of a key, while members are appended one at a
// time, some with keys already there.
func TestIndexAgreesWithGetAsTheObjectGrows(t *testing.T) {
	t.Parallel()
	ix := index{}
	n := &Node{Kind: Object}
	var fields []Field
	for i := range 300 {
		key := fmt.Sprintf("k%d", i)
		if i%5 == 0 {
			key = fmt.Sprintf("k%d", i/3) // written before, or to be written
		}
		fields = append(fields, Field{Key: key, Value: NewScalar(Number, fmt.Sprint(i))})
		n.SetFields(fields)
		for _, k := range []string{key, "k1", "k10", fmt.Sprintf("k%d", i/2), "k-none"} {
			if got, want := ix.get(n, k), n.Get(k); got != want {
				t.Fatalf("%d members: %s: the index finds %v, Get %v", i+1, k, got, want)
			}
		}
	}
}

// TestDataRefsBetweenLiftsCostLinear: $refs in examples to a component of
// the description, each after a $ref that lifts one into the same section,
// cost work in proportion to their number: indexing the section anew each
// time it grew went through n² members. Not parallel: it reads a counter
// every lookup adds to.
func TestDataRefsBetweenLiftsCostLinear(t *testing.T) {
	growthtest.LinearCount(t, "data $refs between lifts", "members scanned", 500, func(n int) uint64 {
		var main, other strings.Builder
		main.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n")
		for i := range indexFrom {
			fmt.Fprintf(&main, "    d%d: {type: string}\n", i)
		}
		main.WriteString("    S:\n      type: object\n      properties:\n")
		for i := range n {
			fmt.Fprintf(&main, "        p%d: {$ref: 'c.yaml#/a%d'}\n        q%d: {type: object, example: {$ref: '#/components/schemas/d1'}}\n", i, i, i)
			fmt.Fprintf(&other, "a%d: {type: string}\n", i)
		}
		fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(main.String())}, "c.yaml": {Data: []byte(other.String())}}
		before := scanned.Load()
		root, err := loadBundle(t, fsys, "openapi.yaml", DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(root.Get("components").Get("schemas").Fields()); got != indexFrom+1+n {
			t.Fatalf("%d schemas, want %d", got, indexFrom+1+n)
		}
		return uint64(scanned.Load() - before)
	})
}

// TestAliasesLoadAsCopies: a value an alias repeats, a $ref among them, is
// a node of its own at each place, which the bundler counts on: it walks a
// $ref of the main file once and keeps no record of what it said.
func TestAliasesLoadAsCopies(t *testing.T) {
	t.Parallel()
	doc := "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n" +
		"    A:\n      $ref: &r 'c.yaml#/X'\n    B:\n      example: {$ref: *r}\n" +
		"    C: &o\n      properties:\n        p: {$ref: 'c.yaml#/Y'}\n    D:\n      example: *o\n    E: *o\n"
	root, err := Load(context.Background(), fstest.MapFS{"openapi.yaml": {Data: []byte(doc)}}, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*Node]bool{}
	var walk func(n *Node, at string)
	walk = func(n *Node, at string) {
		if seen[n] {
			t.Errorf("%s: a node that stands in another place too", at)
		}
		seen[n] = true
		for _, f := range n.Fields() {
			walk(f.Value, at+"/"+f.Key)
		}
		for i, it := range n.Items() {
			walk(it, fmt.Sprint(at, "/", i))
		}
	}
	walk(root, "")
	if len(seen) < 20 {
		t.Fatalf("%d nodes walked: the aliases were not expanded", len(seen))
	}
}

// TestIndexForgetsInlinedObjects: an object the bundler's index went
// through (a $ref in data resolved through it) and that a $ref in it then
// replaced with its target's members and its own is indexed anew: the
// index takes members appended to an object as they come, and would
// otherwise look the new members up where the old ones were. The second
// target ends with the key that ended the object before (its last
// sibling), at the same place and with the same text: only the
// replacement itself tells the index.
func TestIndexForgetsInlinedObjects(t *testing.T) {
	t.Parallel()
	var lastAgain strings.Builder
	lastAgain.WriteString("Big:\n")
	for i := range indexFrom + 8 {
		fmt.Fprintf(&lastAgain, "  t%d: %d\n", i, i)
	}
	fmt.Fprintf(&lastAgain, "  s%d: fromT\n  t%d: 1\n", indexFrom+7, indexFrom+9)
	for _, tc := range []struct {
		name, target, later string
	}{
		{"other keys", "Big: {type: object, a0: 0, a1: 1, a2: 2, a3: 3, a4: 4, a5: 5, a6: 6, a7: 7, a8: 8, a9: 9}\n", "a3"},
		{"the last sibling's key where it was", lastAgain.String(), fmt.Sprintf("s%d", indexFrom+7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var doc strings.Builder
			doc.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    S: {type: object, example: {$ref: '#/x-big/s5'}}\nx-big:\n  $ref: 'c.yaml#/Big'\n")
			for i := range indexFrom + 8 {
				fmt.Fprintf(&doc, "  s%d: %d\n", i, i)
			}
			fmt.Fprintf(&doc, "x-later: {$ref: '#/x-big/%s'}\n", tc.later)
			fsys := fstest.MapFS{
				"openapi.yaml": {Data: []byte(doc.String())},
				"c.yaml":       {Data: []byte(tc.target)},
			}
			root, err := Load(context.Background(), fsys, "openapi.yaml", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			root, b, err := bundle(context.Background(), root, BundleOptions{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			big := root.Get("x-big")
			if big.Get("t0") == nil && big.Get("a0") == nil || big.Get("$ref") != nil {
				t.Fatalf("x-big was not inlined: %v", big.Fields())
			}
			for _, f := range big.Fields() {
				if got, want := b.ix.get(big, f.Key), big.Get(f.Key); got != want {
					t.Errorf("%s: the bundler's index finds %v, Get %v", f.Key, got, want)
				}
			}
		})
	}
}

// TestBundledHoldsNoUnusedTree: a description that uses one schema of a
// large shared file by a pointer holds, once bundled, that schema, not the
// file: the bundled nodes name the file's Source, which sits in the
// bundler's record of the file, and the record once held the file's whole
// tree (11.7 MB kept for a file of 2.6 MB). Nor does the block of nodes the
// schema sits in hold the file's top and its sections, which hold the rest,
// when other files were read first (the files' nodes cut from one slab,
// the shared file's first nodes fell in a block of thousands with the
// schema: 16 MB kept). Not parallel: it measures the heap.
func TestBundledHoldsNoUnusedTree(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("components:\n  schemas:\n")
	for i := range 20_000 {
		fmt.Fprintf(&sb, "    S%d:\n      type: object\n      description: schema number %d with some text\n      properties:\n        a%d: {type: string}\n", i, i, i)
	}
	const use = "{$ref: 'common.yaml#/components/schemas/S5'}"
	for _, smallFirst := range []int{0, 2000} {
		t.Run(fmt.Sprintf("%d small files read first", smallFirst), func(t *testing.T) {
			fsys := fstest.MapFS{"common.yaml": {Data: []byte(sb.String())}}
			var main strings.Builder
			main.WriteString("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                properties:\n")
			for i := range smallFirst {
				name := fmt.Sprintf("f/%d.yaml", i)
				fsys[name] = &fstest.MapFile{Data: []byte("{type: string, x-l: [1, 2]}\n")}
				fmt.Fprintf(&main, "                  p%d: {$ref: '%s'}\n", i, name)
			}
			fmt.Fprintf(&main, "                  s: %s\n", use)
			fsys["openapi.yaml"] = &fstest.MapFile{Data: []byte(main.String())}
			before := heapHeld()
			root, err := Load(context.Background(), fsys, "openapi.yaml", Limits{})
			if err == nil {
				root, err = Bundle(context.Background(), root, BundleOptions{FS: fsys, Limits: Limits{}})
			}
			if err != nil {
				t.Fatal(err)
			}
			held := heapHeld() - before
			runtime.KeepAlive(root)
			runtime.KeepAlive(fsys) // the files' text, there before: not counted
			t.Logf("%d KB held", held>>10)
			// The small files, each lifted, hold some 600 bytes each.
			if limit := int64(1<<20 + smallFirst<<10); held > limit {
				t.Errorf("the bundled description of one schema of a %d-byte file, after %d small files, holds %d KB, want under %d KB", sb.Len(), smallFirst, held>>10, limit>>10)
			}
		})
	}
}
