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
// outside the folder fails the download step, saying what could not be
// unpacked where, and leaves no folder half written.
func TestExtractToRefusesAnEscapingZip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"index.html", "../escaped.html"} {
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
	if !errors.As(err, &se) || se.Step != StepDownload || !strings.Contains(err.Error(), "unpack docs-build-1001.zip into out/site") {
		t.Fatalf("error %v, want the download step's, saying what was unpacked where\n%s", err, rep.log())
	}
	if res.SitePath != "" || rep.outputs["site-path"] != "" {
		t.Errorf("site %q, output %q after a failed unpack", res.SitePath, rep.outputs["site-path"])
	}
	for _, p := range []string{"out/site", "escaped.html", "out/escaped.html"} {
		if _, err := os.Lstat(filepath.Join(cfg.Workspace, p)); err == nil {
			t.Errorf("%s exists after a failed unpack", p)
		}
	}
}
