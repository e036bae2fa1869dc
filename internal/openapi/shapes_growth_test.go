package openapi

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// preparer prepares descriptions whole (loaded, bundled, validated,
// written) into one file it empties each time, for tests that count what
// preparing costs: onePass says which path the description must take.
func preparer(t *testing.T, onePass bool) func(fsys fs.FS, name string) *Prepared {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return func(fsys fs.FS, name string) *Prepared {
		t.Helper()
		if _, err := out.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if err := out.Truncate(0); err != nil {
			t.Fatal(err)
		}
		p, err := Prepare(context.Background(), fsys, name, PrepareOptions{Bundle: true, Limits: Limits{Files: 1 << 20}}, out)
		if err != nil {
			t.Fatal(err)
		}
		if p.OnePass != onePass {
			t.Fatalf("%s: the single pass did the work: %v, want %v", name, p.OnePass, onePass)
		}
		return p
	}
}

// allOfChain is a description of n+1 schemas, each but the first an allOf
// of a $ref to the one before: in YAML (one-line flow mappings, read into
// the tree) or in JSON (the single pass).
func allOfChain(n int, json bool) fstest.MapFS {
	var b strings.Builder
	if json {
		b.WriteString(`{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"S0":{"type":"object"}`)
		for i := range n {
			fmt.Fprintf(&b, `,"S%d":{"allOf":[{"$ref":"#/components/schemas/S%d"}]}`, i+1, i)
		}
		b.WriteString("}}}")
		return fstest.MapFS{"openapi.json": {Data: []byte(b.String())}}
	}
	b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    S0: {type: object}\n")
	for i := range n {
		fmt.Fprintf(&b, "    S%d: {allOf: [{$ref: '#/components/schemas/S%d'}]}\n", i+1, i)
	}
	return fstest.MapFS{"openapi.yaml": {Data: []byte(b.String())}}
}

// TestDeepAllOfCostLinear: a chain of n schemas, each an allOf of a $ref
// to the one before, costs allocations in proportion to n, prepared whole
// by either path: no check may follow the chain from each of its links.
// Not parallel: it counts allocations.
func TestDeepAllOfCostLinear(t *testing.T) {
	testenv.Long(t)
	for _, json := range []bool{false, true} {
		name := map[bool]string{false: "openapi.yaml", true: "openapi.json"}[json]
		prepare := preparer(t, json)
		growthtest.Linear(t, "a deep allOf chain, "+name, 2000, func(n int) {
			p := prepare(allOfChain(n, json), name)
			defer p.Release()
			if len(p.Findings) != 0 {
				t.Fatalf("findings %v, want none", p.Findings)
			}
		})
	}
}
