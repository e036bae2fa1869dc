package publish

import (
	"crypto/sha256"
	"encoding/hex"
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

// TestDownloadOfUnknownLength: a build sent without a Content-Length (in
// chunks, as a proxy may send it) is saved whole at once, with its size and
// hash, rather than taken for one cut short and asked for again.
func TestDownloadOfUnknownLength(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	u, _ := url.Parse(emu.URL())
	var chunked atomic.Int32
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(u) },
		FlushInterval: -1,
		ModifyResponse: func(resp *http.Response) error {
			if strings.HasSuffix(resp.Request.URL.Path, "/docs.builds.download") && resp.StatusCode == http.StatusOK {
				resp.Header.Del("Content-Length")
				resp.ContentLength = -1
			}
			return nil
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: unknownLengths{&chunked}}
	cfg := flowConfig(t, srv.URL)
	cfg.Download = true
	cfg.BuildTimeout = Duration(3 * time.Second)
	res, rep, err := runFlow(t, cfg, Options{HTTPClient: client})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	switch n := chunked.Load(); {
	case n == 0:
		t.Fatal("the build came with its length: the test proves nothing")
	case n > 1:
		t.Errorf("the build was downloaded %d times: it came whole the first time", n)
	}
	data, err := os.ReadFile(filepath.Join(cfg.Workspace, res.ZipPath))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if res.ZipSize != int64(len(data)) || res.ZipSHA256 != hex.EncodeToString(sum[:]) || rep.outputs["zip-size"] != strconv.Itoa(len(data)) {
		t.Errorf("%d bytes saved; size %d (output %q), sha256 %s", len(data), res.ZipSize, rep.outputs["zip-size"], res.ZipSHA256)
	}
}

// TestMaxDownloadSizeUnset: a configuration that sets no max-download-size
// (a program that calls Run with zero) takes the default bound, 1 GiB,
// rather than refusing every build.
func TestMaxDownloadSizeUnset(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	cfg := flowConfig(t, emu.URL())
	cfg.Download, cfg.MaxDownload = true, 0
	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil || res.ZipSize == 0 {
		t.Fatalf("%v, %d bytes saved\n%s", err, res.ZipSize, rep.log())
	}
	if _, err := os.Stat(filepath.Join(cfg.Workspace, res.ZipPath)); err != nil {
		t.Error(err)
	}
}

// unknownLengths counts the builds that come without their length.
type unknownLengths struct{ n *atomic.Int32 }

func (u unknownLengths) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && strings.HasSuffix(r.URL.Path, "/docs.builds.download") && resp.StatusCode == http.StatusOK && resp.ContentLength < 0 {
		u.n.Add(1)
	}
	return resp, err
}
