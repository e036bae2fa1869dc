package publish

import (
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/githubapi/githubapitest"
)

// TestBaseReferringToAMissingFile: a base description that refers to a
// file its base does not hold cannot be compared; that is not a new
// description (the file itself is there), nor a base-file that names no
// file. The publish goes on with a warning that says which file is missing.
func TestBaseReferringToAMissingFile(t *testing.T) {
	t.Parallel()
	base := strings.Replace(fixture(t, "removed-operation/base/openapi.yaml"),
		`                $ref: "#/components/schemas/Book"`, `                $ref: "./book.yaml"`, 1)
	head := fixture(t, "removed-operation/head/openapi.yaml")
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, cfg *Config) func(gh *githubapitest.Server)
		label string
	}{
		{"base-file", func(t *testing.T, cfg *Config) func(gh *githubapitest.Server) {
			writeBase(t, cfg, base)
			return nil
		}, "base-file base/openapi.yaml"},
		{"the pull request's base commit", func(t *testing.T, cfg *Config) func(gh *githubapitest.Server) {
			return func(gh *githubapitest.Server) { gh.AddFile(baseSHA, "api/openapi.yaml", base) }
		}, "the pull request's base commit 1111111"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			gh := fakeGitHub(t)
			cfg := compareConfig(t, emu.URL(), gh, head)
			cfg.Comment = false
			if add := tc.setup(t, &cfg); add != nil {
				add(gh)
			}
			res, rep, err := runFlow(t, cfg, Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			if n := len(emu.Builds()); n != 1 {
				t.Errorf("%d builds, want the description published", n)
			}
			if res.Changes == nil || res.Changes.New || res.Changes.Report != nil {
				t.Errorf("changes %+v, want nothing compared and no new description", res.Changes)
			}
			if want := "warning: :0:0: API changes not reported: the description at " + tc.label + " cannot be loaded: 1 error in 1 file, the first: "; rep.count(want) != 1 || rep.count("book.yaml") == 0 {
				t.Errorf("want %q, naming book.yaml\n%s", want, rep.log())
			}
		})
	}
}
