package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/closedport"
	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// recorder is a Reporter that keeps everything the flow reports.
type recorder struct {
	mu      sync.Mutex
	lines   []string
	outputs map[string]string
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

func (r *recorder) Group(title string) func()         { r.add("== %s", title); return func() {} }
func (r *recorder) Infof(format string, args ...any)  { r.add(format, args...) }
func (r *recorder) Debugf(format string, args ...any) { r.add("debug: "+format, args...) }
func (r *recorder) Annotate(level report.Level, msg string, at report.Where) {
	r.add("%s: %s:%d:%d: %s", level, at.File, at.Line, at.Col, msg)
}

func (r *recorder) SetOutput(name, value string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.outputs == nil {
		r.outputs = map[string]string{}
	}
	r.outputs[name] = value
	return nil
}

func (r *recorder) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func (r *recorder) count(substr string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, l := range r.lines {
		if strings.Contains(l, substr) {
			n++
		}
	}
	return n
}

const testToken = "tok-flow-test-secret"

func startEmulator(t *testing.T, mutate func(*emulator.Config)) *emulator.Server {
	t.Helper()
	return emulatortest.Start(t, testToken, 20*time.Millisecond, mutate)
}

// flowConfig is a run's configuration with the defaults of action.yml, the
// sample description in a fresh workspace, and api-url set to apiURL.
func flowConfig(t *testing.T, apiURL string) Config {
	t.Helper()
	ws := t.TempDir()
	sample, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(ws, "api"), 0o755)
	if err := os.WriteFile(filepath.Join(ws, "api", "openapi.yaml"), sample, 0o644); err != nil {
		t.Fatal(err)
	}
	return Config{
		Token: testToken, APIURL: apiURL, ProjectID: "4711", File: "api/openapi.yaml",
		Bundle: true, Branch: "main", SetLive: true, WaitForBuild: true,
		Timeout: Duration(time.Minute), RequestTimeout: Duration(30 * time.Second), BuildTimeout: Duration(20 * time.Second),
		MaxDownload: 1 << 30, Workspace: ws,
	}
}

func runFlow(t *testing.T, cfg Config, opts Options) (*Result, *recorder, error) {
	t.Helper()
	if opts.FirstRetry == 0 {
		opts.FirstRetry = 5 * time.Millisecond
	}
	rep := &recorder{}
	res, err := Run(context.Background(), cfg, rep, opts)
	return res, rep, err
}

