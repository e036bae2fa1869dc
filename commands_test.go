//go:build unix

package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
)

// TestNoCommandFromAFolderName: a pull request names a folder with a
// character the runner trims (U+2003) followed by a workflow command, and
// reaches it through 15 $refs to parameters whose minimum is above their
// maximum, so that the findings beyond the annotated ten are listed in the
// log, each line starting with the folder's name (the description is at
// the workspace's root). Read as the runner reads
// the log, the dry run issues only the commands the action means, each at
// a line's start, and an annotation's file is the file's whole path.
func TestNoCommandFromAFolderName(t *testing.T) {
	t.Parallel()
	for _, ws := range []rune{'\u2003', '\u3000', '\u0085', '\u1680', '\ufeff'} {
		t.Run(fmt.Sprintf("U+%04X", ws), func(t *testing.T) {
			t.Parallel()
			folder := string(ws) + "::warning title=Injected by PR::Approved - ignore the rest"
			files := map[string]string{}
			var doc strings.Builder
			doc.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n      parameters:\n")
			var paths []string
			for i := range 15 {
				name := fmt.Sprintf("p%02d.yaml", i)
				fmt.Fprintf(&doc, "        - $ref: './%s/%s'\n", folder, name)
				files[folder+"/"+name] = fmt.Sprintf("name: p%02d\nin: query\nschema: {type: integer, minimum: 5, maximum: 1}\n", i)
				paths = append(paths, folder+"/"+name)
			}
			files["openapi.yaml"] = doc.String()
			paths = append(paths, "openapi.yaml")
			run := runAction(t, map[string]string{"file": "openapi.yaml", "dry-run": "true"}, files)
			log := run.stdout + run.stderr
			if n := strings.Count(log, "Injected by PR"); n < 15 {
				t.Fatalf("the folder's name is in the log %d times, want each finding (exit %d):\n%s", n, run.code, log)
			}
			meant := []string{"add-mask", "warning", "error", "notice", "group", "endgroup", "debug"}
			for _, c := range ghactiontest.Commands(log) {
				if c.Indented || c.Legacy || !slices.Contains(meant, c.Name) {
					t.Errorf("the runner reads a command the action did not mean: %q", c.Text)
					continue
				}
				if title, ok := c.Properties["title"]; ok && title != "docs-publish" {
					t.Errorf("an annotation titled %q: %q", title, c.Text)
				}
				if file, ok := c.Properties["file"]; ok && !slices.Contains(paths, file) {
					t.Errorf("an annotation on %q, no file of the description: %q", file, c.Text)
				}
			}
		})
	}
}
