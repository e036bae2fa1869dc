package publish

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/workspace"
)

// TestValidate: one check of the whole configuration, which says what the
// run will do and changes nothing of the configuration.
func TestValidate(t *testing.T) {
	t.Parallel()
	base := Config{Token: "t", APIURL: "https://api.example.com/v1", ProjectID: "4711", File: "api/openapi.yaml", Branch: "main"}
	cases := []struct {
		name  string
		edit  func(*Config)
		input string // the input (or the runner's variable) an error names; "" for success
		msg   string // in the error's text
		check func(t *testing.T, p *Plan)
	}{
		{name: "defaults", check: func(t *testing.T, p *Plan) {
			if p.DryRun || p.Download || p.FileName != "openapi.yml" || p.File != "api/openapi.yaml" || p.APIURL.Host != "api.example.com" {
				t.Errorf("plan %+v", p)
			}
		}},
		{name: "extract-to implies download", edit: func(c *Config) { c.ExtractTo = "site" }, check: func(t *testing.T, p *Plan) {
			if !p.Download || p.SitePath != "site" {
				t.Errorf("plan %+v", p)
			}
		}},
		{name: "download-path implies download", edit: func(c *Config) { c.DownloadPath = "x.zip" }, check: func(t *testing.T, p *Plan) {
			if !p.Download || p.ZipPath != "x.zip" {
				t.Errorf("plan %+v", p)
			}
		}},
		{name: "a fork's pull request without a token only checks", edit: func(c *Config) { c.Token, c.EventName = "", "pull_request" }, check: func(t *testing.T, p *Plan) {
			if !p.DryRun || !p.ForkCheck || p.APIURL != nil {
				t.Errorf("plan %+v", p)
			}
		}},
		{name: "a dry run needs nothing of the service", edit: func(c *Config) { *c = Config{File: "api/openapi.yaml", DryRun: true} }, check: func(t *testing.T, p *Plan) {
			if !p.DryRun || p.ForkCheck {
				t.Errorf("plan %+v", p)
			}
		}},
		{name: "a file name not .yml warns", edit: func(c *Config) { c.FileName = "api.json" }, check: func(t *testing.T, p *Plan) {
			if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "does not end in .yml") {
				t.Errorf("warnings %q", p.Warnings)
			}
		}},
		{name: "pull_request_target has secrets: an empty token is a mistake", edit: func(c *Config) { c.Token, c.EventName = "", "pull_request_target" }, input: "token", msg: "gets the repository's secrets even for a fork's pull request"},
		{name: "strict about a fork's missing token", edit: func(c *Config) { c.Token, c.EventName, c.FailOnMissingToken = "", "pull_request", true }, input: "token"},
		{name: "no file", edit: func(c *Config) { c.File = "" }, input: "file"},
		{name: "file outside", edit: func(c *Config) { c.File = "../x.yaml" }, input: "file"},
		{name: "api-url over http", edit: func(c *Config) { c.APIURL = "http://api.example.com" }, input: "api-url"},
		{name: "GITHUB_API_URL over http to another host", edit: func(c *Config) { c.GitHubToken, c.GitHubAPIURL = "gh", "http://ghe.example/api/v3" },
			input: "GITHUB_API_URL", msg: "environment variable GITHUB_API_URL: http://ghe.example/api/v3 uses http: the token would travel unencrypted; use https (http is allowed for loopback only)"},
		{name: "GITHUB_API_URL with credentials", edit: func(c *Config) { c.GitHubToken, c.GitHubAPIURL = "gh", "https://u:p@ghe.example/api/v3" },
			input: "GITHUB_API_URL", msg: "the token goes in the github-token input"},
		{name: "GITHUB_API_URL not http", edit: func(c *Config) { c.GitHubToken, c.GitHubAPIURL = "gh", "ftp://ghe.example" },
			input: "GITHUB_API_URL", msg: "give GitHub's API address, such as https://api.github.com"},
		{name: "GITHUB_API_URL over http on loopback", edit: func(c *Config) { c.GitHubToken, c.GitHubAPIURL = "gh", "http://127.0.0.1:8080/api/v3" }},
		{name: "GITHUB_API_URL over http to localhost", edit: func(c *Config) { c.GitHubToken, c.GitHubAPIURL = "gh", "http://localhost:8080" }},
		{name: "GITHUB_API_URL over http, with no github-token to send", edit: func(c *Config) { c.GitHubAPIURL = "http://ghe.example/api/v3" }},
		{name: "no project", edit: func(c *Config) { c.ProjectID = "" }, input: "project-id", msg: "is required: set it in the step's with: block"},
		{name: "no project, on the command line", edit: func(c *Config) { c.ProjectID, c.CLI = "", true }, input: "project-id", msg: "is required: give --project-id, or set DOCS_PUBLISH_PROJECT_ID"},
		{name: "no branch", edit: func(c *Config) { c.Branch = "" }, input: "branch"},
		{name: "doc-id with a line break", edit: func(c *Config) { c.DocID = "17\n::warning::x" }, input: "doc-id"},
		{name: "doc-id with a bidi control", edit: func(c *Config) { c.DocID = "17\u202e" }, input: "doc-id"},
		{name: "doc-id too long", edit: func(c *Config) { c.DocID = strings.Repeat("ä", 129) }, input: "doc-id"},
		{name: "doc-id of any other text", edit: func(c *Config) { c.DocID = "team docs/ä=" }},
		{name: "extract-to the workspace", edit: func(c *Config) { c.ExtractTo = "." }, input: "extract-to"},
		{name: "extract-to not empty", edit: func(c *Config) { c.ExtractTo = "api" }, input: "extract-to"},
		{name: "download-path outside", edit: func(c *Config) { c.Download, c.DownloadPath = true, "../site.zip" }, input: "download-path"},
		{name: "bundle-path through a link out", edit: func(c *Config) { c.BundlePath = "out/b.json" }, input: "bundle-path"},
		{name: "download-path an existing folder", edit: func(c *Config) { c.DownloadPath = "api" }, input: "download-path", msg: `"api" is an existing folder, and download-path names the file to write: give a file's path, such as api/docs.zip`},
		{name: "bundle-path an existing folder", edit: func(c *Config) { c.BundlePath = "api/" }, input: "bundle-path", msg: "such as api/openapi.json, or remove the folder"},
		{name: "download-path under a file", edit: func(c *Config) { c.DownloadPath = "api/openapi.yaml/x.zip" }, input: "download-path", msg: "api/openapi.yaml is a file, not a folder"},
		{name: "extract-to under a file", edit: func(c *Config) { c.ExtractTo = "api/openapi.yaml/site" }, input: "extract-to", msg: "api/openapi.yaml is a file, not a folder"},
		{name: "bundle-path that cannot be made", edit: func(c *Config) { c.BundlePath = strings.Repeat("b", 300) + ".json" }, input: "bundle-path", msg: "cannot be written: a name in the path is too long: give a path"},
		{name: "base-file outside, in words for a file read", edit: func(c *Config) { c.Compare, c.BaseFile = true, "../base.yaml" }, input: "base-file", msg: "only files in the workspace are read"},
		{name: "file outside, in words for a file read", edit: func(c *Config) { c.File = "/etc/passwd" }, input: "file", msg: "only files in the workspace are read"},
		{name: "extract-to outside, in words for a path written", edit: func(c *Config) { c.ExtractTo = "../site" }, input: "extract-to", msg: "so later steps can read what the run writes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "api"), 0o755)
			os.WriteFile(filepath.Join(dir, "api", "openapi.yaml"), []byte("openapi: 3.0.0\n"), 0o644)
			os.Symlink(t.TempDir(), filepath.Join(dir, "out"))
			ws, err := workspace.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			cfg := base
			if tc.edit != nil {
				tc.edit(&cfg)
			}
			before := cfg
			p, err := Validate(cfg, ws)
			if cfg != before {
				t.Error("Validate changed the configuration")
			}
			var ie *InputError
			var ee *EnvError
			named := errors.As(err, &ie) && ie.Input == tc.input || errors.As(err, &ee) && ee.Var == tc.input
			switch {
			case tc.input == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.input != "" && !named:
				t.Fatalf("error %v, want one naming input %s", err, tc.input)
			case !strings.Contains(fmt.Sprint(err), tc.msg):
				t.Errorf("error %q does not say %q", err, tc.msg)
			case tc.check != nil:
				tc.check(t, p)
			}
		})
	}
}