// TestFlowOutcomes drives the flow in process against the emulator, for the
// branches that decide how a run ends.
func TestFlowOutcomes(t *testing.T) {
	t.Parallel()
	closed := closedport.URL(t)
	cases := []struct {
		name     string
		emu      func(*emulator.Config)
		fault    *emulator.Fault
		cfg      func(*Config, *emulator.Server)
		step     Step     // the failed step, "" for success
		msg      []string // in the error
		state    string   // the build state
		releases int
		check    func(t *testing.T, emu *emulator.Server, res *Result, rep *recorder)
	}{
		{name: "published and built", state: BuildReady, releases: 1,
			check: func(t *testing.T, emu *emulator.Server, res *Result, rep *recorder) {
				if rep.outputs["docs-url"] != "https://doc-17.project-4711.docs.example/" || res.DocsURL != rep.outputs["docs-url"] {
					t.Errorf("docs-url output %q, result %q", rep.outputs["docs-url"], res.DocsURL)
				}
				if emu.RequestsTo("/docs.builds.download") == 0 {
					t.Error("the build was not checked")
				}
			}},
		{name: "a failed build fails the step", cfg: func(c *Config, _ *emulator.Server) { c.FileName = "other.yml" },
			step: StepWait, state: BuildFailed, releases: 1,
			msg: []string{"wait for build 1001", "build 1001 failed", "openapi.yml on branch main", "for the reason it gives", "this run wrote other.yml on branch main"}},
		{name: "a failed build told in a 200", emu: func(c *emulator.Config) { c.Variant.Failure = emulator.Failure200 },
			cfg:  func(c *Config, _ *emulator.Server) { c.FileName = "other.yml" },
			step: StepWait, state: BuildFailed, releases: 1, msg: []string{"build 1001 failed: build failed: doc 17 renders openapi.yml"}},
		{name: "wait-for-build false leaves the outcome unknown", cfg: func(c *Config, _ *emulator.Server) { c.WaitForBuild = false; c.FileName = "other.yml" },
			state: BuildUnchecked, releases: 1,
			check: func(t *testing.T, emu *emulator.Server, res *Result, rep *recorder) {
				if n := emu.RequestsTo("/docs.builds.download"); n != 0 {
					t.Errorf("%d requests to the download endpoint without wait-for-build or download", n)
				}
				if !strings.Contains(rep.log(), "outcome was not checked") {
					t.Errorf("the log does not say the outcome is unknown:\n%s", rep.log())
				}
			}},
		{name: "download waits and saves the zip", cfg: func(c *Config, _ *emulator.Server) { c.Download = true; c.WaitForBuild = false },
			state: BuildReady, releases: 1,
			check: func(t *testing.T, emu *emulator.Server, res *Result, rep *recorder) {
				if res.ZipPath != "docs-build-1001.zip" || res.ZipSize == 0 {
					t.Errorf("zip %q of %d bytes", res.ZipPath, res.ZipSize)
				}
			}},
		{name: "ids of any text: kept exact, the zip named safely", emu: func(c *emulator.Config) { c.Variant.IDs = emulator.IDText },
			cfg:   func(c *Config, _ *emulator.Server) { c.Download = true },
			state: BuildReady, releases: 1,
			check: func(t *testing.T, emu *emulator.Server, res *Result, rep *recorder) {
				if rep.outputs["doc-id"] != "docs/17 ä=" || rep.outputs["build-id"] != "b/1001 Zürich=" {
					t.Errorf("doc-id %q, build-id %q: not as the service wrote them", rep.outputs["doc-id"], rep.outputs["build-id"])
				}
				if want := "docs-build-b%2F1001%20Z%C3%BCrich%3D.zip"; res.ZipPath != want || rep.outputs["zip-path"] != want {
					t.Errorf("zip %q, output %q; want %q", res.ZipPath, rep.outputs["zip-path"], want)
				}
			}},
		{name: "a doc whose id cannot be used does not fail the run unless chosen",
			emu: func(c *emulator.Config) {
				c.Projects[0].Docs = append(c.Projects[0].Docs, emulator.Doc{ID: "x\u202e\n::warning::y", File: "openapi.yml", Branch: "main"})
			},
			cfg:   func(c *Config, _ *emulator.Server) { c.DocID = "17" },
			state: BuildReady, releases: 1},
		{name: "a release whose answer was lost is never sent again", fault: &emulator.Fault{Endpoint: "release", Kind: emulator.FaultDropAfter},
			step: StepRelease, releases: 1, msg: []string{"a build may have been started under doc 17", "not sent again"}},
		{name: "nothing listens at api-url", cfg: func(c *Config, _ *emulator.Server) { c.APIURL = closed },
			step: StepList, msg: []string{"cannot reach " + closed, "connection refused", "check api-url"}},
		{name: "a wrong path prefix blames api-url, not project-id", cfg: func(c *Config, emu *emulator.Server) { c.APIURL = emu.URL() + "/v2" },
			step: StepList, msg: []string{"404", "api-url may be wrong", "path prefix"}},
		{name: "an unknown project blames project-id", cfg: func(c *Config, _ *emulator.Server) { c.ProjectID = "999" },
			step: StepList, msg: []string{"404", `project "999" may not exist`}},
		{name: "a wrong path prefix answered in JSON names both", emu: func(c *emulator.Config) { c.Variant.UnknownRoute = emulator.RouteJSON },
			cfg:  func(c *Config, emu *emulator.Server) { c.APIURL = emu.URL() + "/v2" },
			step: StepList, msg: []string{"404", `project "4711" may not exist`, "api-url may be wrong", "path prefix"}},
		{name: "a build that never finishes", emu: func(c *emulator.Config) { c.BuildDelay = time.Hour },
			cfg:  func(c *Config, _ *emulator.Server) { c.BuildTimeout = Duration(300 * time.Millisecond) },
			step: StepWait, releases: 1, msg: []string{"not ready within build-timeout (300ms)", "last answer"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, tc.emu)
			if tc.fault != nil {
				emu.Inject(*tc.fault)
			}
			cfg := flowConfig(t, emu.URL())
			if tc.cfg != nil {
				tc.cfg(&cfg, emu)
			}
			res, rep, err := runFlow(t, cfg, Options{})
			if (err == nil) != (tc.step == "") || res.FailedStep != tc.step {
				t.Fatalf("error %v at step %q, want step %q\n%s", err, res.FailedStep, tc.step, rep.log())
			}
			for _, m := range tc.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not say %q", err, m)
				}
			}
			if res.BuildState != tc.state {
				t.Errorf("build state %q, want %q", res.BuildState, tc.state)
			}
			if n := emu.RequestsTo("/docs.release"); n != tc.releases {
				t.Errorf("%d releases sent, want %d", n, tc.releases)
			}
			if tc.check != nil {
				tc.check(t, emu, res, rep)
			}
		})
	}
}

