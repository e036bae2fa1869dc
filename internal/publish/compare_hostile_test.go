package publish

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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
			const want = "warning: :0:0: API changes not reported: the comparison was stopped after 0s, the time set for it: the change reaches more of the descriptions than that time compares; set compare: false"
			if res.Changes == nil || res.Changes.Report != nil || rep.count(want) != 1 {
				t.Errorf("changes %+v: want the warning %q\n%s", res.Changes, want, rep.log())
			}
		})
	}
}

// TestCompareGoesOnWithoutWaiting: a comparison still under way when its
// time runs out, and that does not stop (the library cannot be stopped in
// a call), costs the run a warning: the run publishes without waiting for
// it. Not parallel: it replaces the comparison with one that blocks until
// the run has returned.
func TestCompareGoesOnWithoutWaiting(t *testing.T) {
	emu := startEmulator(t, nil)
	cfg := compareConfig(t, emu.URL(), fakeGitHub(t), fixture(t, "removed-operation/head/openapi.yaml"))
	cfg.Comment = false
	writeBase(t, &cfg, fixture(t, "removed-operation/base/openapi.yaml"))
	release, started := make(chan struct{}), make(chan struct{})
	compare := compareJSON
	t.Cleanup(func() { compareJSON = compare })
	compareJSON = func(context.Context, []byte, []byte, io.Reader) (*apidiff.Report, error) {
		close(started)
		<-release // deaf to its context, as a call into the library is
		return &apidiff.Report{}, nil
	}
	defer close(release)
	type ran struct {
		res *Result
		rep *recorder
		err error
	}
	done := make(chan ran, 1)
	go func() {
		res, rep, err := runFlow(t, cfg, Options{CompareWait: 50 * time.Millisecond})
		done <- ran{res, rep, err}
	}()
	var r ran
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the run waits for a comparison that ran out of time")
	}
	select {
	case <-started:
	default:
		t.Fatalf("the comparison never started\n%s", r.rep.log())
	}
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.rep.log())
	}
	const want = "warning: :0:0: API changes not reported: the comparison was stopped after 50ms, the time set for it"
	if r.res.Changes == nil || r.res.Changes.Report != nil || r.rep.count(want) != 1 {
		t.Errorf("changes %+v: want the warning %q\n%s", r.res.Changes, want, r.rep.log())
	}
	if len(emu.Builds()) != 1 {
		t.Errorf("%d builds: the run publishes while the comparison is under way\n%s", len(emu.Builds()), r.rep.log())
	}
}

// TestCompareReportAtItsEnd: a comparison that gives its report as its
// context ends (as one does that ran out while it placed the changes it
// found) is told to stop before the run stops waiting for it, and its
// report is the run's, with no warning. Not parallel: it replaces the
// comparison.
func TestCompareReportAtItsEnd(t *testing.T) {
	emu := startEmulator(t, nil)
	cfg := compareConfig(t, emu.URL(), fakeGitHub(t), fixture(t, "removed-operation/head/openapi.yaml"))
	cfg.Comment = false
	writeBase(t, &cfg, fixture(t, "removed-operation/base/openapi.yaml"))
	compare := compareJSON
	t.Cleanup(func() { compareJSON = compare })
	compareJSON = func(ctx context.Context, base, head []byte, ignore io.Reader) (*apidiff.Report, error) {
		rep, err := compare(context.Background(), base, head, ignore)
		<-ctx.Done()
		return rep, err
	}
	res, rep, err := runFlow(t, cfg, Options{CompareWait: 2 * time.Second})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if res.Changes == nil || res.Changes.Breaking() != 1 || rep.count("API changes not reported") != 0 {
		t.Errorf("changes %+v: want the comparison's report, one breaking change\n%s", res.Changes, rep.log())
	}
}

// TestCompareWait: the comparison's time is what Options sets, else half
// of what remains of the run's, at most maxCompareWait; the error of one
// that ran out says which, and what to do about it.
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
		says        string // the error's
	}{
		{"set", within(time.Hour), 3 * time.Second, 3 * time.Second, 3 * time.Second,
			"the comparison was stopped after 3s, the time set for it: the change reaches more of the descriptions than that time compares; set compare: false"},
		{"half of what remains", within(40 * time.Second), 0, 10 * time.Second, 20 * time.Second,
			", half of what remained of timeout: the change reaches more of the descriptions than that time compares; raise timeout, or set compare: false"},
		{"at most", within(time.Hour), 0, maxCompareWait, maxCompareWait,
			"the comparison was stopped after 5m0s, the most a comparison may take: the change reaches more of the descriptions than that time compares; set compare: false"},
		{"no timeout", context.Background(), 0, maxCompareWait, maxCompareWait,
			"the comparison was stopped after 5m0s, the most a comparison may take: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, from := compareWait(tc.ctx, tc.set)
			if got < tc.least || got > tc.most {
				t.Errorf("compareWait = %v, want between %v and %v", got, tc.least, tc.most)
			}
			if msg := (&CompareTimeError{Wait: got, from: from}).Error(); !strings.Contains(msg, tc.says) {
				t.Errorf("the error says %q, want %q", msg, tc.says)
			}
		})
	}
}
