package publish

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
)

// TestCompareLetsTheBaseTreeGo: while the descriptions are compared, the
// run holds of the base its JSON only, not its tree, which held some 8
// bytes a byte of the base (4.4 MB when a comparison of 1 MB whose every
// operation changed peaked at 43): what the run holds live then, over what
// the process held before it, is the two descriptions' JSON and the small
// head's tree. The base is a YAML description read into a whole tree, or
// a JSON one read in a single pass; base-file of another size than the
// head's is loaded beside it. Not parallel: it measures the heap, and
// replaces the comparison with one that measures it.
func TestCompareLetsTheBaseTreeGo(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string
		base string
	}{
		{"YAML", "base/openapi.yaml", operationsYAML(4000)},
		{"JSON in a single pass", "base/openapi.json", operationsJSON(4000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := flowConfig(t, "http://127.0.0.1:1")
			writeHead(t, cfg, "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /p0:\n    get:\n      responses: {'200': {description: ok}}\n")
			cfg.Compare, cfg.DryRun, cfg.BaseFile = true, true, tc.file
			if err := os.MkdirAll(filepath.Join(cfg.Workspace, "base"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cfg.Workspace, filepath.FromSlash(tc.file)), []byte(tc.base), 0o644); err != nil {
				t.Fatal(err)
			}
			before := liveHeap()
			var during uint64
			var both int
			compare := compareJSON
			t.Cleanup(func() { compareJSON = compare })
			compareJSON = func(_ context.Context, base, head []byte, ignore io.Reader) (*apidiff.Report, error) {
				during, both = liveHeap(), len(base)+len(head)
				return &apidiff.Report{}, nil
			}
			if _, rep, err := runFlow(t, cfg, Options{}); err != nil || both == 0 {
				t.Fatalf("err %v, compared %d bytes\n%s", err, both, rep.log())
			}
			// The JSON, and a megabyte for the head's tree and what the
			// runtime keeps (where the base's tree is 3.5 to 7 MB).
			held := int64(during) - int64(before)
			if most := int64(both) + 1<<20; held > most {
				t.Errorf("%.1f MB more live while comparing, want at most %.1f: the JSON of both (%.1f MB) and 1 MB", mb(held), mb(most), mb(int64(both)))
			}
			t.Logf("%.1f MB more live while comparing, %.1f MB of JSON", mb(held), mb(int64(both)))
		})
	}
}

// liveHeap is what the heap holds live, all garbage collected.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// operationsYAML and operationsJSON are a description of n operations.
func operationsYAML(n int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n")
	for i := range n {
		fmt.Fprintf(&b, "  /p%d:\n    get:\n      operationId: op%d\n      parameters:\n        - {name: q, in: query, schema: {type: string}}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {type: object, properties: {a: {type: string}, b: {type: string}}}\n", i, i)
	}
	return b.String()
}

func operationsJSON(n int) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"operationId":"op%d","parameters":[{"name":"q","in":"query","schema":{"type":"string"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}}}}}`, i, i)
	}
	b.WriteString(`}}`)
	return b.String()
}