// TestFailedBuildIsNeverSuccess: however the service tells a failed build
// (an error status, a status field of any shape, or JSON the client cannot
// read), the step fails: with the service's message where it can be read,
// else when build-timeout runs out.
func TestFailedBuildIsNeverSuccess(t *testing.T) {
	t.Parallel()
	for _, failure := range []emulator.FailureStyle{emulator.Failure422, emulator.Failure200, emulator.FailureOpaque} {
		for _, fields := range []emulator.FieldStyle{emulator.FieldsStrings, emulator.FieldsObjects, emulator.FieldsArrays, emulator.FieldsUnknown, emulator.FieldsAbsent} {
			t.Run(string(failure)+"/"+string(fields), func(t *testing.T) {
				t.Parallel()
				emu := startEmulator(t, func(c *emulator.Config) { c.Variant = emulator.Variant{Failure: failure, Fields: fields} })
				cfg := flowConfig(t, emu.URL())
				cfg.FileName = "other.yml" // not the file the doc renders
				cfg.BuildTimeout = Duration(500 * time.Millisecond)
				res, rep, err := runFlow(t, cfg, Options{})
				if err == nil || res.FailedStep != StepWait || res.BuildState == BuildReady {
					t.Fatalf("a failed build ended in %v at %q, state %q\n%s", err, res.FailedStep, res.BuildState, rep.log())
				}
				var bf *BuildFailedError
				if errors.As(err, &bf) != (res.BuildState == BuildFailed) {
					t.Errorf("state %q for %v", res.BuildState, err)
				}
			})
		}
	}
}

// TestWaitingReportsNowAndThen: while the build runs, a progress line comes
// every so often with the time elapsed and left, not one per poll: at most
// one per interval the wait lasted, and one more.
func TestWaitingReportsNowAndThen(t *testing.T) {
	t.Parallel()
	const every = 250 * time.Millisecond
	emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = 900 * time.Millisecond })
	cfg := flowConfig(t, emu.URL())
	res, rep, err := runFlow(t, cfg, Options{FirstRetry: time.Millisecond, ProgressEvery: every})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	var waited time.Duration
	for _, st := range res.Steps {
		if st.Step == StepWait {
			waited = st.Duration
		}
	}
	polls := emu.RequestsTo("/docs.builds.download")
	lines := rep.count("waiting for build 1001: ")
	most := int(waited/every) + 1
	if lines < 1 || lines > most {
		t.Errorf("%d progress lines in a wait of %s with a line due every %s: want 1 to %d\n%s", lines, waited, every, most, rep.log())
	}
	// The check above can fail only if the polls outnumber that bound.
	if polls <= most {
		t.Errorf("%d polls in %s: too few to tell a line per poll from a line now and then", polls, waited)
	}
	if !strings.Contains(rep.log(), "elapsed") || !strings.Contains(rep.log(), "left") {
		t.Errorf("progress lines do not say the time elapsed and left:\n%s", rep.log())
	}
}

