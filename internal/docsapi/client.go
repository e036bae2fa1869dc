package docsapi

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// maxJSONBody bounds a JSON answer: the service's answers are small.
const maxJSONBody = 8 << 20

// Options tune a Client. The zero value is usable.
type Options struct {
	// HTTPClient sends the requests; nil means a client with connect, TLS and
	// header timeouts that never forwards the token to another host.
	HTTPClient *http.Client
	// UserAgent names the program in requests.
	UserAgent string
	// RequestTimeout bounds one attempt of a JSON call, body included.
	// Zero means 60 s.
	RequestTimeout time.Duration
	// FirstRetry is the first backoff interval. Zero means 1 s.
	FirstRetry time.Duration
	// Logf, when set, reports each retry with its reason and wait.
	Logf func(format string, args ...any)
	// Debugf, when set, reports each attempt (request, answer, time) and
	// each JSON answer as the service wrote it.
	Debugf func(format string, args ...any)
	// Getenv reads the proxy setting (HTTPS_PROXY, NO_PROXY, ...); nil
	// means os.Getenv.
	Getenv func(string) string
	// Gate is shared by the clients of one service, so that a Retry-After
	// one of them is given holds back the requests of all; nil means a
	// gate of the client's own.
	Gate *Gate
}

// Client talks to one service address with one token.
type Client struct {
	base    *url.URL
	token   string
	opts    Options
	hc      *http.Client
	proxies *proxies // the environment's, to name a proxy that fails
	now     func() time.Time
}

// New returns a client for the service at base, an http(s) address that may
// carry a path prefix (https://host/v1); the caller has checked it.
func New(base *url.URL, token string, opts Options) (*Client, error) {
	if base == nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("docsapi: %v is not an http(s) address", base)
	}
	u := *base
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	if opts.RequestTimeout == 0 {
		opts.RequestTimeout = 60 * time.Second
	}
	if opts.FirstRetry == 0 {
		opts.FirstRetry = time.Second
	}
	if opts.Gate == nil {
		opts.Gate = NewGate()
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p := proxiesFrom(getenv)
	hc := opts.HTTPClient
	if hc == nil {
		hc = newHTTPClient(opts.RequestTimeout, p)
	}
	return &Client{base: &u, token: token, opts: opts, hc: hc, proxies: p, now: time.Now}, nil
}

// How long a connection and its TLS handshake may take.
const (
	connectTimeout = 10 * time.Second
	tlsTimeout     = 10 * time.Second
)

// NewHTTPClient returns the client docs-publish sends requests with: bounded
// connect, TLS and header waits (headers within headerTimeout); redirects
// followed without the token to any other host, and never from https down
// to http.
func NewHTTPClient(headerTimeout time.Duration) *http.Client {
	return newHTTPClient(headerTimeout, proxiesFrom(os.Getenv))
}

// newHTTPClient is NewHTTPClient through the proxies p.
func newHTTPClient(headerTimeout time.Duration, p *proxies) *http.Client {
	dialer := &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                  p.proxy,
			OnProxyConnectResponse: onConnect,
			DialContext:            dialer.DialContext,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    tlsTimeout,
			ResponseHeaderTimeout:  headerTimeout,
			ExpectContinueTimeout:  time.Second,
			MaxIdleConnsPerHost:    4,
			IdleConnTimeout:        90 * time.Second,
		},
		CheckRedirect: checkRedirect,
	}
}

// errRedirect marks a redirect the client will not follow; sending the
// request again would only meet it again.
var errRedirect = errors.New("redirect refused")

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("%w: stopped after 10 redirects", errRedirect)
	}
	if req.URL.Scheme != "https" && req.URL.Scheme != "http" {
		return fmt.Errorf("%w: refused a redirect to %s, which is not http(s)", errRedirect, req.URL.Redacted())
	}
	prev := via[len(via)-1]
	if prev.URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: refused a redirect from https to %s", errRedirect, req.URL.Redacted())
	}
	if req.URL.Host != via[0].URL.Host {
		req.Header.Del("Authorization")
	}
	return nil
}

// request is one call of the interface.
type request struct {
	method     string
	path       string // escaped, below the base path
	query      url.Values
	body       []byte      // JSON, or nil
	stream     *streamBody // JSON read from a file, in place of body
	accept     string
	idempotent bool
	// decode reads a success answer inside the retried operation. nil
	// leaves the body open for the caller (a download).
	decode func(answer) error
}

// answer is a success answer read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
	// shown is the start of the body, for messages. Like every text this
	// package puts in an error, it is as the service wrote it: the sinks
	// that show it scrub the token.
	shown string
}

