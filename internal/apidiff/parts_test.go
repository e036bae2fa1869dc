package apidiff

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

// operations is a description of n operations, each with a query
// parameter and a response of two properties, and a schema of its own;
// changed, every parameter is required and every type an integer, the
// schema is gone and a security scheme is added.
func operations(n int, changed bool) []byte {
	var b strings.Builder
	req, typ, comps := "false", "string", `"schemas":{"Old":{"type":"string"}}`
	if changed {
		req, typ, comps = "true", "integer", `"securitySchemes":{"key":{"type":"apiKey","in":"header","name":"X-Key"}}`
	}
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"operationId":"op%d","parameters":[{"name":"q","in":"query","required":%s,"schema":{"type":"%s"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{"a":{"type":"%s"},"b":{"type":"%s"}}}}}}}}}`, i, i, req, typ, typ, typ)
	}
	fmt.Fprintf(&b, `},"components":{%s}}`, comps)
	return []byte(b.String())
}

// TestPartsReportAsTheWhole: compared a path at a time, the pairs report
// what the whole documents report, each change to the document or a
// component once.
func TestPartsReportAsTheWhole(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..", "testdata", "apidiff")
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string][2][]byte{"many operations": {operations(5, false), operations(5, true)}}
	for _, c := range cases {
		dir := filepath.Join(root, c.Name())
		pairs[c.Name()] = [2][]byte{bundled(t, filepath.Join(dir, "base")), bundled(t, filepath.Join(dir, "head"))}
	}
	for name, pair := range pairs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			whole, err := compareWhole(context.Background(), compact(pair[0]), compact(pair[1]), nil)
			if err != nil {
				t.Fatal(err)
			}
			parts, err := compareIn(context.Background(), pair[0], pair[1], nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(text(whole), text(parts)); d != "" {
				t.Errorf("report in parts (-whole +parts):\n%s", d)
			}
			if name == "many operations" && !strings.Contains(text(parts), "\t \tapi-schema-removed\t") {
				t.Errorf("no change to components in:\n%s", text(parts))
			}
		})
	}
}

// TestPartsRecutReportAsTheWhole: parts cut again once the first part's
// cost is told (here smaller than the first, for a budget of some 3 MB
// and parts whose every operation changed) report what the whole
// documents report, each change once, the operations and the removed
// schemas alike, every one counted.
func TestPartsRecutReportAsTheWhole(t *testing.T) {
	t.Parallel()
	// Every operation changed, and schemas that no path refers to, more
	// than the first part holds, removed.
	base, head := withSchemas(operations(600, false), 1500), operations(600, true)
	whole, err := compareWhole(context.Background(), base, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, h := indexBoth(t, base, head)
	keep := map[unitKey]bool{}
	for _, d := range []*doc{b, h} {
		for k := range d.units {
			keep[k] = true
		}
	}
	b.verbatim = verbatimUnits(closure(keep, b, h), b, h)
	h.verbatim = b.verbatim
	budget := firstPartCost * maxFirstPart // the first part as large as it may be
	first, next := partSize(budget, firstPartCost, 1<<20), partSize(budget, 40, 1<<20)
	if next >= first-first/4 {
		t.Fatalf("parts of %d then %d bytes: the test wants them cut again", first, next)
	}
	// Every part told to cost 40 bytes a byte, whatever was allocated.
	compared := 0
	cost := func(uint64, int) float64 { compared++; return 40 }
	cut := cutting{most: 1 << 20, budget: budget, both: len(base) + len(head), cost: cost}
	inParts, _, err := compareParts(context.Background(), b, h, keep, nil, nil, cut)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(parts(keep, b, h, first)); compared <= n {
		t.Errorf("%d parts compared, as many as %d parts of %d bytes: want them cut again smaller", compared, n, first)
	}
	if d := cmp.Diff(text(whole), text(inParts)); d != "" {
		t.Errorf("report in parts cut again (-whole +parts):\n%s", d)
	}
	if whole.Total() != inParts.Total() {
		t.Errorf("%d changes in parts, %d in the whole", inParts.Total(), whole.Total())
	}
}

// withSchemas is doc, which has schemas, with the n schemas of
// schemas(n, false) too.
func withSchemas(doc []byte, n int) []byte {
	all := string(schemas(n, false))
	own := all[strings.Index(all, `"schemas":{`)+len(`"schemas":{`) : len(all)-len(`}}}`)]
	return []byte(strings.Replace(string(doc), `"schemas":{`, `"schemas":{`+own+`,`, 1))
}

// schemas is a description of n schemas in components that no path
// refers to, each an object of two properties; changed, each property is
// an integer and required.
func schemas(n int, changed bool) []byte {
	var b strings.Builder
	typ, req := "string", ""
	if changed {
		typ, req = "integer", `,"required":["a","b"]`
	}
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"S%d":{"type":"object","properties":{"a":{"type":"%s"},"b":{"type":"%s","maxLength":9}}%s}`, i, typ, typ, req)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// TestComparisonMemoryFollowsTheText: a change that reaches every
// operation, or every schema, costs a few bytes of live heap a byte of the
// two descriptions beyond a fixed part, however many changes: the index of
// the two, and one part cut to the library's budget, as Compare cuts them
// (where parts of a quarter of the two held some 14 bytes a byte, and the
// changed schemas went in one part, the whole). The peak of the heap is
// measured at two sizes four times apart, with the collector run often so
// that the heap follows what is live. Not parallel: it measures the heap.
func TestComparisonMemoryFollowsTheText(t *testing.T) {
	testenv.Long(t)
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	for _, tc := range []struct {
		name  string
		write func(n int, changed bool) []byte
		n     int
		// most is the most live heap a byte of the two descriptions more
		// may cost: the index of the two (some 2 bytes a byte, more for
		// small units: a schema here is 80 bytes) and the part's budget
		// (partBudgetPerByte), with room for the collector's lag.
		most float64
	}{
		{"every operation changed", operations, 1200, 6},
		{"every schema changed", schemas, 3000, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var size [2]int
			var peak [2]uint64
			for i, n := range []int{tc.n, tc.n * growthtest.Factor} {
				base, head := tc.write(n, false), tc.write(n, true)
				size[i] = len(base) + len(head)
				peak[i] = growthtest.Peak(func() {
					if _, err := Compare(base, head); err != nil {
						t.Fatal(err)
					}
				})
			}
			ratio := float64(peak[1]) / float64(peak[0])
			perByte := (float64(peak[1]) - float64(peak[0])) / float64(size[1]-size[0])
			t.Logf("%d KB: peak %.1f MB; %d KB: peak %.1f MB; ×%.2f, %.1f bytes a byte between", size[0]>>10, float64(peak[0])/(1<<20), size[1]>>10, float64(peak[1])/(1<<20), ratio, perByte)
			if ratio > growthtest.MaxRatio {
				t.Errorf("%d times the descriptions took %.1f times the memory, want at most %.1f", growthtest.Factor, ratio, growthtest.MaxRatio)
			}
			if perByte > tc.most {
				t.Errorf("%.1f bytes of memory a byte of the descriptions, want at most %.0f", perByte, tc.most)
			}
		})
	}
}

