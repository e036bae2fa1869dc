package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// runEnviron runs the program as run does, with env listed by Environ too.
func runEnviron(t *testing.T, env map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), Env{
		Args: args, Getenv: func(k string) string { return env[k] },
		Environ: func() []string {
			var kv []string
			for k, v := range env {
				kv = append(kv, k+"="+v)
			}
			return kv
		},
		Stdout: &stdout, Stderr: &stderr, Action: actionYAML(t), Version: "test",
	})
	return stdout.String(), stderr.String(), err
}

// TestMistypedVariablesAreWarned: a DOCS_PUBLISH_ variable that names no
// input is warned of with the nearest input's variable, never its value,
// and the run goes on as it would without it.
func TestMistypedVariablesAreWarned(t *testing.T) {
	t.Parallel()
	const secret = "dp-secret-in-a-mistyped-var"
	cases := []struct {
		name string
		env  map[string]string
		args []string
		ok   bool
		want []string
	}{
		{name: "a missing underscore", env: map[string]string{"DOCS_PUBLISH_PROJECTID": "4711", "DOCS_PUBLISH_TOKEN": secret},
			args: []string{"--api-url", "https://api.example.com", "--branch", "main"},
			want: []string{"warning: DOCS_PUBLISH_PROJECTID names no input, so it is ignored: did you mean DOCS_PUBLISH_PROJECT_ID?", "input project-id: is required"}},
		{name: "a letter left out, in a dry run", env: map[string]string{"DOCS_PUBLISH_DOWLOAD": "true"}, args: []string{"--dry-run"}, ok: true,
			want: []string{"warning: DOCS_PUBLISH_DOWLOAD names no input, so it is ignored: did you mean DOCS_PUBLISH_DOWNLOAD?"}},
		{name: "lower case", env: map[string]string{"docs_publish_token": secret}, args: []string{"--dry-run"}, ok: true,
			want: []string{"warning: docs_publish_token names no input, so it is ignored: did you mean DOCS_PUBLISH_TOKEN?"}},
		{name: "nothing near", env: map[string]string{"DOCS_PUBLISH_XYZZY_PLUGH": "1"}, args: []string{"--dry-run"}, ok: true,
			want: []string{"warning: DOCS_PUBLISH_XYZZY_PLUGH names no input, so it is ignored: an input's variable is DOCS_PUBLISH_ and its name in capitals"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			writeSpec(t, ws)
			env := map[string]string{"GITHUB_WORKSPACE": ws}
			for k, v := range tc.env {
				env[k] = v
			}
			_, stderr, err := runEnviron(t, env, append([]string{"--file", "openapi.yaml"}, tc.args...)...)
			if (err == nil) != tc.ok {
				t.Fatalf("error %v, want success %v\n%s", err, tc.ok, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("does not say %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, secret) {
				t.Errorf("a value is shown:\n%s", stderr)
			}
		})
	}
}

// TestDocumentedVariablesAreNotWarned: every DOCS_PUBLISH_ variable the
// repository's code, scripts and documents name is an input's or one the
// tests and tools read, and a run with all of them set warns of none.
func TestDocumentedVariablesAreNotWarned(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	re := regexp.MustCompile(`DOCS_PUBLISH_[A-Z0-9_]*[A-Z0-9]`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); !slices.Contains([]string{".go", ".md", ".yml", ".yaml", ""}, ext) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, n := range re.FindAllString(string(b), -1) {
			names[n] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A placeholder in the documents (DOCS_PUBLISH_NAME for an input's
	// variable) and the mistypes this package's tests make on purpose.
	for _, n := range []string{"DOCS_PUBLISH_NAME", "DOCS_PUBLISH_PROJECTID", "DOCS_PUBLISH_DOWLOAD", "DOCS_PUBLISH_XYZZY_PLUGH"} {
		delete(names, n)
	}
	for _, must := range []string{"DOCS_PUBLISH_LONG_TESTS", "DOCS_PUBLISH_NETWORK_TESTS", "DOCS_PUBLISH_TOKEN"} {
		if !names[must] {
			t.Fatalf("%s not found in the repository: the walk missed the files that name it", must)
		}
	}
	ws := t.TempDir()
	writeSpec(t, ws)
	env := map[string]string{"GITHUB_WORKSPACE": ws}
	// Set, but empty: Environ lists them, and no input takes a value.
	for n := range names {
		env[n] = ""
	}
	_, stderr, err := runEnviron(t, env, "--dry-run", "--file", "openapi.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Contains(stderr, "names no input") {
		t.Errorf("a documented variable is warned of:\n%s", stderr)
	}
}
