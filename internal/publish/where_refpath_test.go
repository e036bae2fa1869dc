package publish

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/gitclone/gitclonetest"
)

// Descriptions of GET /users, whose query parameter status lists its
// values, and whose parameter limit is shared from another file, written
// with the path item in the main file or in a file of its own.
const (
	usersItem = `get:
  parameters:
    - $ref: '../common.yaml#/Limit'
    - name: status
      in: query
      schema:
        type: string
        enum: [%s]
  responses:
    '200': {description: ok}
%s`
	usersByRef = `openapi: %s
info: {title: T, version: '1'}
paths:
  /users:
    $ref: './paths/users.yaml'
`
	usersInline = `openapi: 3.1.0
info: {title: T, version: '1'}
paths:
  /users:
    get:
      parameters:
        - $ref: './common.yaml#/Limit'
        - name: status
          in: query
          schema:
            type: string
            enum: [%s]
      responses:
        '200': {description: ok}
`
	usersLimit = `Limit:
  name: limit
  in: query
  required: %s
  schema: {type: integer}
`
	usersDelete = `delete:
  responses:
    '204': {description: gone}
`
)

// TestPlacedThroughAPathItemRef: a change inside a path item given by $ref
// is annotated where it is written, in the file that holds it, as the same
// change written inline is: a path item a 3.0 bundle inlines, or a 3.1
// bundle lifts into components/pathItems; a parameter that path item
// refers to in its own file; and a removal the base wrote inside a path
// item by $ref, at its place in the head, whether the head writes it
// inline or by $ref; an operation removed from such a path item, at the
// head's path; alike whether the base is base-file or a commit, whose
// lines are not the head's.
func TestPlacedThroughAPathItemRef(t *testing.T) {
	t.Parallel()
	byRef := func(version, values, required, more string) map[string]string {
		return map[string]string{
			"openapi.yaml":     fmt.Sprintf(usersByRef, version),
			"paths/users.yaml": fmt.Sprintf(usersItem, values, more),
			"common.yaml":      fmt.Sprintf(usersLimit, required),
		}
	}
	inline := func(values, required string) map[string]string {
		return map[string]string{
			"openapi.yaml": fmt.Sprintf(usersInline, values),
			"common.yaml":  fmt.Sprintf(usersLimit, required),
		}
	}
	const (
		enum     = "breaking change: GET /users: removed the enum value `pending` from the `query` request parameter `status` (request-parameter-enum-value-removed)"
		required = "breaking change: GET /users: the `query` request parameter `limit` became required (request-parameter-became-required)"
		deleted  = "breaking change: DELETE /users: api removed without deprecation (api-removed-without-deprecation)"
	)
	all, some := "active, disabled, pending", "active, disabled"
	cases := []struct {
		name       string
		base, head map[string]string
		want       []string
	}{
		{"inline", inline(all, "false"), inline(some, "false"),
			[]string{"api/openapi.yaml:12:13: " + enum}},
		{"a path item by $ref, 3.0", byRef("3.0.3", all, "false", ""), byRef("3.0.3", some, "false", ""),
			[]string{"api/paths/users.yaml:8:9: " + enum}},
		{"a path item by $ref, 3.1", byRef("3.1.0", all, "false", ""), byRef("3.1.0", some, "false", ""),
			[]string{"api/paths/users.yaml:8:9: " + enum}},
		{"a parameter by $ref in a path item by $ref, 3.0", byRef("3.0.3", some, "false", ""), byRef("3.0.3", some, "true", ""),
			[]string{"api/common.yaml:4:3: " + required}},
		{"a parameter by $ref in a path item by $ref, 3.1", byRef("3.1.0", some, "false", ""), byRef("3.1.0", some, "true", ""),
			[]string{"api/common.yaml:4:3: " + required}},
		{"removed in a path item by $ref, inline in the head", byRef("3.1.0", all, "false", ""), inline(some, "false"),
			[]string{"api/openapi.yaml:12:13: " + enum}},
		{"removed inline, a path item by $ref in the head", inline(all, "false"), byRef("3.1.0", some, "false", ""),
			[]string{"api/paths/users.yaml:8:9: " + enum}},
		{"an operation removed from a path item by $ref, 3.1", byRef("3.1.0", some, "false", usersDelete), byRef("3.1.0", some, "false", ""),
			[]string{"api/openapi.yaml:4:3: " + deleted}},
	}
	for _, tc := range cases {
		for _, clone := range []bool{false, true} {
			t.Run(tc.name+map[bool]string{false: ", base-file", true: ", a base commit"}[clone], func(t *testing.T) {
				t.Parallel()
				emu := startEmulator(t, nil)
				cfg := flowConfig(t, emu.URL())
				cfg.Compare, cfg.FailOnBreaking, cfg.DryRun = true, true, true
				dir := ""
				if clone {
					// The base a commit of a clone in a folder: its lines
					// are not the head's.
					dir = "checkout/"
					repo := filepath.Join(cfg.Workspace, "checkout")
					os.MkdirAll(repo, 0o755)
					git := gitclonetest.Git(t, repo)
					git("init", "-q")
					writeFiles(t, filepath.Join(repo, "api"), tc.base)
					git("add", "-A")
					git("commit", "-q", "-m", "base")
					cfg.BaseSHA, cfg.EventName = git("rev-parse", "HEAD"), "push"
					os.RemoveAll(filepath.Join(repo, "api"))
					writeFiles(t, filepath.Join(repo, "api"), tc.head)
					cfg.File = "checkout/api/openapi.yaml"
				} else {
					writeFiles(t, filepath.Join(cfg.Workspace, "api"), tc.head)
					writeFiles(t, filepath.Join(cfg.Workspace, "base"), tc.base)
					cfg.File, cfg.BaseFile = "api/openapi.yaml", "base/openapi.yaml"
				}
				_, rep, err := runFlow(t, cfg, Options{})
				var be *BreakingError
				if !errors.As(err, &be) {
					t.Fatalf("err %v\n%s", err, rep.log())
				}
				var got, want []string
				for _, l := range strings.Split(rep.log(), "\n") {
					if at, ok := strings.CutPrefix(l, "error: "); ok && strings.Contains(l, "breaking change: ") {
						got = append(got, at)
					}
				}
				for _, w := range tc.want {
					want = append(want, dir+w)
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}

// writeFiles writes files, by their names under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