// TestDryRunPreviewsTheServiceInputs: a dry run, a preview, warns of each
// input of the service that is set and that a real run would refuse (the
// real run's error, as a warning), as it warns of file-name; it needs none
// of them, so one left empty is no warning.
func TestDryRunPreviewsTheServiceInputs(t *testing.T) {
	t.Parallel()
	ws, err := workspace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	good := Config{Token: "t", APIURL: "https://api.example.com/v1", ProjectID: "4711", File: "api/openapi.yaml", Branch: "main"}
	cases := []struct {
		name string
		edit func(*Config)
		want []string // the warnings, in part
	}{
		{name: "nothing to say", edit: func(*Config) {}},
		{name: "nothing set", edit: func(c *Config) { *c = Config{File: c.File} }},
		{name: "api-url over http", edit: func(c *Config) { c.APIURL = "http://api.example.com" }, want: []string{"a real run would stop here: input api-url"}},
		{name: "project-id with a .. segment", edit: func(c *Config) { c.ProjectID = "../4711" }, want: []string{"a real run would stop here: input project-id"}},
		{name: "doc-id with a line break, and file-name", edit: func(c *Config) { c.DocID, c.FileName = "17\n", "api.json" },
			want: []string{"a real run would stop here: input doc-id", `file-name "api.json" does not end in .yml`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := good
			tc.edit(&cfg)
			real := cfg
			cfg.DryRun = true
			p, err := Validate(cfg, ws)
			if err != nil {
				t.Fatalf("a dry run refused: %v", err)
			}
			if len(p.Warnings) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", p.Warnings, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(p.Warnings[i], w) {
					t.Errorf("warning %q does not say %q", p.Warnings[i], w)
				}
			}
			// What the dry run warns of, the real run refuses with the same words.
			if _, rerr := Validate(real, ws); len(tc.want) > 0 && strings.HasPrefix(tc.want[0], "a real run") {
				if rerr == nil || !strings.Contains(p.Warnings[0], rerr.Error()) {
					t.Errorf("the real run ends in %v; the dry run warned %q", rerr, p.Warnings[0])
				}
			}
		})
	}
}