func (c *Client) url(r *request) *url.URL {
	u := *c.base
	u.RawPath = c.base.EscapedPath() + r.path
	if p, err := url.PathUnescape(u.RawPath); err == nil {
		u.Path = p
	}
	u.RawQuery = r.query.Encode()
	return &u
}

// sent is what the transport told of one attempt.
type sent struct {
	mu sync.Mutex
	// wrote: the request may have reached the service.
	wrote bool
	// tlsStarted, tlsErr: a TLS handshake began on a connection that was
	// made, and how it ended (nil while it has not).
	tlsStarted, tlsEnded bool
	tlsErr               error
}

func (s *sent) trace() *httptrace.ClientTrace {
	// The transport calls these from its own goroutines.
	return &httptrace.ClientTrace{
		WroteRequest:      func(httptrace.WroteRequestInfo) { s.mu.Lock(); s.wrote = true; s.mu.Unlock() },
		TLSHandshakeStart: func() { s.mu.Lock(); s.tlsStarted = true; s.mu.Unlock() },
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			s.mu.Lock()
			s.tlsEnded, s.tlsErr = true, err
			s.mu.Unlock()
		},
	}
}

// requestWritten reports whether the request may have reached the service.
func (s *sent) requestWritten() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wrote
}

// beforeTLS reports whether the attempt ended before a TLS handshake
// began and before the request was written.
func (s *sent) beforeTLS() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.tlsStarted && !s.wrote
}

// tlsTimedOut reports whether the connection was made and its TLS handshake
// then ran out of time: the server accepted the connection and never
// answered TLS.
func (s *sent) tlsTimedOut(err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ne net.Error
	switch {
	case !s.tlsStarted || s.wrote:
		return false
	case s.tlsEnded:
		return errors.As(s.tlsErr, &ne) && ne.Timeout()
	}
	// Cut short by the attempt's own deadline while the handshake waited.
	return errors.As(err, &ne) && ne.Timeout()
}

// attempt sends r once, and tells what the transport saw of it.
func (c *Client) attempt(ctx context.Context, r *request) (*http.Response, *sent, error) {
	var body io.Reader
	switch {
	case r.stream != nil:
		body = r.stream.open()
	case r.body != nil:
		body = bytes.NewReader(r.body)
	}
	s := &sent{}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, s.trace()), r.method, c.url(r).String(), body)
	if err != nil {
		return nil, s, err
	}
	if r.stream != nil {
		// A known length, and the body again from its start for a redirect
		// that repeats the request (307, 308).
		req.ContentLength = r.stream.size()
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(r.stream.open()), nil }
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		// The seed stresses this header for the file update.
		req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	}
	req.Header.Set("Accept", r.accept)
	if c.opts.UserAgent != "" {
		req.Header.Set("User-Agent", c.opts.UserAgent)
	}
	// Accept-Encoding is left to the transport: it asks for gzip and decodes
	// the answer itself.
	start := time.Now()
	resp, err := c.hc.Do(req)
	if c.opts.Debugf != nil {
		answer := "no answer"
		if err == nil {
			answer = resp.Status
		}
		c.opts.Debugf("%s %s: %s in %s", r.method, req.URL.Redacted(), answer, time.Since(start).Round(time.Millisecond))
	}
	return resp, s, err
}

// readAnswer reads a success answer whole, within maxJSONBody.
func (c *Client) readAnswer(resp *http.Response) (answer, error) {
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody+1))
	a := answer{status: resp.StatusCode, header: resp.Header, body: data}
	if err != nil {
		return a, &bodyFault{fmt.Errorf("answer cut short after %d bytes: %w", len(data), err)}
	}
	if len(data) > maxJSONBody {
		return a, fmt.Errorf("answer is larger than %d MiB", maxJSONBody>>20)
	}
	a.shown = shorten(string(data))
	if c.opts.Debugf != nil && len(data) > 0 {
		c.opts.Debugf("answer %d: %s", resp.StatusCode, a.shown)
	}
	return a, nil
}

// bodyFault is a success status whose body was cut short or garbled on the
// way: a passing fault, worth asking again where asking again is safe.
type bodyFault struct{ err error }

func (e *bodyFault) Error() string { return e.err.Error() }
func (e *bodyFault) Unwrap() error { return e.err }

func isHTML(a answer) bool {
	return strings.Contains(strings.ToLower(a.header.Get("Content-Type")), "html")
}

func htmlError(a answer) error {
	return &HTMLError{ContentType: a.header.Get("Content-Type"), Start: shortenTo(a.shown, 120)}
}