// TestReportKeepsTheMostSerious: a comparison that finds more than MaxKept
// changes keeps the MaxKept most serious, in the report's order, and
// counts them all; agreed changes are moved aside before any is left out.
func TestReportKeepsTheMostSerious(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	base, head := operations(300, false), operations(300, true)
	s1, err := read(base)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := read(head)
	if err != nil {
		t.Fatal(err)
	}
	all, err := compare(s1, s2, nil, nil) // everything the library finds
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Changes) <= MaxKept+100 {
		t.Fatalf("%d changes: the test wants more than %d", len(all.Changes), MaxKept+100)
	}
	// The last path in the report's order: its changes would be left out.
	const agreed = "get /p99 the `query` request parameter `q` became required"
	var want []Change
	for _, c := range all.Changes {
		if c.Path != "/p99" || c.ID != "request-parameter-became-required" {
			want = append(want, c)
		}
	}
	rep, err := CompareAccepting(context.Background(), base, head, strings.NewReader(agreed+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changes) != MaxKept {
		t.Errorf("%d changes kept, want %d", len(rep.Changes), MaxKept)
	}
	if d := cmp.Diff(text(&Report{Changes: want[:MaxKept]}), text(rep)); d != "" {
		t.Errorf("kept (-the first of all +kept):\n%s", d)
	}
	if rep.TotalAccepted() != 1 {
		t.Errorf("%d agreed changes, want 1", rep.TotalAccepted())
	}
	for _, l := range []Level{Breaking, Warning, Info} {
		want := all.Count(l)
		if l == Breaking {
			want -= rep.TotalAccepted()
		}
		if got := rep.Count(l); got != want {
			t.Errorf("%d %s changes counted, want %d", got, l, want)
		}
	}
	if rep.Total() != len(want) || rep.OmittedAt(Info) != all.Count(Info) {
		t.Errorf("%d changes, %d other changes left out; want %d, and all %d other changes left out", rep.Total(), rep.OmittedAt(Info), len(want), all.Count(Info))
	}
	for i := 1; i < len(rep.Changes); i++ {
		if rep.Changes[i].Level > rep.Changes[i-1].Level {
			t.Fatalf("change %d is more serious than change %d", i, i-1)
		}
	}
}

