package openapi

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/growthtest"
)

// packedItems is a list item of every plain kind: text, numbers as YAML
// writes them, booleans, nulls, an escaped slash, a plain scalar over two
// lines, and text that needs escaping in JSON.
var packedItems = []string{"a", "two words", "0x1F", "+5", "1.0", ".5", "1_000", "true", "False", "~", "null", `a\/b`, "über", "x\n    y", `tab\there`, "-3e2"}

// listDoc is a description whose x-list holds the first n items of a
// cycle through packedItems, at indent.
func listDoc(n int, indent string) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-list:\n")
	for i := range n {
		item := strings.ReplaceAll(packedItems[i%len(packedItems)], "\n", "\n"+indent)
		fmt.Fprintf(&b, "%s- %s\n", indent, item)
	}
	return []byte(b.String())
}

// unpackAll unpacks every packed Array of a tree.
func unpackAll(n *Node) {
	for _, f := range n.Fields() {
		unpackAll(f.Value)
	}
	for _, it := range n.Elems() {
		unpackAll(it)
	}
}

// TestLongListsPacked: a long list of plain scalars is held packed, and
// gives the same upload and, unpacked, the same items (kinds, text and
// places) as a list too short to pack.
func TestLongListsPacked(t *testing.T) {
	t.Parallel()
	for _, indent := range []string{"", "  ", "     "} {
		short, err := Parse("s.yaml", listDoc(packFrom-1, indent))
		if err != nil {
			t.Fatal(err)
		}
		long, err := Parse("s.yaml", listDoc(3*packFrom, indent))
		if err != nil {
			t.Fatal(err)
		}
		least, err := Parse("s.yaml", listDoc(packFrom, indent))
		if err != nil {
			t.Fatal(err)
		}
		sl, ll := short.Get("x-list"), long.Get("x-list")
		if sl.packed || !ll.packed || ll.Items() != nil || !least.Get("x-list").packed {
			t.Fatalf("indent %q: packed: short %v, long %v with %d items, %d items %v", indent, sl.packed, ll.packed, len(ll.Items()), packFrom, least.Get("x-list").packed)
		}
		size := jsonSize(long, nil)
		packedJSON, err := Encode(long, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if a := ll.AppendJSON(nil); !bytes.Contains(packedJSON, a) {
			t.Errorf("indent %q: AppendJSON of the list is not what Encode wrote", indent)
		}
		items := ll.Elems()
		if ll.packed || len(items) != 3*packFrom {
			t.Fatalf("indent %q: unpacked into %d items, packed %v", indent, len(items), ll.packed)
		}
		for i, it := range sl.Items() {
			if d := treeDiff(it, items[i], fmt.Sprintf("#/x-list/%d", i)); d != "" || items[i].Src != ll.Src || it.Src != sl.Src {
				t.Fatalf("indent %q: unpacked %s", indent, d)
			}
		}
		if s := jsonSize(long, nil); s != size {
			t.Errorf("indent %q: size %d packed, %d unpacked", indent, size, s)
		}
		unpackedJSON, err := Encode(long, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(packedJSON, unpackedJSON) {
			t.Errorf("indent %q: the upload differs packed and unpacked:\n%.300s\n%.300s", indent, packedJSON, unpackedJSON)
		}
	}
}

// TestPackedListsInParts: a long list cut into parts is packed as the
// whole parse packs it, and unpacked when a later part holds an item that
// cannot be packed (a mapping, a list with a $ref).
func TestPackedListsInParts(t *testing.T) {
	t.Parallel()
	for _, last := range []string{"", "{k: v}", "'quoted'", "!!str 5", "&x anchored", "[1, 2]"} {
		data := listDoc(2*packFrom, "  ")
		if last != "" {
			data = append(data, "  - "+last+"\n"...)
		}
		if !partsAgree(t, fmt.Sprintf("list ending %q", last), data) {
			t.Errorf("%q: the parts were not used", last)
		}
	}
	// Lists of flow lists, empty collections and scalars of every style.
	for _, last := range []string{"", "{k: v}", "[{$ref: '#/x'}]"} {
		if !partsAgree(t, fmt.Sprintf("list of flow lists ending %q", last), []byte(blockListDoc("[0]", 2*packFrom, last, false))) {
			t.Errorf("%q: the parts were not used", last)
		}
	}
}

// TestPackedListsValidated: validation reads a packed enum's items as it
// reads unpacked ones, and finds the same.
func TestPackedListsValidated(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n")
	for _, p := range []struct{ name, def string }{{"in", "v7"}, {"out", "none"}} {
		fmt.Fprintf(&b, "      - name: %s\n        in: query\n        schema:\n          type: string\n          default: %s\n          enum:\n", p.name, p.def)
		for i := range 2 * packFrom {
			fmt.Fprintf(&b, "          - v%d\n", i)
		}
	}
	b.WriteString("      responses: {'200': {description: ok}}\n")
	root, err := Parse("v.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	enum := root.Get("paths").Get("/a").Get("get").Get("parameters").Elems()[0].Get("schema").Get("enum")
	if !enum.packed {
		t.Fatal("the enum is not packed")
	}
	packed := Validate(root)
	unpackAll(root)
	if enum.packed {
		t.Fatal("the enum is still packed")
	}
	unpacked := Validate(root)
	if !slices.Equal(packed, unpacked) {
		t.Errorf("findings packed:\n%v\nunpacked:\n%v", packed, unpacked)
	}
	var outside []Finding
	for _, f := range packed {
		if strings.Contains(f.Msg, "not one of its enum values") {
			outside = append(outside, f)
		}
	}
	if len(outside) != 1 || !strings.Contains(outside[0].Msg, "none") {
		t.Errorf("want one finding, about the default none outside its enum: %v", outside)
	}
}

// TestPackedListsResolved: a JSON pointer into a packed list finds the
// item written there.
func TestPackedListsResolved(t *testing.T) {
	t.Parallel()
	doc := listDoc(2*packFrom, "  ")
	root, err := Parse("r.yaml", doc)
	if err != nil {
		t.Fatal(err)
	}
	if !root.Get("x-list").packed {
		t.Fatal("the list is not packed")
	}
	i := 2*packFrom - 1
	got, err := Resolve(root, fmt.Sprintf("/x-list/%d", i))
	if err != nil {
		t.Fatal(err)
	}
	// The line of the document where the last item starts.
	var line int
	for n, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "  - ") {
			line = n + 1
		}
	}
	if got.Kind != Number || got.Scalar() != "-3e2" || got.Pos != (Pos{Line: int32(line), Col: 5}) {
		t.Errorf("item %d: %s %q at %v", i, got.Kind, got.Scalar(), got.Pos)
	}
}

// TestPackedPlaces: items packed keep their places, on one line (where a
// column is kept after the previous item's) and over lines, columns large
// and small.
func TestPackedPlaces(t *testing.T) {
	t.Parallel()
	places := []Pos{{1, 1}, {1, 3}, {1, 4_000_000}, {1, 4_000_002}, {2, 7}, {2, 2}, {9, 1}, {9, 1 << 30}, {10, 5}, {10, 5}}
	var p packer
	for i, at := range places {
		p.add(Number, fmt.Sprint(i), at)
	}
	var n Node
	n.Kind = Array
	p.done(&n)
	items := n.Elems()
	if len(items) != len(places) {
		t.Fatalf("%d items, want %d", len(items), len(places))
	}
	for i, it := range items {
		if it.Pos != places[i] || it.Scalar() != fmt.Sprint(i) {
			t.Errorf("item %d: %s at %v, want %d at %v", i, it.Scalar(), it.Pos, i, places[i])
		}
	}
}

// TestShortFlowListsPacked: a flow list of plain scalars is held packed
// however short, read by the reader or by the YAML library, and gives back
// each item's kind, text and place as the same items written one a line
// (too few to pack) give their kind and text, and the same upload.
func TestShortFlowListsPacked(t *testing.T) {
	t.Parallel()
	var flowItems []string // the items a flow list can hold as they are
	for _, it := range packedItems {
		if !strings.Contains(it, "\n") {
			flowItems = append(flowItems, it)
		}
	}
	for _, n := range []int{1, 2, len(flowItems)} {
		for _, library := range []bool{false, true} {
			items := flowItems[:n]
			var doc strings.Builder
			doc.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n")
			if library {
				doc.WriteString("x-alias: &a 1\nx-again: *a\n") // an alias: the library reads the document
			}
			doc.WriteString("x-flow: [" + strings.Join(items, ", ") + "]\nx-lines:\n- [" + items[0] + "]\n- [" + items[n-1] + "]\nx-block:\n")
			for _, it := range items {
				doc.WriteString("- " + it + "\n")
			}
			line := int32(4)
			if library {
				line += 2
			}
			name := fmt.Sprintf("%d items, library %v", n, library)
			root, err := Parse("f.yaml", []byte(doc.String()))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			flow, lines, block := root.Get("x-flow"), root.Get("x-lines"), root.Get("x-block")
			if !flow.packed || flow.Items() != nil || len(lines.Items()) != 2 || !lines.Items()[0].packed || !lines.Items()[1].packed || block.packed {
				t.Fatalf("%s: packed: the flow list %v, the lines' lists %v, the block list %v, want true, true, false", name, flow.packed, !slices.ContainsFunc(lines.Items(), func(n *Node) bool { return !n.packed }), block.packed)
			}
			upload := string(root.AppendJSON(nil))
			col := int32(len("x-flow: [")) + 1
			for i, it := range flow.Elems() {
				want := block.Items()[i]
				at := Pos{Line: line, Col: col}
				if it.Kind != want.Kind || it.Scalar() != want.Scalar() || it.Pos != at || it.Src != flow.Src {
					t.Errorf("%s: item %d is %s %q at %v, want %s %q at %v", name, i, it.Kind, it.Scalar(), it.Pos, want.Kind, want.Scalar(), at)
				}
				col += int32(utf8.RuneCountInString(items[i])) + 2 // columns count characters
			}
			for i, l := range lines.Items() {
				want := block.Items()[i*(n-1)]
				if got := l.Elems(); len(got) != 1 || got[0].Kind != want.Kind || got[0].Scalar() != want.Scalar() || got[0].Pos != (Pos{Line: line + 2 + int32(i), Col: 4}) {
					t.Errorf("%s: line %d's list is %v, want %s %q at %d:4", name, i, got, want.Kind, want.Scalar(), line+2+int32(i))
				}
			}
			if unpacked := string(root.AppendJSON(nil)); unpacked != upload {
				t.Errorf("%s: the upload differs packed and unpacked:\n%s\n%s", name, upload, unpacked)
			}
			flowJSON, blockJSON := string(flow.AppendJSON(nil)), string(block.AppendJSON(nil))
			if flowJSON != blockJSON {
				t.Errorf("%s: the flow list is %s, the block list %s", name, flowJSON, blockJSON)
			}
		}
	}
}

// TestNestedFlowListsPacked: a flow list of scalars, lists and mappings
// is held packed whole, down to packDepth levels, and gives back every
// value, key and place as written: each unpacked value's place is where
// its text starts on the line, each key's where the key does, and the
// upload, written from the packed text (in chunks when it is large) and
// unpacked, is the JSON of the same values written in block style.
func TestNestedFlowListsPacked(t *testing.T) {
	t.Parallel()
	const flow = `[a, [1, [true, {k: v, 'q k': "two words", e: {}, l: []}]], {}, [], [[null]], {n: {m: [2.5, x]}}, -1]`
	block := "- a\n- - 1\n  - - true\n    - k: v\n      q k: two words\n      e: {}\n      l: []\n- {}\n- []\n- - - null\n- n:\n    m:\n    - 2.5\n    - x\n- -1\n"
	head := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"
	line := "x-flow: " + flow
	for _, library := range []bool{false, true} {
		doc := head + line + "\nx-block:\n" + strings.TrimSuffix(strings.ReplaceAll("\n"+block, "\n", "\n  ")[1:], "  ")
		if library {
			doc += "x-alias: &a 1\nx-again: *a\n" // an alias: the library reads the document
		}
		root, err := Parse("n.yaml", []byte(doc))
		if err != nil {
			t.Fatalf("library %v: %v", library, err)
		}
		n := root.Get("x-flow")
		if !n.packed || n.Items() != nil {
			t.Fatalf("library %v: the flow list is not packed", library)
		}
		want := string(root.Get("x-block").AppendJSON(nil))
		if got := string(n.AppendJSON(nil)); got != want {
			t.Errorf("library %v: packed, the flow list is\n%s\nwant\n%s", library, got, want)
		}
		// Every value and key starts where its place says, on line 4.
		var check func(n *Node, at string)
		check = func(n *Node, at string) {
			if n.Pos.Line != 4 || n.Src != root.Src || !strings.HasPrefix(line[n.Pos.Col-1:], at) {
				t.Errorf("library %v: %s %q at %v, from %q: want it on line 4, where %q starts", library, n.Kind, n.Scalar(), n.Pos, n.Src.Name, at)
			}
			for _, f := range n.Fields() {
				if f.KeyPos.Line != 4 || !strings.HasPrefix(strings.Trim(line[f.KeyPos.Col-1:], "'"), f.Key) {
					t.Errorf("library %v: key %q at %v", library, f.Key, f.KeyPos)
				}
				check(f.Value, valueText(f.Value))
			}
			for _, it := range n.Elems() {
				check(it, valueText(it))
			}
		}
		check(n, "[")
		if got := string(n.AppendJSON(nil)); got != want {
			t.Errorf("library %v: unpacked, the flow list is\n%s\nwant\n%s", library, got, want)
		}
	}

	// A list too deep to pack whole is packed below packDepth levels.
	deep := strings.Repeat("[", packDepth+2) + "1" + strings.Repeat("]", packDepth+2)
	root, err := Parse("d.yaml", []byte(head+"x-deep: "+deep+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	levels, n := 0, root.Get("x-deep")
	for ; !n.packed; levels++ {
		n = n.Items()[0]
	}
	if levels != 2 || packedHeight(Array, n.Scalar()) != packDepth {
		t.Errorf("%d levels unpacked above a packed list %d deep, want 2 above %d", levels, packedHeight(Array, n.Scalar()), packDepth)
	}

	// Large, the upload is written in chunks from the packed text.
	var big strings.Builder
	big.WriteString(head + "x-big: [[0]")
	for big.Len() < 3*encodeChunk {
		big.WriteString(",[1,[1,{a: 1, b: 'é'}]]")
	}
	big.WriteString("]\n")
	root, err = Parse("b.yaml", []byte(big.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !root.Get("x-big").packed {
		t.Fatal("the large list is not packed")
	}
	upload, err := Encode(root, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if want := root.AppendJSON(nil); !bytes.Equal(upload, want) {
		t.Errorf("the upload in chunks differs from AppendJSON: %d and %d bytes", len(upload), len(want))
	}
}

// valueText is how a value of TestNestedFlowListsPacked starts as written.
func valueText(n *Node) string {
	switch {
	case n.Kind == Array:
		return "["
	case n.Kind == Object:
		return "{"
	case n.Scalar() == "two words":
		return `"two words"`
	}
	return n.Scalar()
}

// TestFlowListsWithRefsNotPacked: a flow list holding a $ref or a
// discriminator, which bundling rewrites, is not packed, nor a long block
// list of flow lists that holds it, and is bundled;
// one of parameters is packed and validated as the same written in block
// style.
func TestFlowListsWithRefsNotPacked(t *testing.T) {
	t.Parallel()
	head := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"
	fsys := mapFS(map[string]string{
		"openapi.yaml": head + "paths:\n  /a:\n    get:\n      parameters: [{name: q, in: nowhere}]\n      responses: {'200': {description: ok}}\n" +
			"components:\n  schemas:\n    A: {allOf: [{$ref: 's.yaml'}, {type: object}]}\n    B: {oneOf: [{discriminator: {propertyName: k, mapping: {s: 's.yaml'}}}]}\n" +
			// A long block list of flow lists, one of which holds a $ref.
			"    C:\n      type: object\n      x-lines:\n" + strings.Repeat("      - [{}]\n", packFrom) + "      - [{$ref: 's.yaml'}]\n",
		"s.yaml": "type: object\nproperties: {k: {type: string}}\n",
	})
	root, err := Load(t.Context(), fsys, "openapi.yaml", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	schemas := root.Get("components").Get("schemas")
	allOf, oneOf, lines := schemas.Get("A").Get("allOf"), schemas.Get("B").Get("oneOf"), schemas.Get("C").Get("x-lines")
	params := root.Get("paths").Get("/a").Get("get").Get("parameters")
	if allOf.packed || oneOf.packed || lines.packed || !params.packed {
		t.Fatalf("packed: allOf %v, oneOf %v, the block list %v, parameters %v; want false, false, false, true", allOf.packed, oneOf.packed, lines.packed, params.packed)
	}
	b, err := Bundle(t.Context(), root, BundleOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	out := string(b.AppendJSON(nil))
	for _, want := range []string{`"allOf":[{"$ref":"#/components/schemas/s"}`, `"mapping":{"s":"#/components/schemas/s"}`, `[{}],[{"$ref":"#/components/schemas/s"}]]`} {
		if !strings.Contains(out, want) {
			t.Errorf("bundled, the description lacks %s:\n%s", want, out)
		}
	}
	flowFindings := Validate(b)
	blockDoc := head + "paths:\n  /a:\n    get:\n      parameters:\n      - name: q\n        in: nowhere\n      responses: {'200': {description: ok}}\n"
	blockRoot, err := Parse("openapi.yaml", []byte(blockDoc))
	if err != nil {
		t.Fatal(err)
	}
	blockFindings := Validate(blockRoot)
	msgs := func(fs []Finding) (m []string) {
		for _, f := range fs {
			m = append(m, f.Msg)
		}
		return m
	}
	if len(blockFindings) == 0 || !slices.Equal(msgs(flowFindings), msgs(blockFindings)) {
		t.Errorf("findings for parameters in flow style %q, in block style %q: want the same, not none", msgs(flowFindings), msgs(blockFindings))
	}
}

// blockItems are items a long block list holds packed: flow lists (each
// packed itself, seven levels deep at most), empty collections, and
// scalars of every style, tagged and anchored too (the YAML library reads
// those lines for the reader).
var blockItems = []string{"[1]", "{}", "[]", "[a, {b: [1, 2]}, 'c d', {}]", "'quoted'", `"dq \u00e9"`, "!!str 5", "&x 7", "|\n  literal\n  text", ">-\n  folded\n  text", "plain", "[[[[[[[1]]]]]]]", "-2.5"}

// blockListDoc is a description whose x-list, a block list, holds first,
// then n items cycling through blockItems, then last if not "".
func blockListDoc(first string, n int, last string, library bool) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-list:\n- " + first + "\n")
	for i := range n {
		b.WriteString("- " + blockItems[i%len(blockItems)] + "\n")
	}
	if last != "" {
		b.WriteString("- " + last + "\n")
	}
	if library {
		b.WriteString("x-alias: &a 1\nx-again: *a\n") // an alias: the library reads the document
	}
	return b.String()
}

// TestBlockListsOfFlowCollectionsPacked: a long block list of flow lists,
// empty collections and scalars of any style is held packed, read by the
// reader or by the YAML library, and gives back every value, key and
// place as the same list does unpacked (its first item a mapping, which
// keeps it so: each item is then read into nodes as it is read), and the
// same upload, written from the packed text and unpacked.
func TestBlockListsOfFlowCollectionsPacked(t *testing.T) {
	t.Parallel()
	for _, library := range []bool{false, true} {
		name := fmt.Sprintf("library %v", library)
		packed, err := Parse("b.yaml", []byte(blockListDoc("[0]", 2*packFrom, "", library)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		nodes, err := Parse("b.yaml", []byte(blockListDoc("{k: v}", 2*packFrom, "", library)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pl, nl := packed.Get("x-list"), nodes.Get("x-list")
		if !pl.packed || pl.Items() != nil || nl.packed {
			t.Fatalf("%s: packed: the list %v with %d items, the list led by a mapping %v", name, pl.packed, len(pl.Items()), nl.packed)
		}
		// The upload, as written: the same but for the first item.
		fix := func(b []byte) string { return strings.Replace(string(b), `"x-list":[[0],`, `"x-list":[{"k":"v"},`, 1) }
		upload, err := Encode(packed, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Encode(nodes, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if fix(upload) != string(want) {
			t.Errorf("%s: the upload differs packed and unpacked:\n%.400s\n%.400s", name, fix(upload), want)
		}
		items := pl.Elems()
		if pl.packed || len(items) != 2*packFrom+1 {
			t.Fatalf("%s: unpacked into %d items, packed %v", name, len(items), pl.packed)
		}
		unpackAll(packed)
		unpackAll(nodes)
		for i := 1; i < len(items); i++ {
			it, want := items[i], nl.Items()[i]
			if d := treeDiff(want, it, fmt.Sprintf("#/x-list/%d", i)); d != "" || it.Src != pl.Src {
				t.Fatalf("%s: unpacked %s (from %q)", name, d, it.Src.Name)
			}
		}
		if got := fix(packed.AppendJSON(nil)); got != string(want) {
			t.Errorf("%s: unpacked, the upload differs", name)
		}
	}
}

// TestBlockListsNotPacked: a long block list with an item that is a
// mapping with members, a list not packed (it holds a $ref or a
// discriminator, which bundling rewrites, or nests too deep) or a block
// list of its own is not packed, read by the reader or by the library.
func TestBlockListsNotPacked(t *testing.T) {
	t.Parallel()
	lasts := []string{"{k: v}", "k: v", "[{$ref: '#/components/schemas/A'}]", "[1, [{discriminator: {propertyName: k}}]]", "[[[[[[[[1]]]]]]]]", "- 1\n  - 2"}
	for _, last := range lasts {
		for _, library := range []bool{false, true} {
			root, err := Parse("n.yaml", []byte(blockListDoc("[0]", 2*packFrom, last, library)))
			if err != nil {
				t.Fatalf("%q, library %v: %v", last, library, err)
			}
			if l := root.Get("x-list"); l.packed || len(l.Items()) != 2*packFrom+2 {
				t.Errorf("%q, library %v: packed %v, %d items", last, library, l.packed, len(l.Items()))
			}
		}
	}
}

// TestLongBlockListsAllocate: reading a long block list allocates a small
// multiple of its text: a list of plain scalars, packed, grows its packed
// text by doubling (appending allocated five times its size); a list of
// long quoted or block scalars stays unpacked, its items' text not copied
// into a packed text. Not parallel: it counts the bytes the process
// allocates.
func TestLongBlockListsAllocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		item func(i int) string
		max  float64 // bytes allocated a byte of the document
	}{
		{"plain scalars", func(i int) string { return fmt.Sprintf("  - %d%s\n", i, strings.Repeat("a", 400)) }, 4.5},
		{"long quoted scalars", func(i int) string { return fmt.Sprintf("  - \"%d%s\"\n", i, strings.Repeat("a", 4000)) }, 5},
		{"long block scalars", func(i int) string { return fmt.Sprintf("  - |\n    %d%s\n", i, strings.Repeat("a", 4000)) }, 3},
	} {
		var b strings.Builder
		b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-list:\n")
		for i := 0; b.Len() < 4<<20; i++ {
			b.WriteString(tc.item(i))
		}
		doc := []byte(b.String())
		var err error
		allocated := growthtest.Measure(func(int) { _, err = Parse("l.yaml", doc) }, 0).Bytes
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if per := float64(allocated) / float64(len(doc)); per > tc.max {
			t.Errorf("%s: %.2f bytes allocated a byte of the document, want %.1f at most", tc.name, per, tc.max)
		}
	}
}
