package publish

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDownloadCutShort: a build whose body the service ends at half its
// length, every time, is asked for a few times, then fails as cut short
// (not as a build not ready within build-timeout), saying to run again;
// nothing is left at download-path, nor the folder made for it.
func TestDownloadCutShort(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	u, _ := url.Parse(emu.URL())
	var cuts atomic.Int32
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) }}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/docs.builds.download") {
			proxy.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		proxy.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if rec.Code != http.StatusOK {
			w.WriteHeader(rec.Code)
			w.Write(body)
			return
		}
		cuts.Add(1)
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	cfg := flowConfig(t, srv.URL)
	cfg.DownloadPath = "dl/deep/site.zip"
	cfg.BuildTimeout = Duration(5 * time.Second)
	_, rep, err := runFlow(t, cfg, Options{})
	var cut *CutShortError
	var se *StepError
	if !errors.As(err, &cut) || !errors.As(err, &se) || se.Hint != cutShortHint {
		t.Fatalf("error %v (%T): want a download cut short, with its hint\n%s", err, err, rep.log())
	}
	if msg := err.Error(); strings.Contains(msg, "build-timeout") || !strings.Contains(msg, "cut short") || cut.Want < 0 && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %q: want it to say the body was cut, not to raise build-timeout", err)
	}
	if n := cuts.Load(); n != maxCutShort || cut.Attempts != maxCutShort {
		t.Errorf("%d downloads, %d attempts counted: want %d", n, cut.Attempts, maxCutShort)
	}
	if _, err := os.Lstat(filepath.Join(cfg.Workspace, "dl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dl is left in the workspace (%v)", err)
	}
}
