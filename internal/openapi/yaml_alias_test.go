package openapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestAliasExpansionBytes: what aliases add counts toward ExpandedBytes:
// each value 4 bytes (its separators), and a text its length and its
// quotes. Exactly at the bound a description loads; a byte under it is
// refused at the alias that passes it.
func TestAliasExpansionBytes(t *testing.T) {
	t.Parallel()
	// Four aliases to "abcd": 4 × (4 + 4 + 4) bytes.
	doc := "openapi: 3.0.0\nx-a: &a abcd\nx-b: [*a, *a, *a, *a]\n"
	for _, lim := range []int64{48, 47} {
		_, err := Load(context.Background(), fstest.MapFS{"a.yaml": {Data: []byte(doc)}}, "a.yaml", Limits{ExpandedBytes: lim})
		checkBound(t, err, lim == 48, fmt.Sprintf("a.yaml:3:19: aliases expand to more than %d bytes", lim), fmt.Sprintf("48 bytes expanded, ExpandedBytes %d", lim))
	}
}

// TestAliasBombRefusedByItsValues: aliases of aliases that would expand to more than a
// million values are refused as such, before the count of all values is.
func TestAliasBombRefusedByItsValues(t *testing.T) {
	testenv.Long(t) // expands aliases to a million values
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\nx-0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i <= 6; i++ { // 10^6 of a, and the lists
		fmt.Fprintf(&b, "x-%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	_, err := Load(context.Background(), fstest.MapFS{"a.yaml": {Data: []byte(b.String())}}, "a.yaml", Limits{Values: 1_200_000, ExpandedBytes: 1 << 40})
	checkBound(t, err, false, "aliases expand to more than 1000000 values", "an alias bomb")
}

// TestConvertLetsTheLibraryTreeGo: converting lets each node of the YAML
// library's tree go once it is converted, so that the two trees are not
// both whole at once; but for what an alias names, which it reads again.
func TestConvertLetsTheLibraryTreeGo(t *testing.T) {
	t.Parallel()
	doc, _, err := decodeDocument([]byte("openapi: 3.0.0\nx-a: [1, 2]\nx-b: &b [3, 4]\nx-c: *b\nx-d: [5, 6]\n"))
	if err != nil {
		t.Fatal(err)
	}
	top := doc.Content[0]
	a, b, d := top.Content[3], top.Content[5], top.Content[9]
	c := yamlConverter{name: "a.yaml", src: &Source{Name: "a.yaml", budget: newBudget(context.Background(), DefaultLimits)}, lim: DefaultLimits}
	c.bud = c.src.budget
	n, err := c.convert(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(n.AppendJSON(nil)); got != `{"openapi":"3.0.0","x-a":[1,2],"x-b":[3,4],"x-c":[3,4],"x-d":[5,6]}` {
		t.Fatalf("converted to %s", got)
	}
	if doc.Content[0] != nil || top.Content[3] != nil || a.Content[0] != nil || a.Content[1] != nil || d.Content[0] != nil || d.Content[1] != nil {
		t.Error("converted nodes were kept")
	}
	if b.Content[0] == nil || b.Content[1] == nil {
		t.Error("the items of an anchored list were let go of")
	}
}
