package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// startManyEmulator is the emulator with n more docs in project 4711: doc
// 10<i> renders svc<i>.yml on main.
func startManyEmulator(t *testing.T, n int) *emulator.Server {
	t.Helper()
	return startEmulator(t, func(c *emulator.Config) { addDocs(c, n) })
}

// addDocs adds n docs to project 4711: doc 10<i> renders svc<i>.yml on main.
func addDocs(c *emulator.Config, n int) {
	for i := range n {
		id := fmt.Sprint(100 + i)
		c.Projects[0].Docs = append(c.Projects[0].Docs, emulator.Doc{ID: id, Domain: emulator.DomainFor("4711", id), File: fmt.Sprintf("svc%d.yml", i), Branch: "main"})
	}
}

// manyConfigs is n descriptions of the sample, api/svc<i>.yaml in one
// workspace, each written as svc<i>.yml to project 4711 and released under
// its doc 10<i> (see startManyEmulator).
func manyConfigs(t *testing.T, apiURL string, n int) []Config {
	t.Helper()
	first := flowConfig(t, apiURL)
	sample, err := os.ReadFile(filepath.Join(first.Workspace, "api", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfgs := make([]Config, n)
	for i := range cfgs {
		cfg := first
		cfg.File = fmt.Sprintf("api/svc%d.yaml", i)
		cfg.DocID = fmt.Sprint(100 + i)
		if err := os.WriteFile(filepath.Join(first.Workspace, cfg.File), sample, 0o644); err != nil {
			t.Fatal(err)
		}
		cfgs[i] = cfg
	}
	return cfgs
}

func runMany(t *testing.T, cfgs []Config, opts Options) ([]*Result, *recorder, error) {
	t.Helper()
	if opts.FirstRetry == 0 {
		opts.FirstRetry = 5 * time.Millisecond
	}
	rep := &recorder{}
	res, err := RunAll(context.Background(), cfgs, rep, opts)
	return res, rep, err
}

// TestSeveralDescriptionsPublished: every description is written to its
// own file and released, the results in the order given, each
// description's log lines in groups titled with its index and file.
func TestSeveralDescriptionsPublished(t *testing.T) {
	t.Parallel()
	emu := startManyEmulator(t, 3)
	cfgs := manyConfigs(t, emu.URL(), 3)
	res, rep, err := runMany(t, cfgs, Options{Parallel: 2})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, rep.log())
	}
	builds := map[string]bool{}
	for i, r := range res {
		name := fmt.Sprintf("svc%d.yml", i)
		if r.File != cfgs[i].File || r.FileName != name || r.BuildID == "" || r.BuildState != BuildReady || r.Err != nil {
			t.Errorf("result %d: %+v, want %s published as %s and built", i, r, cfgs[i].File, name)
		}
		builds[r.BuildID] = true
		if v := emu.Versions("4711", "main", name); len(v) != 1 {
			t.Errorf("%s: %d versions in the service, want 1", name, len(v))
		}
		if want := fmt.Sprintf("== descriptions[%d] (api/svc%d.yaml): release build", i, i); !strings.Contains(rep.log(), want) {
			t.Errorf("log lacks the group %q:\n%s", want, rep.log())
		}
	}
	if len(builds) != 3 {
		t.Errorf("builds %v: want three", builds)
	}
	if len(rep.outputs) != 0 {
		t.Errorf("outputs %v: with several descriptions, none of theirs is the step's", rep.outputs)
	}
}

// TestAnInvalidDescriptionSendsNothing: two of three descriptions are
// invalid: every fault of both is annotated, nothing at all reaches the
// service, the valid one is held back, and each failure names its
// description.
func TestAnInvalidDescriptionSendsNothing(t *testing.T) {
	t.Parallel()
	emu := startManyEmulator(t, 3)
	cfgs := manyConfigs(t, emu.URL(), 3)
	ws := cfgs[0].Workspace
	os.WriteFile(filepath.Join(ws, "api/svc0.yaml"), []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/nope'}\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "api/svc2.yaml"), []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /b:\n    get:\n      responses:\n        '200': {$ref: '#/gone'}\n        '404': {$ref: '#/lost'}\n"), 0o644)
	res, rep, err := runMany(t, cfgs, Options{})
	var re *RunsError
	if !errors.As(err, &re) || re.Sent || len(re.Failed) != 2 {
		t.Fatalf("error %v (%T): want a *RunsError of two, nothing sent\n%s", err, err, rep.log())
	}
	for i, f := range re.Failed {
		if want := []int{0, 2}[i]; f.Index != want || !IsInvalid(f.Err) {
			t.Errorf("failure %d: descriptions[%d] %v: want descriptions[%d], invalid", i, f.Index, f.Err, want)
		}
	}
	for _, want := range []string{"api/svc0.yaml:7:", "#/nope", "api/svc2.yaml:7:", "#/gone", "api/svc2.yaml:8:", "#/lost"} {
		if !strings.Contains(rep.log(), want) {
			t.Errorf("no annotation says %q:\n%s", want, rep.log())
		}
	}
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("%d requests reached the service, want none", n)
	}
	if !res[1].Held || res[1].BuildID != "" || res[0].Held {
		t.Errorf("results %+v %+v: want the valid one held, the invalid one failed", res[0], res[1])
	}
}

