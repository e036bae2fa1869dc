package githubapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/docs-publish/docs-publish/internal/redact"
)

// Client talks to one repository through GitHub's REST API.
type Client struct {
	hc          *http.Client
	base        *url.URL // the API's address, ending in /
	owner, repo string
	userAgent   string
	firstRetry  time.Duration
	secrets     *redact.Redactor // scrubbed from what is written to GitHub
}

// Options are the parts of a Client that tests replace.
type Options struct {
	// HTTPClient sends the requests; nil means one with a minute's timeout.
	HTTPClient *http.Client
	// FirstRetry is the first wait before a retry; zero means 1 s.
	FirstRetry time.Duration
	UserAgent  string
	// Secrets are scrubbed from the comments written: a comment is a sink,
	// which the runner's masking of the log never sees.
	Secrets *redact.Redactor
}

// New is a client for repository ("owner/name") at apiURL (GITHUB_API_URL:
// https://api.github.com, or a GitHub Enterprise Server's /api/v3), with a
// token that is sent to apiURL's host only.
func New(apiURL, token, repository string, opts Options) (*Client, error) {
	owner, repo, ok := strings.Cut(repository, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return nil, fmt.Errorf("repository %q is not owner/name", repository)
	}
	base, err := url.Parse(apiURL)
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("GitHub API address %q is not an http(s) URL", apiURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc = &http.Client{
		Transport:     &authTransport{scheme: base.Scheme, host: base.Host, token: token, next: next},
		Timeout:       hc.Timeout,
		CheckRedirect: checkRedirect(hc.CheckRedirect),
	}
	first := opts.FirstRetry
	if first == 0 {
		first = time.Second
	}
	ua := opts.UserAgent
	if ua == "" {
		ua = "docs-publish"
	}
	return &Client{hc: hc, base: base, owner: owner, repo: repo, userAgent: ua, firstRetry: first, secrets: opts.Secrets}, nil
}

// ErrRedirect is a redirect the client refuses to follow.
var ErrRedirect = errors.New("redirect refused")

// checkRedirect refuses a redirect from https down to http, which would
// send the request (and, to the same host, the token) in clear text, and
// then asks next, if any.
func checkRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return fmt.Errorf("%w: stopped after 10 redirects", ErrRedirect)
		}
		if via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
			return fmt.Errorf("%w: GitHub's API at %s redirected to %s, which is not https: check GITHUB_API_URL", ErrRedirect, via[0].URL.Host, req.URL.Redacted())
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
}

