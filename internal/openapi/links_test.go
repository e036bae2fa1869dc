//go:build unix

package openapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/workspace"
)

// TestLinksToHiddenFilesAreRefused: a description, or a file a $ref names,
// that leads through a symbolic link to a hidden file or folder (where
// tools keep credentials) is refused, by Load and by the single pass; one
// that leads to an ordinary file is read.
func TestLinksToHiddenFilesAreRefused(t *testing.T) {
	t.Parallel()
	const secret = "openapi: 3.0.3\ninfo: {title: ghp_secret, version: '1'}\npaths: {}\nlimit: {name: limit, in: query}\n"
	const main = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-params: {$ref: 'params.yaml#/limit'}\n"
	for _, tc := range []struct {
		name, open, link, target string
		refused                  bool
	}{
		{"the description, to a hidden file", "api.yaml", "api.yaml", ".netrc", true},
		{"the description, into a hidden folder", "api.json", "api.json", ".config/api.json", true},
		{"a file a $ref names, to a hidden file", "openapi.yaml", "params.yaml", ".netrc", true},
		{"the description, to an ordinary file", "api.yaml", "api.yaml", "specs/api.yaml", false},
		{"a file a $ref names, to an ordinary file", "openapi.yaml", "params.yaml", "specs/api.yaml", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, content := range map[string]string{
				".netrc": secret, ".config/api.json": "{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"ghp_secret\",\"version\":\"1\"},\"paths\":{}}",
				"specs/api.yaml": secret, "openapi.yaml": main,
			} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(tc.target, filepath.Join(dir, tc.link)); err != nil {
				t.Fatal(err)
			}
			ws, err := workspace.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			for _, treeOnly := range []bool{true, false} {
				fsys := &counting{FS: ws.FS(), rp: ws, name: tc.link}
				out, err := os.CreateTemp(t.TempDir(), "out")
				if err != nil {
					t.Fatal(err)
				}
				var p *Prepared
				p, err = Prepare(context.Background(), fsys, tc.open, PrepareOptions{Bundle: true, TreeOnly: treeOnly}, out)
				p.Release()
				out.Close()
				written, _ := os.ReadFile(out.Name())
				msg := fmt.Sprint(err)
				if f := (*Faults)(nil); errors.As(err, &f) { // a $ref's file: the faults say where
					msg = f.Load.Error()
				}
				refused := errors.Is(err, ErrNotAllowed) && strings.Contains(msg, "leads through a symbolic link to "+tc.target)
				if refused != tc.refused || !tc.refused && err != nil {
					t.Errorf("tree only %v: %v, want refused %v", treeOnly, err, tc.refused)
				}
				if tc.refused && strings.Contains(string(written), "ghp_secret") {
					t.Errorf("tree only %v: the hidden file was written out", treeOnly)
				}
				if tc.refused && fsys.opens > 0 {
					t.Errorf("tree only %v: %s was opened %d times, want it refused before it is opened", treeOnly, tc.link, fsys.opens)
				}
			}
		})
	}
}

// counting is a workspace's file system that counts the opens of name.
type counting struct {
	fs.FS
	rp    RealPather
	name  string
	opens int
}

func (c *counting) RealPath(name string) (string, error) { return c.rp.RealPath(name) }

func (c *counting) Open(name string) (fs.File, error) {
	if name == c.name {
		c.opens++
	}
	return c.FS.Open(name)
}