// TestWaitingReadsNoZip: waiting for the build (without download) asks the
// download endpoint whether the zip is ready and reads no more of it than
// its first bytes. A stand-in service serves a zip of 256 MiB and counts
// what it could send: a check that read the whole zip would take it all.
func TestWaitingReadsNoZip(t *testing.T) {
	t.Parallel()
	const size = 256 << 20
	var sent atomic.Int64
	served := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/docs.list"):
			io.WriteString(w, `{"docs":[{"id":17}]}`)
		case strings.HasSuffix(r.URL.Path, "/docs.release"):
			io.WriteString(w, `{"build":{"id":1001}}`)
		case strings.HasSuffix(r.URL.Path, "/docs.builds.download"):
			defer func() { served <- struct{}{} }()
			w.Header().Set("Content-Type", "application/zip")
			w.Header().Set("Content-Length", fmt.Sprint(size))
			chunk := make([]byte, 64<<10)
			copy(chunk, "PK\x03\x04")
			for n := 0; n < size; n += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return // the client went away
				}
				sent.Add(int64(len(chunk)))
				copy(chunk, make([]byte, 4)) // the signature once, at the start
			}
		default: // the file update
			io.WriteString(w, `{}`)
		}
	}))
	t.Cleanup(srv.Close)
	cfg := flowConfig(t, srv.URL)
	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil || res.BuildState != BuildReady {
		t.Fatalf("error %v, state %q\n%s", err, res.BuildState, rep.log())
	}
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the download answer was still being sent 10 s after the run")
	}
	// What the connection's buffers take before the sender blocks is a few
	// MiB; the whole zip is 256.
	if n := sent.Load(); n >= size/8 {
		t.Errorf("the stand-in sent %d MiB of a %d MiB zip to a run that only waited for the build", n>>20, size>>20)
	}
}

// rewriter is a proxy in front of the emulator that replaces one field of
// one endpoint's JSON answers by a value.
type rewriter struct {
	endpoint string // a path suffix: /docs.list, /docs.release, /files/, /docs.builds.download
	path     []string
	value    any  // dropField removes the field
	errors   bool // rewrite error answers rather than successes
	mu       sync.Mutex
	rewrote  int            // answers rewritten
	answers  map[string]any // the first JSON answer of each endpoint, as sent
}

func (rw *rewriter) start(t *testing.T, target string) string {
	t.Helper()
	u, _ := url.Parse(target)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(u)
		r.Out.Header.Del("Accept-Encoding") // answers come back plain, to rewrite
	}}
	proxy.ModifyResponse = func(resp *http.Response) error {
		success := resp.StatusCode >= 200 && resp.StatusCode <= 299
		if success == rw.errors || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			ep := endpointOf(resp.Request.URL.Path)
			rw.mu.Lock()
			if rw.answers == nil {
				rw.answers = map[string]any{}
			}
			if _, seen := rw.answers[ep]; !seen {
				rw.answers[ep] = v
			}
			rw.mu.Unlock()
			if ep == rw.endpoint && rw.path != nil {
				v = replace(v, rw.path, rw.value)
				body, _ = json.Marshal(v)
				rw.mu.Lock()
				rw.rewrote++
				rw.mu.Unlock()
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}

func endpointOf(path string) string {
	for _, ep := range []string{"/docs.list", "/docs.release", "/docs.builds.download"} {
		if strings.HasSuffix(path, ep) {
			return ep
		}
	}
	return "/files/"
}

// dropField, as a replacement value, removes the field.
type dropField struct{}

// replace sets the value at path ("*" is every element of an array).
func replace(v any, path []string, value any) any {
	if len(path) == 0 {
		return value
	}
	switch x := v.(type) {
	case map[string]any:
		if old, ok := x[path[0]]; ok {
			if _, drop := value.(dropField); drop && len(path) == 1 {
				delete(x, path[0])
				break
			}
			x[path[0]] = replace(old, path[1:], value)
		}
	case []any:
		if path[0] == "*" {
			for i := range x {
				x[i] = replace(x[i], path[1:], value)
			}
		}
	}
	return v
}

// paths lists every field under v, arrays' elements as "*".
func paths(v any, prefix []string, out *[][]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			p := append(slices.Clone(prefix), k)
			*out = append(*out, p)
			paths(val, p, out)
		}
	case []any:
		for _, val := range x {
			paths(val, append(slices.Clone(prefix), "*"), out)
		}
	}
}

