package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestLargeRealWorldDescriptions: GitHub's REST description (13 MB of JSON,
// OpenAPI 3.0, thousands of local references) loads through the JSON path,
// validates without errors, and bundling a single-file description changes
// nothing, so its resolved operations are the source's.
func TestLargeRealWorldDescriptions(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	path := testenv.NPMFile(t, "@octokit/openapi", "23.0.2", "generated/api.github.com.json")
	fsys := os.DirFS(filepath.Dir(path))
	root, err := Load(context.Background(), fsys, filepath.Base(path), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	before := root.AppendJSON(nil)
	bundled, err := Bundle(context.Background(), root, BundleOptions{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if after := bundled.AppendJSON(nil); !bytes.Equal(before, after) {
		t.Error("bundling a description without references to other files changed it")
	}
	raw, _ := os.ReadFile(path)
	var compact bytes.Buffer
	if err := jsonCompact(&compact, raw); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, compact.Bytes()) {
		t.Error("JSON written differs from the source compacted: key order or literals changed")
	}
	for _, f := range Validate(bundled) {
		if f.Severity == Error {
			t.Errorf("finding in a published description: %s", f)
		}
	}
}

func jsonCompact(dst *bytes.Buffer, src []byte) error { return json.Compact(dst, src) }

// TestLargeRealWorldDescriptionsInOnePass: GitHub's REST description, as
// published (13 MB) and dereferenced (73 MB, no $ref at all), takes the
// single pass, with the tree's upload and findings.
func TestLargeRealWorldDescriptionsInOnePass(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	for _, file := range []string{"generated/api.github.com.json", "generated/api.github.com.deref.json"} {
		path := testenv.NPMFile(t, "@octokit/openapi", "23.0.2", file)
		if !agree(t, os.DirFS(filepath.Dir(path)), filepath.Base(path), Limits{}) {
			t.Errorf("%s did not take the single pass", file)
		}
	}
}
