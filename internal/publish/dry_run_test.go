package publish

import (
	"testing"
)

// TestDryRunSaysWhatItWouldDo: a dry run says which doc, branch and
// project it would publish to, and whether it would download, and sends
// nothing (the service's URL here answers nobody).
func TestDryRunSaysWhatItWouldDo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(*Config)
		want []string
		not  []string
	}{
		{"the project's only doc", func(c *Config) {}, []string{
			"dry run: nothing was sent to the service",
			"on branch main of project 4711",
			"would release a build under the project's only doc with setLive true",
		}, []string{"would download the build"}},
		{"a given doc, downloaded", func(c *Config) { c.DocID, c.SetLive, c.DownloadPath = "42", false, "docs.zip" }, []string{
			"would release a build under doc 42 with setLive false",
			"would download the build",
		}, []string{"the project's only doc"}},
		{"nothing of the service given", func(c *Config) { c.Token, c.APIURL, c.ProjectID, c.Branch = "", "", "", "" }, []string{
			"on branch (no branch: set branch) of project (no project-id)",
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, "https://docs-api.invalid/v1")
			cfg.DryRun = true
			tc.edit(&cfg)
			_, rep, err := runFlow(t, cfg, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			for _, s := range tc.want {
				if rep.count(s) != 1 {
					t.Errorf("the log does not say %q:\n%s", s, rep.log())
				}
			}
			for _, s := range tc.not {
				if rep.count(s) != 0 {
					t.Errorf("the log says %q:\n%s", s, rep.log())
				}
			}
			if rep.outputs["file-name"] != "openapi.yml" {
				t.Errorf("file-name output %q", rep.outputs["file-name"])
			}
		})
	}
}