// TestPartsAQuarterOfTheText: a change that reaches every operation of
// two descriptions of about 1 MB is given to the library in parts, each at
// most a quarter of the two (and of one endpoint more), not whole.
func TestPartsAQuarterOfTheText(t *testing.T) {
	t.Parallel()
	base, head := operations(1800, false), operations(1800, true)
	b, h := indexBoth(t, base, head)
	// A security scheme added: every unit is compared, as compareIn does.
	if p := prune(b, h); p.keep != nil {
		t.Fatalf("%d units kept, want every operation compared", len(p.keep))
	}
	keep := map[unitKey]bool{}
	for k := range h.units {
		keep[k] = true
	}
	both := len(base) + len(head)
	ps := parts(keep, b, h, partText(base, head))
	if len(ps) < 4 {
		t.Errorf("%d parts of %d KB, want at least 4", len(ps), both>>10)
	}
	for i, set := range ps {
		n, most := 0, 0
		for k := range set {
			u := len(b.units[k]) + len(h.units[k])
			n, most = n+u, max(most, u)
		}
		if n > both/4+most {
			t.Errorf("part %d holds %d KB of %d KB", i, n>>10, both>>10)
		}
	}
}

// TestPartsAcceptAsTheWhole: the agreed changes of a comparison in parts,
// a path a part, come in the order the whole documents give them (the
// most serious first, then by path), not in the order of the parts.
func TestPartsAcceptAsTheWhole(t *testing.T) {
	t.Parallel()
	// Each query parameter became required (breaking) and its pattern
	// changed (a warning).
	pair := func(required, pattern string) []byte {
		var b strings.Builder
		b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
		for i := range 6 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"/p%d":{"get":{"parameters":[{"name":"q","in":"query","required":%s,"schema":{"type":"string","pattern":"%s"}}],"responses":{"200":{"description":"ok"}}}}`, i, required, pattern)
		}
		b.WriteString(`}}`)
		return []byte(b.String())
	}
	base, head := pair("false", "^a"), pair("true", "^b")
	all, err := compareWhole(context.Background(), base, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every change to an operation that is not only told, agreed.
	var ignore []string
	levels := map[Level]bool{}
	for _, c := range all.Changes {
		if c.Path != "" && c.Level > Info {
			ignore = append(ignore, strings.ToLower(c.Operation+" "+c.Path+" "+c.Text))
			levels[c.Level] = true
		}
	}
	if len(levels) < 2 {
		t.Fatalf("agreed changes of %d levels: the test wants more than one, so that the parts' order differs", len(levels))
	}
	whole, err := compareWhole(context.Background(), base, head, newIgnores(ignore))
	if err != nil {
		t.Fatal(err)
	}
	parts, err := compareIn(context.Background(), base, head, newIgnores(ignore), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Accepted) != len(ignore) {
		t.Fatalf("%d changes agreed, want %d", len(whole.Accepted), len(ignore))
	}
	if d := cmp.Diff(text(&Report{Changes: whole.Accepted}), text(&Report{Changes: parts.Accepted})); d != "" {
		t.Errorf("agreed changes in parts (-whole +parts):\n%s", d)
	}
}

// shared is a description of n operations, each with a query parameter
// and a response that refers to one schema of some 70 kB; changed, every
// parameter's type is an integer.
func shared(n int, changed bool) []byte {
	var b strings.Builder
	typ := "string"
	if changed {
		typ = "integer"
	}
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"%s"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Big"}}}}}}}`, i, typ)
	}
	b.WriteString(`},"components":{"schemas":{"Big":{"type":"object","properties":{`)
	for i := range 1500 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string","description":"d"}`, i)
	}
	b.WriteString(`}}}}}`)
	return []byte(b.String())
}