// authTransport adds the token to requests for the API's own scheme and
// host only, so that a redirect elsewhere (a download from object storage)
// or down to http never carries it.
type authTransport struct {
	scheme, host, token string
	next                http.RoundTripper
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.token != "" && req.URL.Scheme == t.scheme && req.URL.Host == t.host {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	return t.next.RoundTrip(req)
}

// APIError is an answer of GitHub's API that is not a success, or no
// answer at all.
type APIError struct {
	Status  int    // the HTTP status; 0 when there was no answer
	Message string // GitHub's message, when it gave one
	Err     error  // the cause when there was no answer
	// API is the API's address when the request got no answer at all
	// (refused, a name not found, no answer in time); "" otherwise.
	API string
}

func (e *APIError) Error() string {
	var ue *url.Error
	switch {
	case e.API != "" && errors.As(e.Err, &ue):
		// The request's method and address are ours, not the user's.
		return fmt.Sprintf("cannot reach GitHub's API at %s: %v", e.API, ue.Err)
	case e.API != "":
		return fmt.Sprintf("cannot reach GitHub's API at %s: %v", e.API, e.Err)
	case e.Status == 0:
		return e.Err.Error()
	case e.Message != "":
		return fmt.Sprintf("GitHub answered %d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
	}
	return fmt.Sprintf("GitHub answered %d %s", e.Status, http.StatusText(e.Status))
}

func (e *APIError) Unwrap() error { return e.Err }

// IsUnreachable says whether err is a request of GitHub's API that got no
// answer at all.
func IsUnreachable(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.API != ""
}

// IsForbidden says whether err is GitHub refusing the token a permission it
// needs. A rate limit is not.
func IsForbidden(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == http.StatusForbidden && !ae.rateLimited()
}

func (e *APIError) rateLimited() bool { return strings.HasPrefix(e.Message, "rate limit") }

// maxAnswer bounds a JSON answer: a page of 100 comments of up to 65,536
// characters each, with room to spare.
const maxAnswer = 16 << 20

// request is one call of the API.
type request struct {
	method string
	path   string     // relative to the API's address, escaped: repos/o/r/...
	query  url.Values // may be nil
	body   any        // sent as JSON when not nil
	accept string     // "" means JSON
	into   io.Writer  // the answer's body, as it is
	max    int64      // the most bytes into may take; over it, errCapped
	// once: the request is sent once, never again, since a request that
	// got no answer or a 5xx may have taken effect (a comment created).
	once bool
}

// do sends r, retrying connection failures and 5xx answers a few times with
// backoff, and gives the answer's headers. Its body is written to r.into.
func (c *Client) do(ctx context.Context, r request) (http.Header, error) {
	rel, err := url.Parse(r.path)
	if err != nil {
		return nil, err
	}
	u := c.base.ResolveReference(rel)
	if r.query != nil {
		u.RawQuery = r.query.Encode()
	}
	var body []byte
	if r.body != nil {
		if body, err = json.Marshal(r.body); err != nil {
			return nil, err
		}
	}
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = c.firstRetry
	retries := uint64(2)
	if r.once {
		retries = 0
	}
	var header http.Header
	err = backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, r.method, u.String(), bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Accept", cmp.Or(r.accept, "application/vnd.github+json"))
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
		req.Header.Set("User-Agent", c.userAgent)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return backoff.Permanent(ctx.Err())
			}
			if errors.Is(err, ErrRedirect) {
				return backoff.Permanent(&APIError{Err: err})
			}
			api := strings.TrimSuffix(c.base.Redacted(), "/")
			var ne net.Error
			if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) {
				return &APIError{Err: err, API: api}
			}
			return backoff.Permanent(&APIError{Err: err, API: api})
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			ae := answerError(resp)
			if resp.StatusCode >= 500 {
				return ae
			}
			return backoff.Permanent(ae)
		}
		header = resp.Header
		if r.into == nil {
			return nil
		}
		max := r.max
		if max == 0 {
			max = maxAnswer
		}
		n, err := io.Copy(r.into, io.LimitReader(resp.Body, max+1))
		switch {
		case err != nil && ctx.Err() != nil:
			return backoff.Permanent(ctx.Err())
		case err != nil:
			return &APIError{Err: fmt.Errorf("the answer was cut short: %w", err)}
		case n > max:
			return backoff.Permanent(errCapped)
		}
		return nil
	}, backoff.WithContext(backoff.WithMaxRetries(b, retries), ctx))
	return header, err
}

// getJSON reads a JSON answer into v.
func (c *Client) getJSON(ctx context.Context, r request, v any) (http.Header, error) {
	var buf bytes.Buffer
	r.into = &buf
	h, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(buf.Bytes(), v); err != nil {
		return nil, &APIError{Status: http.StatusOK, Message: "the answer is not the JSON expected: " + err.Error()}
	}
	return h, nil
}

// answerError reads GitHub's message from a failed answer.
func answerError(resp *http.Response) *APIError {
	ae := &APIError{Status: resp.StatusCode}
	var e struct {
		Message string `json:"message"`
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(data, &e) == nil {
		ae.Message = e.Message
	}
	if (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests) &&
		resp.Header.Get("X-RateLimit-Remaining") == "0" {
		ae.Message = "rate limit exceeded"
		if reset := resp.Header.Get("X-RateLimit-Reset"); reset != "" {
			var sec int64
			if _, err := fmt.Sscan(reset, &sec); err == nil {
				ae.Message += " until " + time.Unix(sec, 0).UTC().Format(time.RFC3339)
			}
		}
	}
	return ae
}

var errCapped = errors.New("the answer is longer than the limit")

// repoPath is the path of an endpoint of the repository: repos/o/r/ + rest,
// with each segment of rest escaped.
func (c *Client) repoPath(rest ...string) string {
	segs := []string{"repos", url.PathEscape(c.owner), url.PathEscape(c.repo)}
	for _, r := range rest {
		for _, s := range strings.Split(r, "/") {
			segs = append(segs, url.PathEscape(s))
		}
	}
	return strings.Join(segs, "/")
}
