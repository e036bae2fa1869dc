package docsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v4"
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
	// Debugf, when set, reports each attempt: request, answer, time.
	Debugf func(format string, args ...any)
}

// Client talks to one service address with one token.
type Client struct {
	base  *url.URL
	token string
	opts  Options
	hc    *http.Client
	now   func() time.Time
}

// New returns a client for the service at apiURL, which may carry a path
// prefix (https://host/v1).
func New(apiURL, token string, opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(apiURL, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("api-url %q is not an http(s) address such as https://api.example.com/v1", apiURL)
	}
	if opts.RequestTimeout == 0 {
		opts.RequestTimeout = 60 * time.Second
	}
	if opts.FirstRetry == 0 {
		opts.FirstRetry = time.Second
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = NewHTTPClient(opts.RequestTimeout)
	}
	return &Client{base: u, token: token, opts: opts, hc: hc, now: time.Now}, nil
}

// NewHTTPClient returns the client docs-publish sends requests with: bounded
// connect, TLS and header waits (headers within headerTimeout); redirects
// followed without the token to any other host, and never from https down
// to http.
func NewHTTPClient(headerTimeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           dialer.DialContext,
			ForceAttemptHTTP2:     true,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: headerTimeout,
			ExpectContinueTimeout: time.Second,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       90 * time.Second,
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
	body       []byte // JSON, or nil
	accept     string
	idempotent bool
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

// send performs r with retries and returns a 2xx response whose body the
// caller must close. A non-2xx answer is an *APIError.
func (c *Client) send(ctx context.Context, r *request, timeout time.Duration) (*http.Response, context.CancelFunc, error) {
	expo := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(c.opts.FirstRetry),
		backoff.WithMaxInterval(30*time.Second),
		backoff.WithMaxElapsedTime(0), // the context's deadline bounds the whole
	)
	ra := &retryAfterBackOff{BackOff: expo}
	deadline, _ := ctx.Deadline()
	b := backoff.WithContext(capToDeadline{BackOff: ra, deadline: deadline, now: c.now}, ctx)

	var cancel context.CancelFunc
	op := func() (*http.Response, error) {
		actx, acancel := ctx, context.CancelFunc(func() {})
		if timeout > 0 {
			actx, acancel = context.WithTimeout(ctx, timeout)
		}
		resp, wrote, err := c.attempt(actx, r)
		if err != nil {
			acancel()
			if ctx.Err() != nil {
				return nil, backoff.Permanent(ctx.Err())
			}
			if errors.Is(err, errRedirect) {
				return nil, backoff.Permanent(c.scrubErr(err))
			}
			err = c.scrubErr(err)
			if r.idempotent || !wrote {
				return nil, err
			}
			return nil, backoff.Permanent(&UncertainError{Err: err})
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			cancel = acancel
			return resp, nil
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		acancel()
		apiErr := newAPIError(resp.StatusCode, resp.Header, body, c.token)
		retry := unprocessedStatus(resp.StatusCode) || (r.idempotent && retryableStatus(resp.StatusCode))
		if !retry {
			return nil, backoff.Permanent(apiErr)
		}
		ra.setServerDelay(parseRetryAfter(apiErr.RetryAfter, c.now()))
		return nil, apiErr
	}
	notify := func(err error, wait time.Duration) {
		if c.opts.Logf != nil {
			c.opts.Logf("%s %s: %v; retrying in %s", r.method, r.path, err, wait.Round(10*time.Millisecond))
		}
	}
	resp, err := backoff.RetryNotifyWithData(op, b, notify)
	if err != nil {
		return nil, nil, err
	}
	return resp, cancel, nil
}

// attempt sends r once. wrote reports whether the request may have reached
// the service: false only when the failure came before it was written.
func (c *Client) attempt(ctx context.Context, r *request) (*http.Response, bool, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	var wrote atomic.Bool // set from the transport's writer goroutine
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), r.method, c.url(r).String(), body)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if r.body != nil {
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
	return resp, wrote.Load(), err
}

// scrubErr keeps the token out of transport errors (a URL echoed back).
func (c *Client) scrubErr(err error) error {
	if c.token == "" || !strings.Contains(err.Error(), c.token) {
		return err
	}
	return errors.New(scrub(err.Error(), c.token))
}

// callJSON performs r and decodes a JSON answer into out (nil: the answer
// is checked, then dropped). An answer cut short or not valid JSON is a
// passing fault of the network or a proxy: an idempotent call is sent again,
// a release is reported as uncertain. An HTML page is no passing fault: the
// request did not reach the API.
func (c *Client) callJSON(ctx context.Context, r *request, out any) error {
	for tries := 0; ; tries++ {
		resp, cancel, err := c.send(ctx, r, c.opts.RequestTimeout)
		if err != nil {
			return err
		}
		ctype := resp.Header.Get("Content-Type")
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody+1))
		resp.Body.Close()
		cancel()
		switch {
		case err != nil:
			err = fmt.Errorf("answer cut short: %w", c.scrubErr(err))
		case len(data) > maxJSONBody:
			return fmt.Errorf("answer is larger than %d MiB", maxJSONBody>>20)
		case strings.Contains(strings.ToLower(ctype), "html"):
			return fmt.Errorf("service answered with %s, not JSON: check that api-url is the service's API address (not its web application) and that no proxy answers in its place; the answer starts: %s",
				ctype, shorten(scrub(string(data[:min(len(data), 120)]), c.token)))
		default:
			err = decodeJSON(data, out)
			if err == nil {
				return nil
			}
			err = fmt.Errorf("%w: %s", err, shorten(scrub(string(data), c.token)))
		}
		if !r.idempotent {
			return &UncertainError{Err: err}
		}
		if tries >= 2 || ctx.Err() != nil {
			return err
		}
		if c.opts.Logf != nil {
			c.opts.Logf("%s %s: %v; retrying", r.method, r.path, err)
		}
	}
}

func decodeJSON(data []byte, out any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		if out != nil {
			return errors.New("service answered with an empty body where JSON was expected")
		}
		return nil
	}
	if out == nil {
		if !json.Valid(data) {
			return errors.New("service answered with a body that is not JSON")
		}
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("service answered with a body that is not the expected JSON (%v)", err)
	}
	return nil
}

func segment(s string) string { return url.PathEscape(s) }
