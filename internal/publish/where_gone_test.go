package publish

import (
	"os"
	"strings"
	"testing"
)

// TestRemovedOperationOnAPullRequest: on a pull request whose base is read
// from git, the base's lines are not the head's: an operation removed with
// its path is annotated at the head's `paths:` key, saying where the base
// had it, or on the file when the head has no `paths:`; given as base-file,
// the base is a file of its own, and the removal is annotated in it.
func TestRemovedOperationOnAPullRequest(t *testing.T) {
	t.Parallel()
	sample, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := string(sample)
	from, to := strings.Index(base, "  /authors:\n"), strings.Index(base, "components:\n")
	if from < 0 || to < from {
		t.Fatal("the sample's /authors is not where this test takes it from")
	}
	noAuthors := base[:from] + base[to:]
	// A head with no paths at all: its only path gone, and /books with it.
	noPaths := strings.Replace(base[:strings.Index(base, "paths:\n")]+base[to:], "openapi: 3.0.3\n", "openapi: 3.1.0\n", 1)
	const removed = "breaking change: GET /authors: api path removed without deprecation (api-path-removed-without-deprecation)"
	cases := []struct {
		name, head string
		baseFile   bool
		want       string
	}{
		{"the base read from git", noAuthors, false,
			"warning: api/openapi.yaml:8:1: " + removed + "; removed: the base has it at line 49 of api/openapi.yaml"},
		{"the base read from git, a head with no paths", noPaths, false,
			"warning: api/openapi.yaml:0:0: " + removed + "; removed: the base has it at line 49 of api/openapi.yaml"},
		{"base-file", noAuthors, true,
			"warning: base/openapi.yaml:49:5: " + removed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			gh.AddFile(baseSHA, "api/openapi.yaml", base)
			cfg := compareConfig(t, emu.URL(), gh, tc.head)
			cfg.Comment, cfg.DryRun = false, true
			if tc.baseFile {
				writeBase(t, &cfg, string(sample))
			}
			_, rep, err := runFlow(t, cfg, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			var got []string
			for _, l := range strings.Split(rep.log(), "\n") {
				if strings.Contains(l, "GET /authors") && strings.HasPrefix(l, "warning: ") {
					got = append(got, l)
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("annotations of GET /authors:\n%s\nwant:\n%s\n\n%s", strings.Join(got, "\n"), tc.want, rep.log())
			}
		})
	}
}
