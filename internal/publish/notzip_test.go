package publish

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// notZipFront is a proxy in front of the emulator whose download endpoint
// answers its first `times` requests with status, ctype and body in place
// of the service.
func notZipFront(t *testing.T, emuURL string, times int, status int, ctype, body string) (apiURL string, downloads *atomic.Int32) {
	t.Helper()
	u, _ := url.Parse(emuURL)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) }}
	downloads = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/docs.builds.download") && int(downloads.Add(1)) <= times {
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			io.WriteString(w, body)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, downloads
}

// TestSuccessThatIsNotAZip: a download answered with success and a body
// that is neither a zip nor a JSON placeholder (a mock's example, a proxy's
// page, the web application) is asked again a few times, in case it was a
// passing page, and then fails the step long before build-timeout, saying
// what came, quoting its start without the token, and naming api-url.
func TestSuccessThatIsNotAZip(t *testing.T) {
	t.Parallel()
	page := "<!DOCTYPE html>\n<html><head><title>Mock</title></head>\n<body>token " + testToken + " \x00\x01</body></html>"
	cases := []struct {
		name        string
		times       int // answers that are not a zip, then the service's own
		status      int
		ctype, body string
		download    bool   // else wait-for-build only
		start       string // how the error quotes the body; "" when the run succeeds
	}{
		{"application/zip, an HTML page", 100, 200, "application/zip", page, true,
			"<!DOCTYPE html> <html><head><title>Mock</title></head> <body>token " + testToken + " \\x00\\x01</body></html>"},
		{"application/zip, a mock's example", 100, 200, "application/zip", "string", false, "string"},
		{"a proxy's HTML page", 100, 200, "text/html; charset=utf-8", "<html><body>Bad gateway</body></html>", true, "<html><body>Bad gateway</body></html>"},
		{"binary that is not a zip", 100, 203, "application/octet-stream", "\x1f\x8b\x08\x00", true, "\\x1f\\x8b\\x08\\x00"},
		{"application/zip, empty", 100, 200, "application/zip", "", true, ""},
		{"a passing page, then the zip", 2, 200, "text/html", "<html>one moment</html>", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			api, downloads := notZipFront(t, emu.URL(), tc.times, tc.status, tc.ctype, tc.body)
			cfg := flowConfig(t, api)
			cfg.Download = Bool(tc.download)
			// Far more than the few polls a run may spend: a run that
			// waits for a zip that never comes fails by the count.
			cfg.BuildTimeout = Duration(10 * time.Second)
			res, _, err := runFlow(t, cfg, Options{})
			if tc.times < 100 {
				if err != nil {
					t.Fatalf("a passing page failed the run: %v", err)
				}
				return
			}
			var nz *NotAZipError
			var se *StepError
			if !errors.As(err, &nz) || !errors.As(err, &se) {
				t.Fatalf("error %v (%T): want a *StepError with a *NotAZipError", err, err)
			}
			wantStep := StepWait
			if tc.download {
				wantStep = StepDownload
			}
			if res.FailedStep != wantStep {
				t.Errorf("failed at %q, want %q", res.FailedStep, wantStep)
			}
			if n := downloads.Load(); n != maxNotAZip {
				t.Errorf("%d downloads, want %d", n, maxNotAZip)
			}
			msg := err.Error()
			wantStart := "; the body starts: " + tc.start
			if tc.start == "" {
				wantStart = "; the body is empty"
			}
			for _, want := range []string{
				fmt.Sprintf("answered %d ", tc.status), "with a body that is not a zip (" + tc.ctype + "), 3 times",
				wantStart, "check api-url",
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not say %q", msg, want)
				}
			}
			// The message quotes the body as sent: the sinks scrub it
			// where it is written (TestNoSecretThroughAnySink).
			if res.BuildState == BuildFailed {
				t.Error("the build is reported failed: nothing said so")
			}
		})
	}
}
