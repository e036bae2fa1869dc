package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDescriptionFileThatCannotBeRead: a file input that names nothing, a
// folder, or a file outside the workspace stops the run before anything
// is sent, saying what to give instead; it is no invalid description (the
// command line's exit status tells them apart), while a syntax error is.
func TestDescriptionFileThatCannotBeRead(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("openapi: 3.0.3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		setup   func(ws string) string // the file input
		want    string
		invalid bool
	}{
		{"missing", func(ws string) string { return "api/nope.yaml" }, "api/nope.yaml does not exist: check the file input", false},
		{"a folder", func(ws string) string { os.MkdirAll(filepath.Join(ws, "api", "v1"), 0o755); return "api/v1" }, "give the path of the description file itself", false},
		{"a link out of the workspace", func(ws string) string {
			if err := os.Symlink(outside, filepath.Join(ws, "api", "out.yaml")); err != nil {
				t.Fatal(err)
			}
			return "api/out.yaml"
		}, "give a path inside the workspace", false},
		{"a syntax error", func(ws string) string {
			os.WriteFile(filepath.Join(ws, "api", "bad.yaml"), []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: [\n"), 0o644)
			return "api/bad.yaml"
		}, "api/bad.yaml cannot be loaded: api/bad.yaml:", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, "https://docs-api.invalid/v1")
			cfg.File = tc.setup(cfg.Workspace)
			_, rep, err := runFlow(t, cfg, Options{})
			var ie *InputError
			if !errors.As(err, &ie) || ie.Input != "file" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v: want an *InputError for file saying %q\n%s", err, tc.want, rep.log())
			}
			if IsInvalid(err) != tc.invalid {
				t.Errorf("error %v: an invalid description: %v, want %v", err, !tc.invalid, tc.invalid)
			}
			if strings.Contains(err.Error(), filepath.Dir(outside)) {
				t.Errorf("the error shows where outside the workspace the link points: %v", err)
			}
		})
	}
}
