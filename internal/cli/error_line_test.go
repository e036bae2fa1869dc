package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorLineOffGitHub: off GitHub, a run stopped by its description
// ends with its error line whether the findings came of validation or of a
// load (a $ref to a missing file, a YAML syntax error), and that line
// points at the findings listed above it, not at annotations, which only
// GitHub shows. On GitHub the line points at the annotations.
func TestErrorLineOffGitHub(t *testing.T) {
	t.Parallel()
	head := "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n"
	files := map[string]string{
		"refs.yaml":   head + "  /a:\n    $ref: '#/nope'\n  /b:\n    $ref: '#/gone'\n",
		"ref.yaml":    head + "  /a:\n    $ref: missing.yml\n",
		"syntax.yaml": "openapi: 3.0.3\ninfo: [\n  title: T\n",
	}
	cases := []struct {
		name, file string
		onGitHub   bool
		want       string // the last line, or the ::error line on GitHub
	}{
		{"two findings", "refs.yaml", false, "error: input file: refs.yaml has 2 errors in 1 file and 0 warnings (listed above): fix the errors, nothing was sent"},
		{"a $ref to a missing file", "ref.yaml", false, "error: input file: ref.yaml cannot be loaded: ref.yaml:5:11: $ref missing.yml: missing.yml does not exist"},
		{"a YAML syntax error", "syntax.yaml", false, "error: input file: syntax.yaml cannot be loaded: syntax.yaml:2:7: invalid YAML"},
		{"two findings on GitHub", "refs.yaml", true, "::error title=docs-publish::input file: refs.yaml has 2 errors in 1 file and 0 warnings (see the annotations)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.onGitHub {
				out := runAsRunner(t, ws, t.TempDir(), map[string]string{"file": tc.file, "dry-run": "true"})
				if !strings.Contains(out, tc.want) {
					t.Errorf("want %q in:\n%s", tc.want, out)
				}
				return
			}
			_, stderr, err := run(t, actionYAML(t), map[string]string{"GITHUB_WORKSPACE": ws}, "--dry-run", "--file", tc.file)
			if err == nil {
				t.Fatalf("the run succeeded:\n%s", stderr)
			}
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, tc.want) || strings.Contains(last, "annotation") {
				t.Errorf("the last line is\n%s\nwant it to start with\n%s\nlog:\n%s", last, tc.want, stderr)
			}
		})
	}
}
