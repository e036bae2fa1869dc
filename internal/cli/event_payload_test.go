package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreadableEventPayload: an event payload that cannot be read costs the
// comparison its base, with a warning that says why, and not the run.
func TestUnreadableEventPayload(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "openapi.yaml"), spec, 0o644)
	event := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(event, []byte("{not json"), 0o644)
	env := map[string]string{"GITHUB_WORKSPACE": ws, "GITHUB_EVENT_PATH": event, "GITHUB_EVENT_NAME": "push"}
	_, stderr, err := run(t, actionYAML(t), env, "--dry-run", "--file", "openapi.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "the event payload cannot be read, so the change has no base to compare with: ") {
		t.Errorf("no warning about the event payload:\n%s", stderr)
	}
}
