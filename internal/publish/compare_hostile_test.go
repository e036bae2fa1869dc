package publish

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

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
				if res.Changes == nil || res.Changes.Report != nil || rep.count("warning: :0:0: API changes not reported: the base description cannot be compared: the API diff library failed (runtime error: ") != 1 {
					t.Errorf("changes %+v: want a warning that nothing was compared\n%s", res.Changes, rep.log())
				}
			})
		}
	}
}

// TestCompareOutOfTime: a comparison that takes longer than its time
// (Options.CompareWait, here one that has passed before it starts) costs
// the run a warning that says so and what to do, or with fail-on-breaking
// a *CompareError, since the gate cannot be evaluated.
func TestCompareOutOfTime(t *testing.T) {
	t.Parallel()
	const doc = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /%s:\n    get:\n      responses: {'200': {description: ok}}\n"
	for _, gate := range []bool{false, true} {
		t.Run(fmt.Sprintf("fail-on-breaking %t", gate), func(t *testing.T) {
			t.Parallel()
			cfg := compareConfig(t, "http://127.0.0.1:1", fakeGitHub(t), fmt.Sprintf(doc, "b"))
			cfg.Comment, cfg.DryRun, cfg.FailOnBreaking = false, true, Bool(gate)
			writeBase(t, &cfg, fmt.Sprintf(doc, "a"))
			res, rep, err := runFlow(t, cfg, Options{CompareWait: time.Nanosecond})
			var te *CompareTimeError
			if gate {
				var ce *CompareError
				if !errors.As(err, &ce) || !errors.As(err, &te) {
					t.Fatalf("error %v: want a *CompareError of the comparison's time\n%s", err, rep.log())
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			const want = "warning: :0:0: API changes not reported: the comparison was stopped after 0s, the time it may take (half of what remained of timeout, at most 5m0s): the change reaches more of the descriptions than that time compares; raise timeout, or set compare: false"
			if res.Changes == nil || res.Changes.Report != nil || rep.count(want) != 1 {
				t.Errorf("changes %+v: want the warning %q\n%s", res.Changes, want, rep.log())
			}
		})
	}
}

// TestCompareWait: the comparison's time is what Options sets, else half
// of what remains of the run's, at most maxCompareWait.
func TestCompareWait(t *testing.T) {
	t.Parallel()
	within := func(d time.Duration) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		t.Cleanup(cancel)
		return ctx
	}
	for _, tc := range []struct {
		name        string
		ctx         context.Context
		set         time.Duration
		least, most time.Duration
	}{
		{"set", within(time.Hour), 3 * time.Second, 3 * time.Second, 3 * time.Second},
		{"half of what remains", within(40 * time.Second), 0, 10 * time.Second, 20 * time.Second},
		{"at most", within(time.Hour), 0, maxCompareWait, maxCompareWait},
		{"no timeout", context.Background(), 0, maxCompareWait, maxCompareWait},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := compareWait(tc.ctx, tc.set); got < tc.least || got > tc.most {
				t.Errorf("compareWait = %v, want between %v and %v", got, tc.least, tc.most)
			}
		})
	}
}
