package publish

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// TestBuildWaitRules: a download answered 410 Gone is a failed build, said
// at once; build-timeout 0 waits without a limit; and the progress line of
// a wait comes every 15 seconds unless told otherwise, so a short wait has
// none.
func TestBuildWaitRules(t *testing.T) {
	t.Parallel()
	t.Run("410 Gone", func(t *testing.T) {
		t.Parallel()
		emu := startEmulator(t, nil)
		target, err := url.Parse(emu.URL())
		if err != nil {
			t.Fatal(err)
		}
		proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/docs.builds.download" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusGone)
				w.Write([]byte(`{"error":"the build was removed"}`))
				return
			}
			proxy.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		cfg := flowConfig(t, srv.URL)
		res, rep, err := runFlow(t, cfg, Options{})
		var bf *BuildFailedError
		if !errors.As(err, &bf) || res.BuildState != BuildFailed || res.FailedStep != StepWait {
			t.Errorf("error %v, state %q, failed at %q; want a failed build\n%s", err, res.BuildState, res.FailedStep, rep.log())
		}
	})
	t.Run("build-timeout 0", func(t *testing.T) {
		t.Parallel()
		emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = 100 * time.Millisecond })
		cfg := flowConfig(t, emu.URL())
		cfg.BuildTimeout = 0
		res, rep, err := runFlow(t, cfg, Options{})
		if err != nil || res.BuildState != BuildReady {
			t.Errorf("error %v, state %q; want the build waited for\n%s", err, res.BuildState, rep.log())
		}
	})
	t.Run("the default progress interval", func(t *testing.T) {
		t.Parallel()
		emu := startEmulator(t, func(c *emulator.Config) { c.BuildDelay = 300 * time.Millisecond })
		cfg := flowConfig(t, emu.URL())
		res, rep, err := runFlow(t, cfg, Options{FirstRetry: time.Millisecond})
		if err != nil || res.BuildState != BuildReady {
			t.Fatalf("error %v, state %q\n%s", err, res.BuildState, rep.log())
		}
		if polls := emu.RequestsTo("/docs.builds.download"); polls < 3 {
			t.Fatalf("%d polls: too few to tell a line per poll", polls)
		}
		if n := rep.count("waiting for build 1001: "); n != 0 {
			t.Errorf("%d progress lines in a wait well under 15s\n%s", n, rep.log())
		}
	})
}

func TestNotAZipMessage(t *testing.T) {
	t.Parallel()
	for attempts, want := range map[int]string{
		1: "the service answered 200 OK with a body that is not a zip (text/html); the body starts: <html>",
		3: "the service answered 200 OK with a body that is not a zip (text/html), 3 times; the body starts: <html>",
	} {
		e := &NotAZipError{Status: 200, ContentType: "text/html", Start: "<html>", Attempts: attempts}
		if got := e.Error(); got != want {
			t.Errorf("after %d attempts: %q, want %q", attempts, got, want)
		}
	}
}
