package docsapi

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/closedport"
)

// proxyServer is a proxy that answers every CONNECT with status, and
// counts them; it records the credentials it was sent.
func proxyServer(t *testing.T, status int) (addr string, connects *atomic.Int32, auth *atomic.Value) {
	t.Helper()
	connects, auth = &atomic.Int32{}, &atomic.Value{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			t.Errorf("the proxy got %s %s, want CONNECT", r.Method, r.URL)
		}
		connects.Add(1)
		auth.Store(r.Header.Get("Proxy-Authorization"))
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), connects, auth
}

// listThroughProxy lists the docs of https://docs.example.test with the
// proxy variable set to proxy, and returns the error.
func listThroughProxy(t *testing.T, variable, proxy string, requestTimeout time.Duration) error {
	t.Helper()
	env := map[string]string{variable: proxy}
	c, err := New(mustURL(t, "https://docs.example.test/v1"), token, Options{FirstRetry: 5 * time.Millisecond, RequestTimeout: requestTimeout, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	// A deadline far beyond the policy's few seconds: only the policy
	// should stop the retries.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = c.ListDocs(ctx, "p")
	return err
}

// TestProxyFailuresAreTheProxys: a proxy that wants credentials (407) or
// forbids the host (403) fails the request at once, and one that is down
// after the few attempts of an unreachable host; each error names the
// proxy's address without its credentials and the variable it came from,
// and says what to do.
func TestProxyFailuresAreTheProxys(t *testing.T) {
	t.Parallel()
	const user, password = "builder", "pr0xy-pa55"
	cases := []struct {
		name     string
		status   int    // the proxy's answer to CONNECT; 0: no proxy listens
		variable string // the variable set
		attempts int32
		want     []string
	}{
		{"407 asks for credentials", http.StatusProxyAuthRequired, "HTTPS_PROXY", 1,
			[]string{"the proxy http://{proxy} (from HTTPS_PROXY) asks for credentials (407 Proxy Authentication Required)", "put them in the proxy's address in HTTPS_PROXY", "add docs.example.test to NO_PROXY"}},
		{"403 forbids the host", http.StatusForbidden, "https_proxy", 1,
			[]string{"the proxy http://{proxy} (from https_proxy) refused to connect to docs.example.test (403 Forbidden)", "allow docs.example.test", "add it to NO_PROXY"}},
		{"502 tried as an unreachable host is", http.StatusBadGateway, "HTTPS_PROXY", unreachableAttempts,
			[]string{"the proxy http://{proxy} (from HTTPS_PROXY) did not connect to docs.example.test (4 attempts): it answered CONNECT with 502 Bad Gateway"}},
		{"down", 0, "https_proxy", 0,
			[]string{"cannot reach the proxy http://{proxy} (from https_proxy), which requests to docs.example.test go through: connection refused", "(4 attempts)", "check the proxy's host and port in https_proxy"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var addr string
			var connects *atomic.Int32
			var auth *atomic.Value
			if tc.status != 0 {
				addr, connects, auth = proxyServer(t, tc.status)
			} else {
				addr = closedport.Addr(t)
			}
			err := listThroughProxy(t, tc.variable, "http://"+user+":"+password+"@"+addr, 0)
			var pe *ProxyError
			if !errors.As(err, &pe) || pe.Status != tc.status {
				t.Fatalf("error %v (%T), want a *ProxyError for status %d", err, err, tc.status)
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "{proxy}", addr); !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), password) || strings.Contains(err.Error(), user) {
				t.Errorf("error %q shows the proxy's credentials", err)
			}
			if connects != nil {
				if n := connects.Load(); n != tc.attempts {
					t.Errorf("%d CONNECTs, want %d", n, tc.attempts)
				}
				want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
				if got, _ := auth.Load().(string); got != want {
					t.Errorf("the proxy got Proxy-Authorization %q, want the credentials of the proxy's address", got)
				}
			}
		})
	}
}