// TestNoOtherFieldCanFailARun answers each endpoint with every field but the
// promised ones (docs[].id, build.id) removed, or replaced by a JSON type,
// and each field of an error answer likewise: every run publishes one build
// and outputs its id as the service wrote it. Each field gets one of the
// types, taken in turn from field to field (each type meets four or five
// fields of the answers and the errors);
// TestNoOtherFieldCanFailARunWithEveryType gives each field the others. Replacing a promised field does fail the run, which shows
// the rewriting reaches the client.
func TestNoOtherFieldCanFailARun(t *testing.T) {
	t.Parallel()
	noOtherFieldCanFailARun(t, true)
}

// TestNoOtherFieldCanFailARunWithEveryType is TestNoOtherFieldCanFailARun
// with the types it leaves out of each field: some 170 flows, one goroutine
// each as there, which that test runs under -race.
func TestNoOtherFieldCanFailARunWithEveryType(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	noOtherFieldCanFailARun(t, false)
}

// noOtherFieldCanFailARun runs the flows of TestNoOtherFieldCanFailARun:
// with quick, each field with one type and the promised fields replaced;
// else each field with the types quick leaves out.
func noOtherFieldCanFailARun(t *testing.T, quick bool) {
	t.Helper()
	// Record each endpoint's answers once, to find their fields (with a
	// build slow enough that the download endpoint says "not ready" first).
	_, rec, _, rep, err := runRewritten(t, func(*emulator.Server) *rewriter { return &rewriter{} }, true)
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	promised := map[string][]string{
		"/docs.list":    {"docs", "docs/*", "docs/*/id"},
		"/docs.release": {"build", "build/id"},
	}
	values := []any{dropField{}, nil, true, json.Number("1.5"), "text", []any{1, map[string]any{"a": nil}}, map[string]any{"a": []any{nil}}}
	type mutation struct {
		endpoint string
		path     []string
		value    any
		fails    bool
		errors   bool // an error answer (a 503, retried) is rewritten
	}
	var muts []mutation
	if _, ok := rec.answers["/docs.builds.download"]; !ok || len(rec.answers) != 4 {
		t.Fatalf("recorded answers of %d endpoints, want all four: %v", len(rec.answers), rec.answers)
	}
	// The fields in a fixed order (the answers are maps), each with the
	// values its run takes: the quick run's one value rotates from field
	// to field.
	fields := 0
	add := func(ep string, p []string, errors bool) {
		for i, v := range values {
			if (i == fields%len(values)) == quick {
				muts = append(muts, mutation{ep, p, v, false, errors})
			}
		}
		fields++
	}
	for _, ep := range slices.Sorted(maps.Keys(rec.answers)) {
		var ps [][]string
		paths(rec.answers[ep], nil, &ps)
		slices.SortFunc(ps, slices.Compare)
		for _, p := range slices.CompactFunc(ps, slices.Equal) {
			if !slices.Contains(promised[ep], strings.Join(p, "/")) {
				add(ep, p, false)
			}
		}
	}
	if fields < 10 {
		t.Fatalf("only %d fields: the recorded answers have too few: %v", fields, rec.answers)
	}
	// Error answers: each of the service's error fields in a 503 that the
	// run rides out.
	for _, ep := range []string{"/docs.list", "/files/", "/docs.release", "/docs.builds.download"} {
		for _, field := range []string{"error_message", "error_code", "tracking_id"} {
			add(ep, []string{field}, true)
		}
	}
	if quick {
		muts = append(muts,
			mutation{"/docs.list", []string{"docs", "*", "id"}, map[string]any{}, true, false},
			mutation{"/docs.list", []string{"docs", "*", "id"}, dropField{}, true, false},
			mutation{"/docs.list", []string{"docs"}, "none", true, false},
			mutation{"/docs.release", []string{"build", "id"}, []any{}, true, false},
			mutation{"/docs.release", []string{"build"}, nil, true, false})
	}
	faultOf := map[string]string{"/docs.list": "list", "/files/": "update", "/docs.release": "release", "/docs.builds.download": "download"}
	// Each run mostly waits on loopback and the build: they run a few per
	// core at once, whatever -parallel is, so that the package's timed
	// tests keep go test's default.
	sem := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, m := range muts {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			t.Run(fmt.Sprintf("%s %s=%v errors:%v", m.endpoint, strings.Join(m.path, "."), m.value, m.errors), func(t *testing.T) {
				emu, rw, res, rep, err := runRewritten(t, func(emu *emulator.Server) *rewriter {
					if m.errors {
						emu.Inject(emulator.Fault{Endpoint: faultOf[m.endpoint], Kind: emulator.FaultStatus, Status: http.StatusServiceUnavailable})
					}
					return &rewriter{endpoint: m.endpoint, path: m.path, value: m.value, errors: m.errors}
				}, m.endpoint == "/docs.builds.download" && !m.errors)
				if rw.rewrote == 0 {
					t.Fatalf("no answer was rewritten")
				}
				if m.fails {
					if err == nil {
						t.Errorf("a run succeeded with a promised field replaced")
					}
					return
				}
				if err != nil {
					t.Fatalf("%v\n%s", err, rep.log())
				}
				builds := emu.Builds()
				if len(builds) != 1 || rep.outputs["build-id"] != builds[0].ID || res.BuildState != BuildReady {
					t.Errorf("%d builds, build-id %q, state %q", len(builds), rep.outputs["build-id"], res.BuildState)
				}
			})
		})
	}
	wg.Wait()
}

