package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWritesOverFilesTheRunReads: a path the run writes where a file that
// a description's $refs name is (its own, another's, its base's), or the
// config file, is an input error before anything is written or sent,
// naming the input that writes and the file; the file is as it was, and
// no part of the write is left.
func TestWritesOverFilesTheRunReads(t *testing.T) {
	t.Parallel()
	const (
		head   = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /books:\n    get:\n      parameters:\n        - $ref: '%s#/limit'\n      responses:\n        '200': {description: ok}\n"
		common = "limit: {name: limit, in: query, schema: {type: integer}}\n"
	)
	cases := []struct {
		name  string
		set   func(cfgs []Config) []Config
		input string // the input the error names
		says  []string
		file  string // the file read, which must be left as it was
	}{
		{"bundle-path over its own $ref", func(c []Config) []Config {
			c[0].DryRun, c[0].BundlePath = true, "api/common.yaml"
			return c[:1]
		}, "bundle-path", []string{"input bundle-path: api/common.yaml is a file a $ref names"}, "api/common.yaml"},
		{"bundle-path over its own $ref, bundle false", func(c []Config) []Config {
			// The $ref is only looked at (the upload refers to it), not
			// opened, and is the user's file all the same.
			c[0].DryRun, c[0].Bundle, c[0].BundlePath = true, false, "api/common.yaml"
			return c[:1]
		}, "bundle-path", []string{"input bundle-path: api/common.yaml is a file a $ref names"}, "api/common.yaml"},
		{"bundle-path over another's $ref, bundle false", func(c []Config) []Config {
			c[0].File, c[0].BundlePath = "api/svc0.yaml", "api/common.yaml"
			c[1].Bundle = false
			return c
		}, "config", []string{"bundle-path api/common.yaml", "$ref api/common.yaml", "descriptions[1] (api/r.yaml)"}, "api/common.yaml"},
		{"bundle-path over its own $ref, through a link", func(c []Config) []Config {
			c[0].DryRun, c[0].BundlePath = true, "alias/common.yaml"
			return c[:1]
		}, "bundle-path", []string{"input bundle-path: alias/common.yaml would write over api/common.yaml (a file a $ref names)"}, "api/common.yaml"},
		{"download-path over its own $ref", func(c []Config) []Config {
			c[0].DownloadPath = "api/common.yaml"
			return c[:1]
		}, "download-path", []string{"input download-path: api/common.yaml is a file a $ref names"}, "api/common.yaml"},
		{"bundle-path over another's $ref", func(c []Config) []Config {
			c[0].File, c[0].BundlePath = "api/svc0.yaml", "api/common.yaml"
			return c
		}, "config", []string{"bundle-path api/common.yaml", "$ref api/common.yaml", "descriptions[0] (api/svc0.yaml)", "descriptions[1] (api/r.yaml)"}, "api/common.yaml"},
		{"bundle-path over its base's $ref", func(c []Config) []Config {
			c[0].DryRun, c[0].Compare, c[0].BaseFile, c[0].BundlePath = true, true, "api/base.yaml", "api/basecommon.yaml"
			return c[:1]
		}, "bundle-path", []string{"input bundle-path: api/basecommon.yaml is a file a $ref names"}, "api/basecommon.yaml"},
		{"bundle-path over the config file", func(c []Config) []Config {
			for i := range c {
				c[i].ConfigFile = "docs-publish.yml"
			}
			c[1].File, c[1].BundlePath = "api/svc1.yaml", "docs-publish.yml"
			return c
		}, "config", []string{"bundle-path docs-publish.yml", "config docs-publish.yml", "descriptions[1] (api/svc1.yaml)"}, "docs-publish.yml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startManyEmulator(t, 2) // its own: requests are counted
			cfgs := manyConfigs(t, emu.URL(), 2)
			ws := cfgs[0].Workspace
			for name, text := range map[string]string{
				"api/r.yaml": strings.ReplaceAll(head, "%s", "common.yaml"), "api/common.yaml": common,
				"api/base.yaml": strings.ReplaceAll(head, "%s", "basecommon.yaml"), "api/basecommon.yaml": common,
				"docs-publish.yml": "descriptions: []\n",
			} {
				if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink("api", filepath.Join(ws, "alias")); err != nil {
				t.Fatal(err)
			}
			cfgs[0].File, cfgs[0].DocID = "api/r.yaml", ""
			cfgs[1].File, cfgs[1].DocID = "api/r.yaml", "101"
			cfgs = tc.set(cfgs)
			before, err := os.ReadFile(filepath.Join(ws, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			_, rep, err := runMany(t, cfgs, Options{Parallel: 2})
			var ie *InputError
			if !errors.As(err, &ie) || ie.Input != tc.input {
				t.Fatalf("error %v (%T): want an input error naming %s\n%s", err, err, tc.input, rep.log())
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(ws, tc.file)); string(after) != string(before) {
				t.Errorf("%s was written over: %.80q", tc.file, after)
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
			filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".part") {
					t.Errorf("left behind: %s", p)
				}
				return nil
			})
		})
	}
}
