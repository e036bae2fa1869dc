package publish

import (
	"errors"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
)

// TestHostileBase: a Swagger 2.0 base with nulls where the API diff
// library expects objects (a path item, an operation, a header), which the
// library panics over, costs the run a warning, or with fail-on-breaking a
// *CompareError, never the run.
func TestHostileBase(t *testing.T) {
	t.Parallel()
	const head = `swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200": {description: ok}
  /b:
    post:
      responses:
        "200": {description: ok, headers: {X: {type: string}}}
`
	bases := []struct{ name, base string }{
		{"null path item and operation", `swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /a: null
  /b:
    post: null
`},
		{"null header", `swagger: "2.0"
info: {title: T, version: "1"}
paths:
  /b:
    post:
      responses:
        "200": {description: ok, headers: {X: null}}
`},
	}
	for _, b := range bases {
		for _, gate := range []bool{false, true} {
			name := b.name
			if gate {
				name += ", fail-on-breaking"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				cfg := compareConfig(t, "http://127.0.0.1:1", fakeGitHub(t), head)
				cfg.Comment, cfg.DryRun, cfg.FailOnBreaking = false, true, Bool(gate)
				writeBase(t, &cfg, b.base)
				res, rep, err := runFlow(t, cfg, Options{})
				var pe *apidiff.PanicError
				if gate {
					var ce *CompareError
					if !errors.As(err, &ce) || !errors.As(err, &pe) {
						t.Fatalf("error %v: want a *CompareError of the library's panic\n%s", err, rep.log())
					}
					return
				}
				if err != nil {
					t.Fatalf("%v\n%s", err, rep.log())
				}
				if res.Changes == nil || res.Changes.Report != nil || rep.count("warning: :0:0: API changes not reported: the base description cannot be compared: the API diff library failed on it") != 1 {
					t.Errorf("changes %+v: want a warning that nothing was compared\n%s", res.Changes, rep.log())
				}
			})
		}
	}
}
