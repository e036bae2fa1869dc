package publish

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/redact"
)

// TestZipNameShowsNoSecret: a file name is a sink: a build id that holds a
// secret, in any form, names the zip by its hash; any other id names it as
// it is, made safe.
func TestZipNameShowsNoSecret(t *testing.T) {
	t.Parallel()
	const tok = "dp_s3cr3t-docs-token"
	secrets := redact.New(tok)
	cases := []struct{ id, want string }{
		{"1001", "docs-build-1001.zip"},
		{"b/42", "docs-build-b%2F42.zip"},
		{tok, ""},
		{"x" + url.PathEscape(tok+"/") + "y", ""},
		{"build-" + tok[:8] + "\n" + tok[8:], ""},
	}
	for _, tc := range cases {
		got := zipName(tc.id, secrets)
		if tc.want != "" && got != tc.want {
			t.Errorf("zipName(%q) = %q, want %q", tc.id, got, tc.want)
		}
		if secrets.Has(got) || strings.Contains(got, tok[:8]) {
			t.Errorf("zipName(%q) = %q shows the secret", tc.id, got)
		}
		if tc.want == "" && (!strings.HasPrefix(got, "docs-build-") || len(got) != len("docs-build-.zip")+16) {
			t.Errorf("zipName(%q) = %q, want the id's hash", tc.id, got)
		}
	}
	if zipName(tok, secrets) == zipName(tok+"x", secrets) {
		t.Error("two ids make one name")
	}
}

// TestDefaultZipPathKeepsAnotherFile: the default download-path, known
// only once the build is released, is written over an earlier run's zip,
// never over a file that is not a zip (a description or a base named
// after a build), which is left as it was; the download step fails,
// saying what to do.
func TestDefaultZipPathKeepsAnotherFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, there string
		fails       bool
	}{
		{"an earlier run's zip", "PK\x05\x06" + strings.Repeat("\x00", 18), false},
		{"an empty file", "", false},
		{"a description", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := flowConfig(t, emu.URL())
			cfg.Download = true
			zip := filepath.Join(cfg.Workspace, "docs-build-1001.zip")
			if err := os.WriteFile(zip, []byte(tc.there), 0o644); err != nil {
				t.Fatal(err)
			}
			_, rep, err := runFlow(t, cfg, Options{})
			var se *StepError
			if got := errors.As(err, &se) && se.Step == StepDownload && strings.Contains(err.Error(), "give download-path a path of its own"); got != tc.fails {
				t.Errorf("error %v: want the download refused: %v\n%s", err, tc.fails, rep.log())
			}
			if after, _ := os.ReadFile(zip); tc.fails && string(after) != tc.there {
				t.Errorf("the file was written over: %.40q", after)
			}
		})
	}
}