// runRewritten runs the flow on the smallest description (the answers are
// under test, not the description) against an emulator behind the
// rewriter that newRewriter sets up. A download answer is JSON only while
// the build is not ready: with notReady, the build takes 200 ms, and where
// a loaded machine's first poll found it ready already (no such answer
// went through the rewriter), the run is tried again with a build four
// times as long.
func runRewritten(t *testing.T, newRewriter func(*emulator.Server) *rewriter, notReady bool) (*emulator.Server, *rewriter, *Result, *recorder, error) {
	t.Helper()
	for delay := 200 * time.Millisecond; ; delay *= 4 {
		emu := startEmulator(t, func(c *emulator.Config) {
			if notReady {
				c.BuildDelay = delay
			}
		})
		rw := newRewriter(emu)
		cfg := flowConfig(t, rw.start(t, emu.URL()))
		if err := os.WriteFile(filepath.Join(cfg.Workspace, cfg.File), []byte(smallDescription), 0o644); err != nil {
			t.Fatal(err)
		}
		res, rep, err := runFlow(t, cfg, Options{})
		rw.mu.Lock()
		_, metNotReady := rw.answers["/docs.builds.download"]
		rw.mu.Unlock()
		if !notReady || metNotReady || delay > 10*time.Second {
			return emu, rw, res, rep, err
		}
	}
}

// TestErrorsKeepTheirCause: a step's error keeps the client's typed error.
func TestErrorsKeepTheirCause(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	cfg := flowConfig(t, emu.URL())
	cfg.Token = "wrong-token-value"
	_, _, err := runFlow(t, cfg, Options{})
	var se *StepError
	var ae *docsapi.APIError
	if !errors.As(err, &se) || se.Step != StepList || !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Fatalf("error %v: want a *StepError at list docs wrapping a 401 *docsapi.APIError", err)
	}
	if !strings.Contains(err.Error(), authHint) {
		t.Errorf("error %q does not say to check the token", err)
	}
}

