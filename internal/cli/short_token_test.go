package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
)

// TestShortTokenKeepsJSONOutput: a token that is a word of the output
// (docs, t, 1001, as with the emulator and in tests) leaves --output json
// parseable, with every name a run with a long token prints; a value that
// holds the token is withheld, empty, with a warning that names its
// output (a file named after the build is named otherwise), and every
// other value is the one the long token gives. The run
// warns at its start that the token is too short to be told from text.
func TestShortTokenKeepsJSONOutput(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	publish := func(t *testing.T, token string) (map[string]any, string, string) {
		t.Helper()
		emu := emulatortest.Start(t, token, 0, nil)
		ws := t.TempDir()
		if err := os.WriteFile(filepath.Join(ws, "openapi.yaml"), spec, 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_PROJECT_ID": "4711"}
		stdout, stderr, err := run(t, actionYAML(t), env, "--token", token, "--api-url", emu.URL(), "--file", "openapi.yaml",
			"--branch", "main", "--download", "--output", "json")
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		var outs map[string]any
		if err := json.Unmarshal([]byte(stdout), &outs); err != nil {
			t.Fatalf("--output json is not JSON: %v\n%s", err, stdout)
		}
		return outs, emu.URL(), stderr
	}
	want, wantURL, _ := publish(t, "tok-long-enough-1f9c")
	for _, token := range []string{"docs", "t", "1001"} {
		t.Run(token, func(t *testing.T) {
			t.Parallel()
			got, url, stderr := publish(t, token)
			if names, wantNames := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(names, wantNames) {
				t.Errorf("names %q, want %q", names, wantNames)
			}
			withheld := 0
			for name, w := range want {
				if name == "results" {
					// JSON: each value that holds the token is scrubbed
					// in place, the array kept (see Reporter.SetJSONOutput).
					checkResultsScrubbed(t, got[name], token)
					continue
				}
				v := w
				if s, ok := w.(string); ok {
					v = strings.ReplaceAll(s, wantURL, url)
				}
				text := fmt.Sprint(v)
				if strings.Contains(text, token) {
					// Withheld; or, for a file the run names after the
					// build, named otherwise.
					if s, ok := got[name].(string); !ok || strings.Contains(s, token) {
						t.Errorf("%s = %#v, want it withheld (%q holds the token)", name, got[name], text)
					} else if s == "" {
						withheld++
						if !strings.Contains(stderr, "warning: output "+name+" is left empty: its value holds a secret") {
							t.Errorf("no warning names %s:\n%s", name, stderr)
						}
					}
					continue
				}
				if got[name] != v {
					t.Errorf("%s = %#v, want %#v", name, got[name], v)
				}
			}
			if withheld == 0 {
				t.Errorf("no value holds %q: the case tests nothing", token)
			}
			if !strings.HasPrefix(stderr, fmt.Sprintf("warning: a secret given to this run (token or github-token) is only %d character", len(token))) {
				t.Errorf("the run does not start with a warning of the short token:\n%s", stderr)
			}
		})
	}
}

// checkResultsScrubbed: results is an array of objects, none of whose
// values holds token (the names are the program's own).
func checkResultsScrubbed(t *testing.T, results any, token string) {
	t.Helper()
	list, ok := results.([]any)
	if !ok || len(list) != 1 {
		t.Fatalf("results = %#v, want an array of one", results)
	}
	obj, ok := list[0].(map[string]any)
	if !ok {
		t.Fatalf("results[0] = %#v, want an object", list[0])
	}
	for name, v := range obj {
		if s, ok := v.(string); ok && strings.Contains(s, token) {
			t.Errorf("results[0].%s = %q holds the token", name, s)
		}
	}
}
