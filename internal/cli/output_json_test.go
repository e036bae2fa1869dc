package cli

import (
	"encoding/json"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/google/go-cmp/cmp"
)

// TestOutputJSONTypes: --output json gives sizes and counts as JSON numbers
// and live as a boolean when they are such, and as strings otherwise, so
// the object always parses.
func TestOutputJSONTypes(t *testing.T) {
	t.Parallel()
	outs := []ghaction.KV{
		{Name: "zip-size", Value: "4096"}, {Name: "breaking-changes", Value: "not-a-number"},
		{Name: "live", Value: "true"}, {Name: "doc-id", Value: "17"},
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(printJSON(outs, nil)), &got); err != nil {
		t.Fatalf("%v: %s", err, printJSON(outs, nil))
	}
	want := map[string]any{"zip-size": 4096.0, "breaking-changes": "not-a-number", "live": true, "doc-id": "17"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outputs (-want +got):\n%s", d)
	}
}
