package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/workspace"
)

// TestWritePlace: no write input leads into .git or .github (any case, any
// depth, also through a link), whoever set it; with a config file, no
// write input an entry can set leads into a hidden file or folder; the
// step alone may write one, as the report may. The error names the input
// and says what to do.
func TestWritePlace(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		input   string
		value   string
		config  bool
		refused string // in the error, "" when allowed
	}{
		{"git's config", "bundle-path", ".git/config", false, "into .git,"},
		{"git's config from a config file", "bundle-path", ".git/config", true, "into .git,"},
		{"a hook", "download-path", ".git/hooks/post-checkout", true, "into .git,"},
		// Refused before the check that would make the folders to learn
		// whether it can: not told that .git/config is a file.
		{"below a file of git's", "bundle-path", ".git/config/x.json", false, "into .git,"},
		{"a workflow", "bundle-path", ".github/workflows/evil.yml", false, "into .github,"},
		{"a site over the workflows", "extract-to", ".github/workflows", false, "into .github,"},
		{"another case", "download-path", ".GIT/config", false, "into .GIT,"},
		{"a submodule's git folder", "bundle-path", "vendor/lib/.git/config", false, "into .git,"},
		{"the report", "report", ".git/info/exclude", false, "into .git,"},
		{"through a link", "bundle-path", "gitlink/config", false, "through a symbolic link to .git/config"},
		{"through a link, a config file's", "bundle-path", "gitlink/config", true, "through a symbolic link to .git/config"},
		{"a hidden folder of the step's", "download-path", ".cache/docs.zip", false, ""},
		{"a hidden folder of a config file's", "download-path", ".cache/docs.zip", true, "a hidden file or folder (.cache)"},
		{"a hidden file of a config file's", "bundle-path", "api/.env", true, "a hidden file or folder (.env)"},
		{"a hidden site of a config file's", "extract-to", ".site", true, "a hidden file or folder (.site)"},
		{"a link to a hidden folder, a config file's", "bundle-path", "cachelink/b.json", true, "through a symbolic link to .cache/b.json"},
		{"an ordinary path of a config file's", "bundle-path", "out/openapi.json", true, ""},
		{"a name that only starts like git's", "bundle-path", ".gitx/b.json", false, ""},
		// Names other file systems read as git's folder.
		{"Windows' short name", "bundle-path", "GIT~1/hooks/pre-commit", true, "into GIT~1,"},
		{"GitHub's short name", "bundle-path", "GITHUB~1/workflows/x.yml", false, "into GITHUB~1,"},
		{"a trailing dot", "bundle-path", ".git./x.json", false, "into .git.,"},
		{"a trailing space", "bundle-path", ".github /x.json", false, "into .github ,"},
		{"a short name of another folder", "bundle-path", "GITX~1/b.json", false, ""},
		{"a tilde alone", "bundle-path", "git~/b.json", false, ""},
		{"a name with dots inside", "bundle-path", "a..b/c.json", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, d := range []string{"api", ".git/hooks", ".github/workflows", ".cache"} {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(dir, "api", "openapi.yaml"), []byte("openapi: 3.0.0\n"), 0o644)
			os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n"), 0o644)
			os.Symlink(".git", filepath.Join(dir, "gitlink"))
			os.Symlink(".cache", filepath.Join(dir, "cachelink"))
			ws, err := workspace.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			cfg := Config{File: "api/openapi.yaml", DryRun: true}
			if tc.config {
				cfg.ConfigFile = "docs-publish.yml"
			}
			*map[string]*string{"bundle-path": &cfg.BundlePath, "download-path": &cfg.DownloadPath, "extract-to": &cfg.ExtractTo, "report": &cfg.Report}[tc.input] = tc.value
			_, err = Validate(cfg, ws)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("error %v, want %s %s allowed", err, tc.input, tc.value)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.Input != tc.input || !errors.Is(err, ErrNotWritable) {
				t.Fatalf("error %v, want %s refused", err, tc.input)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.refused) || !strings.Contains(msg, "give a path") || !strings.Contains(msg, tc.value) {
				t.Errorf("error %q: want it to name %s and say %q, and what to do", msg, tc.value, tc.refused)
			}
		})
	}
}

// TestGitsFolder: the names file systems read as git's or GitHub's
// folder, and names that only look like them.
func TestGitsFolder(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		".git": true, ".GitHub": true, "GIT~1": true, "github~12": true, ".git.": true, ".git. .": true,
		".git\u200c": true, ".gi\u200dt": true, "\ufeff.github": true,
		".gitx": false, "git": false, "GIT~": false, "GIT~1a": false, "GITX~1": false, "x.git": false, ".git~1": false,
	} {
		if got := gitsFolder(name); got != want {
			t.Errorf("gitsFolder(%q) = %v, want %v", name, got, want)
		}
	}
}
