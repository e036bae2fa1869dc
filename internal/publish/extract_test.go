package publish

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractToUnpacksTheBuild: extract-to leaves the built site in the
// folder, says so, and sets the site-path output for later steps.
func TestExtractToUnpacksTheBuild(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	cfg := flowConfig(t, emu.URL())
	cfg.ExtractTo = "site"
	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if res.SitePath != "site" || rep.outputs["site-path"] != "site" || rep.outputs["zip-path"] != "docs-build-1001.zip" {
		t.Errorf("site %q, outputs %v", res.SitePath, rep.outputs)
	}
	entries, err := os.ReadDir(filepath.Join(cfg.Workspace, "site"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("the site folder holds %d entries (%v)", len(entries), err)
	}
	if rep.count("files (") != 1 || rep.count("bytes) into site") != 1 {
		t.Errorf("the log does not say what was unpacked:\n%s", rep.log())
	}
}

// TestExtractToRefusesAnEscapingZip: a build whose zip names a file
// outside the folder, a hidden file (a .git/config runs code when a later
// step runs git there) or a name with a control fails the download step,
// saying what could not be unpacked where, and leaves no folder half
// written.
func TestExtractToRefusesAnEscapingZip(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, entry, want string }{
		{"a path out", "../escaped.html", "climbs out"},
		{"a git config", ".git/config", `".git/config" names a hidden file or folder`},
		{"a workflow", "out/.github/workflows/x.yml", `(".github")`},
		{"a line break", "a\n::warning::x.html", `"a\n::warning::x.html" is text holding the control character U+000A`},
		{"a bidi override", "a\u202eb.html", `"a\u202eb.html" is text holding the control character U+202E`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			for _, name := range []string{"index.html", tc.entry} {
				w, err := zw.Create(name)
				if err != nil {
					t.Fatal(err)
				}
				w.Write([]byte("<p>hi</p>"))
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			emu := startEmulator(t, nil)
			apiURL, _ := notZipFront(t, emu.URL(), 100, 200, "application/zip", buf.String())
			cfg := flowConfig(t, apiURL)
			cfg.ExtractTo = "out/site"
			res, rep, err := runFlow(t, cfg, Options{})
			var se *StepError
			if !errors.As(err, &se) || se.Step != StepDownload || !strings.Contains(err.Error(), "unpack docs-build-1001.zip into out/site") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want the download step's, saying what was unpacked where and %q\n%s", err, tc.want, rep.log())
			}
			if res.SitePath != "" || rep.outputs["site-path"] != "" {
				t.Errorf("site %q, output %q after a failed unpack", res.SitePath, rep.outputs["site-path"])
			}
			for _, p := range []string{"out/site", "escaped.html", "out/escaped.html"} {
				if _, err := os.Lstat(filepath.Join(cfg.Workspace, p)); err == nil {
					t.Errorf("%s exists after a failed unpack", p)
				}
			}
		})
	}
}
