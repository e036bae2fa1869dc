//go:build unix

package openapi

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/workspace"
)

// swapping is the workspace's file system with an attacker racing it: each
// open of name points the link name at hidden just before the open, and
// back at its harmless target just after, so that every check made before
// or after the open sees the harmless file.
type swapping struct {
	fs.FS
	ws                *workspace.Workspace
	dir, name, target string
	hidden            string
	stay              bool // the link keeps pointing at hidden after the open
}

func (s swapping) RealPath(name string) (string, error) { return s.ws.RealPath(name) }

func (s swapping) point(to string) {
	link := filepath.Join(s.dir, s.name)
	os.Remove(link)
	os.Symlink(to, link)
}

func (s swapping) Open(name string) (fs.File, error) {
	if name != s.name {
		return s.FS.Open(name)
	}
	s.point(s.hidden)
	if !s.stay {
		defer s.point(s.target)
	}
	return s.FS.Open(name)
}

// TestLinkSwappedDuringTheReadIsRefused: a hidden file reached by a link
// that is swapped between the checks and the open is never read.
func TestLinkSwappedDuringTheReadIsRefused(t *testing.T) {
	t.Parallel()
	const secret = "machine github.com password ghp_secret\n"
	for _, tc := range []struct {
		name, main, ref string
		stay            bool
	}{
		{"the description", "api.yaml", "api.yaml", false},
		{"a file a $ref names", "openapi.yaml", "params.yaml", false},
		{"the description, swapped for good", "api.yaml", "api.yaml", true},
		{"a file a $ref names, swapped for good", "openapi.yaml", "params.yaml", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write := func(name, content string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(".netrc", secret)
			write("real.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nlimit: {name: limit, in: query}\n")
			if tc.main == "openapi.yaml" {
				write("openapi.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-params: {$ref: './params.yaml#/limit'}\n")
			}
			ws, err := workspace.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			fsys := swapping{FS: ws.FS(), ws: ws, dir: dir, name: tc.ref, target: "real.yaml", hidden: ".netrc", stay: tc.stay}
			fsys.point("real.yaml")
			ctx := context.Background()
			doc, err := Load(ctx, fsys, tc.main, DefaultLimits)
			if err == nil {
				doc, err = Bundle(ctx, doc, BundleOptions{FS: fsys})
			}
			if err == nil {
				out, _ := Encode(doc, DefaultLimits)
				t.Fatalf("loaded through a swapped link:\n%s", out)
			}
			if !errors.Is(err, ErrNotAllowed) || strings.Contains(err.Error(), "ghp_secret") {
				t.Errorf("err %v, want a refusal that does not show the file", err)
			}
		})
	}
}
