package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathErrorsNameEachOnce: off GitHub, the error line of a path input
// that cannot be used names the path once, with no file prefix repeating
// it, and no system call's name: a missing base-file is said as a missing
// file is.
func TestPathErrorsNameEachOnce(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		path string // named once in the error line (followed by a space)
		want string // the error line
	}{
		{"a link that leads outside", []string{"--file", "bad/link.yaml"}, "bad/link.yaml",
			"error: input file: bad/link.yaml leads outside the workspace through a symbolic link: give a path inside the workspace"},
		{"a missing file", []string{"--file", "api/nope.yaml"}, "api/nope.yaml",
			"error: input file: api/nope.yaml does not exist: check the file input (it is relative to the workspace) and that the file is checked out or generated before this step"},
		{"a missing base-file", []string{"--file", "api/openapi.yaml", "--base-file", "base/nope.yaml"}, "base/nope.yaml",
			"error: input base-file: base/nope.yaml does not exist: check the base-file input (it is relative to the workspace) and that the file is checked out or generated before this step"},
		{"a base-file that is a folder", []string{"--file", "api/openapi.yaml", "--base-file", "base"}, "base",
			"error: input base-file: base is a directory, not a file: give the path of a file, relative to the workspace"},
		{"a zip over the description", []string{"--file", "api/openapi.yaml", "--download-path", "api/openapi.yaml"}, "api/openapi.yaml",
			"error: input download-path: api/openapi.yaml is the path of input file too, which the run reads: give download-path a path of its own"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			for _, dir := range []string{"api", "bad", "base"} {
				if err := os.Mkdir(filepath.Join(ws, dir), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(ws, "api/openapi.yaml"), spec, 0o644); err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(t.TempDir(), "hostname")
			if err := os.WriteFile(outside, []byte("host\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(ws, "bad/link.yaml")); err != nil {
				t.Fatal(err)
			}
			_, stderr, err := run(t, actionYAML(t), map[string]string{"GITHUB_WORKSPACE": ws}, append([]string{"--dry-run"}, tc.args...)...)
			if err == nil {
				t.Fatalf("the run succeeded:\n%s", stderr)
			}
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			if last != tc.want || strings.Count(last, tc.path+" ") != 1 {
				t.Errorf("the error line is\n%s\nwant\n%s\nlog:\n%s", last, tc.want, stderr)
			}
		})
	}
}
