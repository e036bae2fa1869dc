package docsapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpproxy"
)

// proxies is the proxy setting of the environment, as net/http reads it
// (HTTPS_PROXY, HTTP_PROXY and NO_PROXY, each in upper or lower case, the
// upper one first), with the variable each proxy came from, so that a
// failure of the proxy can name it.
type proxies struct {
	forURL  func(*url.URL) (*url.URL, error)
	varFor  map[string]string // by the request's scheme: "https" → "https_proxy"
	noProxy string            // the variable NO_PROXY came from, or "NO_PROXY"
}

// proxyVars are the variables that name the proxies, as net/http reads
// them: each name in upper case first, then in lower case.
var proxyVars = map[string][2]string{
	"https": {"HTTPS_PROXY", "https_proxy"},
	"http":  {"HTTP_PROXY", "http_proxy"},
	"no":    {"NO_PROXY", "no_proxy"},
}

// proxyVar is the value of the variable that sets key ("https", "http",
// "no") in getenv, and its name (the upper-case one when none is set).
func proxyVar(getenv func(string) string, key string) (value, name string) {
	names := proxyVars[key]
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v, n
		}
	}
	return "", names[0]
}

// proxiesFrom reads the proxy setting from getenv.
func proxiesFrom(getenv func(string) string) *proxies {
	https, httpsVar := proxyVar(getenv, "https")
	plain, plainVar := proxyVar(getenv, "http")
	no, noVar := proxyVar(getenv, "no")
	cfg := &httpproxy.Config{HTTPSProxy: https, HTTPProxy: plain, NoProxy: no, CGI: getenv("REQUEST_METHOD") != ""}
	return &proxies{forURL: cfg.ProxyFunc(), varFor: map[string]string{"https": httpsVar, "http": plainVar}, noProxy: noVar}
}

// ProxyVarError is a proxy variable whose value net/http cannot read: it
// would drop the proxy without a word, and requests would go direct.
type ProxyVarError struct {
	Var   string // HTTPS_PROXY, http_proxy, ...
	Shown string // its value, credentials hidden
}

func (e *ProxyVarError) Error() string {
	return fmt.Sprintf("%s (%s) is not a proxy address that can be read, so requests would go direct, past the proxy: write it as http://host:port or http://user:password@host:port, with a %% in the password written %%25, or unset it", e.Var, e.Shown)
}

// CheckProxyVars finds a proxy variable in use (the one of HTTPS_PROXY and
// https_proxy that net/http reads, and of HTTP_PROXY and http_proxy) whose
// value net/http would ignore, or returns nil. net/http's own reading
// decides: a value that gives no proxy for a request to a host outside
// NO_PROXY is one it could not read.
func CheckProxyVars(getenv func(string) string) *ProxyVarError {
	for _, scheme := range []string{"https", "http"} {
		v, name := proxyVar(getenv, scheme)
		if v == "" {
			continue
		}
		cfg := &httpproxy.Config{HTTPSProxy: v, HTTPProxy: v}
		if u, err := cfg.ProxyFunc()(&url.URL{Scheme: scheme, Host: "docs-publish.invalid"}); u == nil && err == nil {
			return &ProxyVarError{Var: name, Shown: hideUserinfo(v)}
		}
	}
	return nil
}

