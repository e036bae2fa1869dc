package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/gitclone/gitclonetest"
)

// TestAnnotationsAtTheChange: each breaking change is annotated at the
// file, line and column where it is written: a shared parameter in the file
// it was written in, once for the operations it reaches; an added
// parameter and a changed property in the main file at their own lines; a
// removed enum value at its enum; a removed path, which the head has
// nothing left of, where base-file wrote it, or, for a base commit in a
// clone in a folder, at the head's paths, saying where the base had it. A
// JSON description read in a single pass is placed alike.
func TestAnnotationsAtTheChange(t *testing.T) {
	t.Parallel()
	multiFile := func(dir string) []string {
		return []string{
			"error: " + dir + "api/common/parameters.yaml:4:3: breaking change: GET /authors: the `query` request parameter `limit` became required (request-parameter-became-required); also at GET /books",
			"error: " + dir + "api/openapi.yaml:32:13: breaking change: GET /authors: removed the enum value `died` from the `query` request parameter `sort` (request-parameter-enum-value-removed)",
			"error: " + dir + "api/openapi.yaml:10:11: breaking change: GET /books: added the new required `query` request parameter `shelf` (new-required-request-parameter)",
			"error: " + dir + "api/openapi.yaml:44:11: breaking change: GET /books: the `items/pages` response's property `type` changed from `integer` to `string` for status `200` (response-property-type-changed)",
		}
	}
	cases := []struct {
		name, fixture, file string
		clone               bool // the base is a commit of a clone in the folder checkout/, not base-file
		want                []string
	}{
		{"multi-file, base-file", "annotated-multi-file", "openapi.yaml", false, append(multiFile(""),
			"error: base/openapi.yaml:32:5: breaking change: GET /shelves: api path removed without deprecation (api-path-removed-without-deprecation)")},
		{"multi-file, a clone in a folder", "annotated-multi-file", "openapi.yaml", true, append(multiFile("checkout/"),
			// The base commit's lines are not the head's: at the head's
			// paths, saying where the base had it.
			"error: checkout/api/openapi.yaml:5:1: breaking change: GET /shelves: api path removed without deprecation (api-path-removed-without-deprecation); removed: the base has it at line 32 of api/openapi.yaml")},
		{"JSON in a single pass", "annotated-json", "openapi.json", false, []string{
			"error: api/openapi.json:22:13: breaking change: GET /books: the `pages` response's property `type` changed from `integer` to `string` for status `200` (response-property-type-changed)",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := flowConfig(t, emu.URL())
			os.Remove(filepath.Join(cfg.Workspace, "api", "openapi.yaml"))
			cfg.Compare, cfg.FailOnBreaking, cfg.DryRun = true, true, true
			if tc.clone {
				repo := filepath.Join(cfg.Workspace, "checkout")
				os.MkdirAll(repo, 0o755)
				git := gitclonetest.Git(t, repo)
				git("init", "-q")
				copyTree(t, filepath.Join(diffRoot, tc.fixture, "base"), filepath.Join(repo, "api"))
				git("add", "-A")
				git("commit", "-q", "-m", "base")
				cfg.BaseSHA, cfg.EventName = git("rev-parse", "HEAD"), "push"
				os.RemoveAll(filepath.Join(repo, "api"))
				copyTree(t, filepath.Join(diffRoot, tc.fixture, "head"), filepath.Join(repo, "api"))
				cfg.File = "checkout/api/" + tc.file
			} else {
				copyTree(t, filepath.Join(diffRoot, tc.fixture, "head"), filepath.Join(cfg.Workspace, "api"))
				copyTree(t, filepath.Join(diffRoot, tc.fixture, "base"), filepath.Join(cfg.Workspace, "base"))
				cfg.File, cfg.BaseFile = "api/"+tc.file, "base/"+tc.file
			}
			_, rep, err := runFlow(t, cfg, Options{})
			var be *BreakingError
			if !errors.As(err, &be) {
				t.Fatalf("err %v\n%s", err, rep.log())
			}
			var got []string
			for _, l := range strings.Split(rep.log(), "\n") {
				if strings.HasPrefix(l, "error: ") && strings.Contains(l, "breaking change: ") {
					got = append(got, l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestPlaceInJSON(t *testing.T) {
	t.Parallel()
	data := []byte("{\n  \"a\": {\"x\": 1},\n  \"paths\": {\n    \"/b\": [10,\n      {\"c\": true}]\n  }\n}\n")
	cases := []struct {
		pointer         string
		line, col, deep int
	}{
		{"/paths/~1b/1/c", 5, 8, 4},
		{"/paths/~1b/0", 4, 12, 3}, // the item 10, after the [
		{"/paths/~1b/1/gone", 5, 7, 3},
		{"/paths/~1c", 3, 3, 1},
		{"/nothing", 0, 0, 0},
	}
	for _, tc := range cases {
		line, col, deep := placeInJSON(data, tokens(tc.pointer))
		if line != tc.line || col != tc.col || deep != tc.deep {
			t.Errorf("%s: %d:%d, %d deep; want %d:%d, %d deep", tc.pointer, line, col, deep, tc.line, tc.col, tc.deep)
		}
	}
}