// TestPartsReadTheTextAFewTimes: when every changed path refers to one
// large schema, parts cut small for the budget would each hold it, the
// library reading it once a path (150 paths: 12 MB of text for 0.2 MB of
// descriptions); all the parts together hold at most maxTextRead times
// the two descriptions, and report what the whole documents report.
func TestPartsReadTheTextAFewTimes(t *testing.T) {
	t.Parallel()
	base, head := shared(150, false), shared(150, true)
	b, h := indexBoth(t, base, head)
	p := prune(b, h)
	if p.keep == nil || len(p.keep) != 150 {
		t.Fatalf("%d units kept, want the 150 paths", len(p.keep))
	}
	b.verbatim = verbatimUnits(closure(p.keep, b, h), b, h)
	h.verbatim = b.verbatim
	both := len(base) + len(head)
	cut := cutFor(both, partText(base, head))
	// Every part told to cost 100 bytes a byte: parts of minBudgetedPart,
	// less than the schema.
	cut.cost = func(uint64, int) float64 { return 100 }
	if big := (unitKey{"components/schemas", "Big"}); partSize(cut.budget, 100, cut.most) >= len(b.units[big])+len(h.units[big]) {
		t.Fatal("the test wants parts cut smaller than the schema")
	}
	rep, given, err := compareParts(context.Background(), b, h, p.keep, p.drop, nil, cut)
	if err != nil {
		t.Fatal(err)
	}
	if given > maxTextRead*both {
		t.Errorf("the library was given %d KB of text for %d KB of descriptions, want at most %d times that", given>>10, both>>10, maxTextRead)
	}
	whole, err := compareWhole(context.Background(), base, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(text(whole), text(rep)); d != "" {
		t.Errorf("report in parts (-whole +parts):\n%s", d)
	}
}

// TestPartsReportAPathOnce: a path that another refers to (a link's
// operationRef) is read with it, in that path's part too; its changes are
// reported once, as the whole documents report them.
func TestPartsReportAPathOnce(t *testing.T) {
	t.Parallel()
	pair := func(required string) []byte {
		return []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{` +
			`"/a":{"get":{"parameters":[{"name":"q","in":"query","required":` + required + `,"schema":{"type":"string"}}],"responses":{"200":{"description":"ok","links":{"next":{"operationRef":"#/paths/~1b/get"}}}}}},` +
			`"/b":{"get":{"parameters":[{"name":"r","in":"query","required":` + required + `,"schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}}}}`)
	}
	base, head := pair("false"), pair("true")
	whole, err := compareWhole(context.Background(), base, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := compareIn(context.Background(), base, head, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(text(whole), text(parts)); d != "" {
		t.Errorf("report in parts (-whole +parts):\n%s", d)
	}
}

// TestPartsOfAChainHoldItOnce: schemas that each refer to the next, all
// changed, cut into parts smaller than the chain: the first part holds
// the chain, and the groups that follow, already in it, add no part of
// their own, where each started a part holding the rest of the chain (n
// parts, the text n*n). Counted as the text the parts hold.
func TestPartsOfAChainHoldItOnce(t *testing.T) {
	t.Parallel()
	growthtest.LinearCount(t, "parts of a chain", "bytes in parts", 200, func(n int) uint64 {
		base, head := spec(1, growthtest.RefChain(n, "string")), spec(1, growthtest.RefChain(n, "integer"))
		b, h := indexBoth(t, base, head)
		p := prune(b, h)
		if len(p.keep) != n+2 {
			t.Fatalf("%d units kept, want the %d schemas and the path", len(p.keep), n+2)
		}
		return uint64(textOf(parts(p.keep, b, h, (len(base)+len(head))/8), b, h))
	})
}