// hideUserinfo is a proxy address with whatever stands before its last @
// (user and password) replaced by ***, for a value that does not parse as
// a URL: where its authority ends cannot be told, so a path holding an @
// is hidden too rather than a password holding a slash shown.
func hideUserinfo(v string) string {
	rest, scheme := v, ""
	if i := strings.Index(v, "://"); i > 0 && isScheme(v[:i]) {
		scheme, rest = v[:i+3], v[i+3:]
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		rest = "***" + rest[at:]
	}
	return scheme + rest
}

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, +, - and dots.
func isScheme(s string) bool {
	for i, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// proxy is Transport.Proxy.
func (p *proxies) proxy(req *http.Request) (*url.URL, error) { return p.forURL(req.URL) }

// connectRefused is a proxy's answer other than 200 to CONNECT, taken from
// the transport (which would otherwise give only the status text).
type connectRefused struct{ status int }

func (e *connectRefused) Error() string {
	return fmt.Sprintf("the proxy answered CONNECT with %d %s", e.status, http.StatusText(e.status))
}

// onConnect is Transport.OnProxyConnectResponse.
func onConnect(_ context.Context, _ *url.URL, _ *http.Request, resp *http.Response) error {
	if resp.StatusCode != http.StatusOK {
		return &connectRefused{status: resp.StatusCode}
	}
	return nil
}

// ProxyError says the proxy that requests to the service go through failed
// a request: it could not be reached, or it refused to connect to the
// service (407: it wants credentials; 403: it does not allow the host).
// Waiting does not help a refusal, so it is not retried; an unreachable
// proxy is tried a few times over a few seconds, as an unreachable service
// is.
type ProxyError struct {
	Proxy    string      // scheme://host:port, without credentials
	Var      string      // the environment variable it came from
	NoProxy  string      // the variable that lists hosts reached without a proxy
	Target   string      // the host the request was for
	Status   int         // the proxy's answer to CONNECT; 0 when it was not reached
	Kind     Unreachable // why it was not reached, when Status is 0
	Attempts int
	Err      error
}

func (e *ProxyError) Error() string {
	via := fmt.Sprintf("the proxy %s (from %s)", e.Proxy, e.Var)
	switch {
	case e.Status == http.StatusProxyAuthRequired:
		return fmt.Sprintf("%s asks for credentials (407 Proxy Authentication Required) to connect to %s: put them in the proxy's address in %s (http://user:password@host:port, from a secret), or, if the service is inside the network, add %s to %s",
			via, e.Target, e.Var, hostOnly(e.Target), e.NoProxy)
	case e.Status == http.StatusForbidden:
		return fmt.Sprintf("%s refused to connect to %s (403 Forbidden): ask the proxy's administrators to allow %s, or, if the service is inside the network, add it to %s",
			via, e.Target, hostOnly(e.Target), e.NoProxy)
	case e.Status != 0:
		return fmt.Sprintf("%s did not connect to %s (%s): it answered CONNECT with %d %s: check that the service is up and reachable from the proxy, or, if the service is inside the network, add %s to %s",
			via, e.Target, attempts(e.Attempts), e.Status, http.StatusText(e.Status), hostOnly(e.Target), e.NoProxy)
	}
	return fmt.Sprintf("cannot reach %s, which requests to %s go through: %s (%s): check the proxy's host and port in %s and that it is up; if the service needs no proxy, add %s to %s",
		via, e.Target, e.Kind, attempts(e.Attempts), e.Var, hostOnly(e.Target), e.NoProxy)
}

func (e *ProxyError) Unwrap() error { return e.Err }

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// hostOnly is host of host:port.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// proxyFault says whether err is the proxy's failure for a request to
// target, and which: a refusal of CONNECT (its status), or a proxy that
// could not be reached (its Unreachable kind). It returns nil for a fault
// that is not the proxy's.
func (c *Client) proxyFault(err error, target *url.URL, s *sent) *ProxyError {
	proxy, perr := c.proxies.forURL(target)
	if perr != nil || proxy == nil {
		return nil
	}
	var refused *connectRefused
	var op *net.OpError
	var ne net.Error
	status, kind := 0, Unreachable(0)
	switch {
	case errors.As(err, &refused):
		status = refused.status
	case errors.As(err, &op) && op.Op == "proxyconnect":
		// net/http marks a failure to reach the proxy so.
		if kind = unreachable(op.Err, &sent{}); kind == 0 {
			kind = ConnectFailed
		}
	case errors.As(err, &ne) && ne.Timeout() && s.beforeTLS():
		// Connected to the proxy (a failure to is marked above), and
		// out of time before the TLS handshake with the service began:
		// the proxy held the CONNECT.
		kind = ProxyNoAnswer
	default:
		return nil
	}
	return &ProxyError{
		Proxy: proxy.Scheme + "://" + proxy.Host, // never its credentials
		Var:   c.proxies.varFor[target.Scheme], NoProxy: c.proxies.noProxy,
		Target: target.Host, Status: status, Kind: kind, Err: err,
	}
}