// TestSilentServiceSaysWhatToDo: a service that takes requests and never
// answers ends the run with advice that names the input to check: after a
// few requests that each waited out request-timeout, api-url and
// request-timeout; when the run's timeout runs out first, timeout.
func TestSilentServiceSaysWhatToDo(t *testing.T) {
	t.Parallel()
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(silent.Close)
	cases := []struct {
		name                string
		timeout, perRequest time.Duration
		want                string
		cause               func(error) bool
	}{
		{"each request waits out request-timeout", time.Minute, 100 * time.Millisecond,
			"if the service is only slow, raise request-timeout",
			func(err error) bool { var na *docsapi.NoAnswerError; return errors.As(err, &na) }},
		{"the run's timeout runs out first", 500 * time.Millisecond, 5 * time.Second,
			"timeout (500ms), which bounds the whole run, ran out",
			func(err error) bool { return errors.Is(err, context.DeadlineExceeded) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, silent.URL)
			cfg.Timeout, cfg.RequestTimeout = Duration(tc.timeout), Duration(tc.perRequest)
			_, _, err := runFlow(t, cfg, Options{})
			var se *StepError
			if !errors.As(err, &se) || se.Step != StepList || !tc.cause(err) {
				t.Fatalf("error %v: want a *StepError at list docs with the cause", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// TestNotADescriptionSaysWhatToDo: a file input that names a file which is
// not an API description is refused before any request, saying where to
// point it; a file a $ref names is not held to being a description. Each is
// a fault in what a file holds, placed at its line: an invalid description
// (exit 3), as a syntax error is, an empty file too.
func TestNotADescriptionSaysWhatToDo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		files  map[string]string
		want   string
		advice bool
	}{
		{"empty", map[string]string{"api/openapi.yaml": "# nothing yet\n"}, "api/openapi.yaml:1:1: is empty", true},
		{"no openapi key", map[string]string{"api/openapi.yaml": "title: x\n"}, "api/openapi.yaml:1:1: has no swagger: or openapi: key", true},
		{"a list", map[string]string{"api/openapi.yaml": "- a\n"}, "api/openapi.yaml:1:1: is neither a YAML nor a JSON API description", true},
		{"an empty file a $ref names", map[string]string{
			"api/openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-logo: {$ref: ./logo.yaml}\n",
			"api/logo.yaml":    "",
		}, "is empty: it holds no YAML or JSON document", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := flowConfig(t, emu.URL())
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(cfg.Workspace, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, rep, err := runFlow(t, cfg, Options{})
			var ie *InputError
			if !errors.As(err, &ie) || ie.Input != "file" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v: want an *InputError for file saying %q", err, tc.want)
			}
			if !IsInvalid(err) {
				t.Errorf("error %v: not an invalid description", err)
			}
			if got := strings.Contains(err.Error(), pointAtDescription); got != tc.advice {
				t.Errorf("error %q: says to point the file input elsewhere: %v, want %v", err, got, tc.advice)
			}
			if strings.Contains(err.Error(), ":1:1:") && rep.count(pointAtDescription) != 1 {
				t.Errorf("the annotation does not say what to do:\n%s", rep.log())
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests, want none", n)
			}
		})
	}
}

// TestLoadErrorsKeepTheirCause: a description that cannot be loaded fails
// the run with an *InputError whose cause holds every load error, the
// first of them where errors.As finds a *openapi.LoadError; its message
// says the one error where it is, or sums several up.
func TestLoadErrorsKeepTheirCause(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, main string
		count      int
		line       int // of the first error, in api/openapi.yaml
	}{
		{"two $refs that do not resolve", "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters:\n" +
			"        - $ref: 'common/nope.yaml#/limit'\n        - $ref: 'common/none.yaml#/offset'\n      responses:\n        200: {description: ok}\n", 2, 7},
		{"a syntax error", "openapi: 3.0.0\ninfo:\n  title: T\n  version: \"1\npaths: {}\n", 1, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, closedport.URL(t)) // nothing may be sent
			if err := os.WriteFile(filepath.Join(cfg.Workspace, "api", "openapi.yaml"), []byte(tc.main), 0o644); err != nil {
				t.Fatal(err)
			}
			res, rep, err := runFlow(t, cfg, Options{})
			var ie *InputError
			var les openapi.LoadErrors
			var le *openapi.LoadError
			if !errors.As(err, &ie) || ie.Input != "file" || !errors.As(err, &les) || !errors.As(err, &le) {
				t.Fatalf("error %v (%T): want an *InputError for file whose cause is the openapi.LoadErrors\n%s", err, err, rep.log())
			}
			if want := fmt.Sprintf("%d errors in 1 file", tc.count); tc.count > 1 && !strings.Contains(err.Error(), want) {
				t.Errorf("error %q: want it to sum up: %s", err, want)
			}
			if len(les) != tc.count || le != les[0] || le.File != "api/openapi.yaml" || int(le.Pos.Line) != tc.line {
				t.Errorf("%d load errors, the first found %v; want %d, the first at api/openapi.yaml:%d", len(les), le, tc.count, tc.line)
			}
			if res.FailedStep != StepCheck || len(res.Findings) != tc.count {
				t.Errorf("failed at %q with %d findings", res.FailedStep, len(res.Findings))
			}
		})
	}
}

// smallDescription is the smallest valid description, for tests whose
// subject is not the description.
const smallDescription = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"