// TestDescriptionsThatWouldOverwriteEachOther: two descriptions that
// would write the same file of a project branch, or the same local path,
// are an input error before anything is loaded or sent, naming both.
func TestDescriptionsThatWouldOverwriteEachOther(t *testing.T) {
	t.Parallel()
	emu := startManyEmulator(t, 3)
	cases := []struct {
		name  string
		set   func(c *Config, i int)
		clash string
	}{
		{"same file name", func(c *Config, i int) { c.FileName = "openapi.yml" }, "file openapi.yml on branch main of project 4711"},
		{"same file name, other branch", func(c *Config, i int) { c.FileName = "openapi.yml"; c.Branch = []string{"main", "main", "dev"}[i] }, "file openapi.yml on branch main"},
		{"same bundle", func(c *Config, i int) { c.BundlePath = "out/bundle.json" }, "bundle-path out/bundle.json"},
		{"same zip", func(c *Config, i int) { c.DownloadPath = "out/docs.zip" }, "download-path out/docs.zip"},
		{"same site", func(c *Config, i int) { c.ExtractTo = "site" }, "extract-to site"},
		{"same file, another name", func(c *Config, i int) { c.FileName = []string{"a.yml", "b.yml", "a.yml"}[i] }, "file a.yml on branch main"},
		{"a bundle in a site", func(c *Config, i int) {
			c.ExtractTo, c.BundlePath = []string{"site", "", ""}[i], []string{"", "site/b.json", ""}[i]
		}, "bundle-path site/b.json"},
		{"a site around a zip", func(c *Config, i int) {
			c.DownloadPath, c.ExtractTo = []string{"out/docs/a.zip", "", ""}[i], []string{"", "out", ""}[i]
		}, "extract-to out"},
		{"a bundle through a link", func(c *Config, i int) { c.BundlePath = []string{"out/a.json", "alias/a.json", ""}[i] }, "bundle-path alias/a.json"},
		{"a bundle over a description", func(c *Config, i int) { c.BundlePath = []string{"", "api/svc0.yaml", ""}[i] }, "bundle-path api/svc0.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfgs := manyConfigs(t, emu.URL(), 3)
			for i := range cfgs {
				tc.set(&cfgs[i], i)
			}
			ws := cfgs[0].Workspace
			if err := os.MkdirAll(filepath.Join(ws, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("out", filepath.Join(ws, "alias")); err != nil {
				t.Fatal(err)
			}
			before := len(emu.Requests())
			_, rep, err := runMany(t, cfgs, Options{})
			var ie *InputError
			if !errors.As(err, &ie) || IsInvalid(err) {
				t.Fatalf("error %v (%T): want an input error\n%s", err, err, rep.log())
			}
			if !strings.Contains(err.Error(), tc.clash) || !strings.Contains(err.Error(), " descriptions[0] (api/svc0.yaml)") {
				t.Errorf("error %q: want it to name %q and the first description", err, tc.clash)
			}
			if strings.Contains(rep.log(), "== descriptions[") {
				t.Errorf("a description was loaded:\n%s", rep.log())
			}
			if n := len(emu.Requests()) - before; n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

// TestOneFailureLeavesTheOthersPublished: a description whose doc does
// not exist fails at its step; the others are published all the same.
func TestOneFailureLeavesTheOthersPublished(t *testing.T) {
	t.Parallel()
	emu := startManyEmulator(t, 3)
	cfgs := manyConfigs(t, emu.URL(), 3)
	cfgs[1].DocID = "999"
	res, rep, err := runMany(t, cfgs, Options{})
	var re *RunsError
	if !errors.As(err, &re) || !re.Sent || len(re.Failed) != 1 || re.Failed[0].Index != 1 {
		t.Fatalf("error %v: want descriptions[1] alone failed, the others sent\n%s", err, rep.log())
	}
	if res[1].FailedStep != StepList || res[0].BuildID == "" || res[2].BuildID == "" {
		t.Errorf("results: %+v / %+v / %+v", res[0], res[1], res[2])
	}
}

// barrier is a transport that holds each file update until n of them are
// under way at once, and records the most that ever were.
type barrier struct {
	n       int
	mu      sync.Mutex
	cond    *sync.Cond
	now     int
	most    int
	arrived int
}

func (b *barrier) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodPut {
		return http.DefaultTransport.RoundTrip(r)
	}
	b.mu.Lock()
	b.now++
	b.arrived++
	b.most = max(b.most, b.now)
	group := (b.arrived + b.n - 1) / b.n
	b.cond.Broadcast()
	deadline := time.AfterFunc(10*time.Second, func() { b.mu.Lock(); b.cond.Broadcast(); b.mu.Unlock() })
	start := time.Now()
	for b.arrived < group*b.n && time.Since(start) < 10*time.Second {
		b.cond.Wait()
	}
	deadline.Stop()
	b.mu.Unlock()
	resp, err := http.DefaultTransport.RoundTrip(r)
	b.mu.Lock()
	b.now--
	b.mu.Unlock()
	return resp, err
}

// TestParallelBoundsTheWorkers: with parallel 2, two descriptions are
// published at once (each update waits until a second one is under way),
// and never more than two.
func TestParallelBoundsTheWorkers(t *testing.T) {
	t.Parallel()
	emu := startManyEmulator(t, 4)
	cfgs := manyConfigs(t, emu.URL(), 4)
	b := &barrier{n: 2}
	b.cond = sync.NewCond(&b.mu)
	start := time.Now()
	_, rep, err := runMany(t, cfgs, Options{Parallel: 2, HTTPClient: &http.Client{Transport: b}})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, rep.log())
	}
	if time.Since(start) > 9*time.Second {
		t.Errorf("an update waited for a second that never came: the descriptions were not published two at once")
	}
	if b.most != 2 {
		t.Errorf("at most %d updates under way at once, want 2", b.most)
	}
}

// timing is a transport that records when each request started, and when
// the first answer of status came back.
type timing struct {
	status int
	mu     sync.Mutex
	starts []time.Time
	at     time.Time
}

func (tr *timing) RoundTrip(r *http.Request) (*http.Response, error) {
	tr.mu.Lock()
	tr.starts = append(tr.starts, time.Now())
	tr.mu.Unlock()
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.StatusCode == tr.status {
		tr.mu.Lock()
		if tr.at.IsZero() {
			tr.at = time.Now()
		}
		tr.mu.Unlock()
	}
	return resp, err
}

// TestRetryAfterSlowsEveryDescription: a 429 with Retry-After: 1 that one
// description's update gets holds back the requests of every description
// under way, not only its own retry.
func TestRetryAfterSlowsEveryDescription(t *testing.T) {
	t.Parallel()
	// Builds that take two seconds keep the others polling meanwhile.
	emu := startEmulator(t, func(c *emulator.Config) { addDocs(c, 3); c.BuildDelay = 2 * time.Second })
	emu.Inject(emulator.Fault{Endpoint: "update", Kind: emulator.FaultStatus, Status: http.StatusTooManyRequests, RetryAfter: "1"})
	cfgs := manyConfigs(t, emu.URL(), 3)
	tr := &timing{status: http.StatusTooManyRequests}
	_, rep, err := runMany(t, cfgs, Options{Parallel: 3, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, rep.log())
	}
	if tr.at.IsZero() {
		t.Fatal("no request was throttled: the case tests nothing")
	}
	// Past a moment for the answer to be read, nothing is sent until the
	// second is over.
	from, until := tr.at.Add(150*time.Millisecond), tr.at.Add(950*time.Millisecond)
	for _, s := range tr.starts {
		if s.After(from) && s.Before(until) {
			t.Errorf("a request was sent %s after the Retry-After of 1s", s.Sub(tr.at).Round(time.Millisecond))
		}
	}
}

// TestSameFileTwiceKeepsTwoComments: one description published under two
// names of the project, on a pull request, keeps a comment for each, and a
// second push rewrites both rather than one taking the other's.
func TestSameFileTwiceKeepsTwoComments(t *testing.T) {
	t.Parallel()
	emu := startManyEmulator(t, 2)
	gh := fakeGitHub(t)
	gh.AddFile(baseSHA, "api/openapi.yaml", fixture(t, "removed-operation/base/openapi.yaml"))
	cfg := compareConfig(t, emu.URL(), gh, fixture(t, "removed-operation/head/openapi.yaml"))
	cfgs := []Config{cfg, cfg}
	for i := range cfgs {
		cfgs[i].DocID, cfgs[i].FileName = fmt.Sprint(100+i), fmt.Sprintf("svc%d.yml", i)
	}
	for push := 1; push <= 2; push++ {
		if _, rep, err := runMany(t, cfgs, Options{}); err != nil {
			t.Fatalf("push %d: %v\n%s", push, err, rep.log())
		}
		cs := gh.Comments()
		if len(cs) != 2 {
			t.Fatalf("push %d: %d comments, want one per description: %+v", push, len(cs), cs)
		}
		for i, want := range []string{"svc0.yml", "svc1.yml"} {
			if !strings.Contains(strings.SplitN(cs[i].Body, "\n", 2)[0], want) && !strings.Contains(strings.SplitN(cs[1-i].Body, "\n", 2)[0], want) {
				t.Errorf("push %d: no comment's marker names %s: %+v", push, want, cs)
			}
		}
	}
	if n := commentWrites(gh); n != 2 {
		t.Errorf("%d comment writes over two pushes, want the 2 created on the first (the second push's reports are the same)", n)
	}
}