// TestProxyThatHoldsCONNECT: a proxy that takes the connection and never
// answers CONNECT is the proxy's fault, tried on the schedule of an
// unreachable host (here four short attempts; with the default request
// timeout of a minute, one), not for the whole run.
func TestProxyThatHoldsCONNECT(t *testing.T) {
	t.Parallel()
	addr := strings.TrimPrefix(silentListener(t), "https://")
	err := listThroughProxy(t, "HTTPS_PROXY", "http://"+addr, 200*time.Millisecond)
	var pe *ProxyError
	if !errors.As(err, &pe) || pe.Kind != ProxyNoAnswer || pe.Attempts != unreachableAttempts {
		t.Fatalf("error %v (%T), want a *ProxyError of a proxy that does not answer, after %d attempts", err, err, unreachableAttempts)
	}
	if want := "cannot reach the proxy http://" + addr + " (from HTTPS_PROXY), which requests to docs.example.test go through: it took the connection and did not answer CONNECT"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// TestProxySetting: the proxy is read as net/http reads it (the upper-case
// variable first, NO_PROXY honoured, loopback never proxied), and the
// variable it came from is known.
func TestProxySetting(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		env       map[string]string
		target    string
		proxy     string // "" for none
		variable  string
		noProxyIn string
	}{
		{"upper case first", map[string]string{"HTTPS_PROXY": "http://up:3128", "https_proxy": "http://low:3128"}, "https://docs.example.test", "up:3128", "HTTPS_PROXY", "NO_PROXY"},
		{"lower case alone", map[string]string{"https_proxy": "low:3128"}, "https://docs.example.test", "low:3128", "https_proxy", "NO_PROXY"},
		{"http for http", map[string]string{"HTTPS_PROXY": "http://s:1", "http_proxy": "http://p:2"}, "http://docs.example.test", "p:2", "http_proxy", "NO_PROXY"},
		{"no_proxy lists the host's domain", map[string]string{"HTTPS_PROXY": "http://up:3128", "no_proxy": "example.test"}, "https://docs.example.test", "", "HTTPS_PROXY", "no_proxy"},
		{"loopback is never proxied", map[string]string{"HTTPS_PROXY": "http://up:3128"}, "https://127.0.0.1:8443", "", "HTTPS_PROXY", "NO_PROXY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := proxiesFrom(func(k string) string { return tc.env[k] })
			target := mustURL(t, tc.target)
			u, err := p.forURL(target)
			got := ""
			if u != nil {
				got = u.Host
			}
			if err != nil || got != tc.proxy || p.varFor[target.Scheme] != tc.variable || p.noProxy != tc.noProxyIn {
				t.Errorf("proxy %q (%v) from %s, NO_PROXY from %s; want %q from %s, %s", got, err, p.varFor[target.Scheme], p.noProxy, tc.proxy, tc.variable, tc.noProxyIn)
			}
		})
	}
}

// TestCheckProxyVars: a proxy variable in use whose value net/http cannot
// read (it would drop the proxy without a word) is named, with its
// credentials hidden; a variable net/http reads, or one another shadows,
// is not.
func TestCheckProxyVars(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		env   map[string]string
		bad   string // the variable named; "" for none
		shown string // the value as the error shows it
	}{
		{name: "none set", env: map[string]string{}},
		{name: "a plain address", env: map[string]string{"HTTPS_PROXY": "http://proxy:3128", "HTTP_PROXY": "http://proxy:3128"}},
		{name: "host and port only", env: map[string]string{"HTTPS_PROXY": "proxy:3128"}},
		{name: "credentials escaped", env: map[string]string{"https_proxy": "http://u:s3cret%25x@proxy:3128"}},
		{name: "a bad escape in the password", env: map[string]string{"HTTPS_PROXY": "http://u:s3cret%zz@proxy:3128"},
			bad: "HTTPS_PROXY", shown: "http://***@proxy:3128"},
		{name: "a bad escape in the path", env: map[string]string{"HTTP_PROXY": "http://proxy:3128/%zz"},
			bad: "HTTP_PROXY", shown: "http://proxy:3128/%zz"},
		{name: "the lower-case one, when it is the one read", env: map[string]string{"https_proxy": "http://u:s3cret%zz@proxy:3128"},
			bad: "https_proxy", shown: "http://***@proxy:3128"},
		{name: "http_proxy", env: map[string]string{"http_proxy": "http://proxy:3128/%zz"}, bad: "http_proxy", shown: "http://proxy:3128/%zz"},
		{name: "a password holding a slash and an @", env: map[string]string{"HTTPS_PROXY": "http://u:s3/c@ret%zz@proxy:3128"},
			bad: "HTTPS_PROXY", shown: "http://***@proxy:3128"},
		{name: "no scheme, a bad escape in the password", env: map[string]string{"HTTPS_PROXY": "//u:s3cret%zz@proxy:3128"},
			bad: "HTTPS_PROXY", shown: "***@proxy:3128"},
		{name: "a control character", env: map[string]string{"HTTPS_PROXY": "http://proxy:3128\n"}, bad: "HTTPS_PROXY", shown: "http://proxy:3128\n"},
		{name: "a bad lower-case one that the upper-case one shadows", env: map[string]string{"HTTPS_PROXY": "http://proxy:3128", "https_proxy": "http://%zz"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pe := CheckProxyVars(func(k string) string { return tc.env[k] })
			if tc.bad == "" {
				if pe != nil {
					t.Fatalf("CheckProxyVars = %v, want nil", pe)
				}
				return
			}
			if pe == nil || pe.Var != tc.bad || pe.Shown != tc.shown {
				t.Fatalf("CheckProxyVars = %#v, want %s shown as %q", pe, tc.bad, tc.shown)
			}
			msg := pe.Error()
			if strings.Contains(msg, "s3") || !strings.HasPrefix(msg, tc.bad+" (") || !strings.Contains(msg, "or unset it") {
				t.Errorf("message %q: want it to name %s, hide the password and say what to do", msg, tc.bad)
			}
		})
	}
}
