package docsapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Retry policy. One loop (call) retries every kind of passing fault: a
// connection that failed, a status that says "try again", and a success
// answer whose body was cut short or garbled. Each wait follows the same
// exponential backoff, at least as long as a Retry-After asks, and never past
// the context's deadline.
const (
	// maxBodyFaults bounds retries of garbled success answers: a proxy that
	// garbles every answer will not stop doing so.
	maxBodyFaults = 3
	// unreachableAttempts and unreachableWindow bound retries when the host
	// cannot be reached at all (refused, unknown name, a connection or TLS
	// handshake that failed or was not answered): a few attempts over a few
	// seconds ride out a restart; longer rarely helps.
	unreachableAttempts = 4
	unreachableWindow   = 8 * time.Second
	// maxUnanswered bounds retries of requests that were sent and then
	// waited out the request timeout without an answer: something at the
	// address takes connections and holds them, or the service hangs.
	maxUnanswered = 3
)

// newBackOff is the retry schedule: exponential from first, with jitter.
func newBackOff(first time.Duration) *backoff.ExponentialBackOff {
	return backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(first),
		backoff.WithMaxInterval(30*time.Second),
		backoff.WithMaxElapsedTime(0), // the context's deadline bounds the whole
	)
}

// call performs r, retrying as the policy allows. With r.decode set, each
// success answer is read and decoded inside the retried operation and the
// response is nil; without, the response comes back open for the caller to
// read and close (with cancel, which ends its context).
func (c *Client) call(ctx context.Context, r *request, timeout time.Duration) (*http.Response, context.CancelFunc, error) {
	ra := &retryAfterBackOff{BackOff: newBackOff(c.opts.FirstRetry)}
	deadline, _ := ctx.Deadline()
	b := backoff.WithContext(capToDeadline{BackOff: ra, deadline: deadline, now: c.now}, ctx)

	var (
		kept       *http.Response
		keptCancel context.CancelFunc
		bodyFaults int
		reach      reachability
		unanswered int
	)
	op := func() error {
		if err := c.opts.Gate.wait(ctx, c.now); err != nil {
			return backoff.Permanent(err)
		}
		actx, acancel := ctx, context.CancelFunc(func() {})
		if timeout > 0 {
			actx, acancel = context.WithTimeout(ctx, timeout)
		}
		began := c.now()
		resp, sent, err := c.attempt(actx, r)
		if err != nil {
			acancel()
			return c.transportFault(ctx, r, sent, err, &reach, &unanswered, began)
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
			resp.Body.Close()
			acancel()
			apiErr := newAPIError(resp.StatusCode, resp.Header, body)
			if !unprocessedStatus(resp.StatusCode) && !(r.idempotent && retryableStatus(resp.StatusCode)) {
				return backoff.Permanent(apiErr)
			}
			until := parseRetryAfter(apiErr.RetryAfter, c.now())
			if until.IsZero() {
				return apiErr
			}
			if d, ok := ctx.Deadline(); ok && until.After(d) {
				// Waiting would only end in a timeout: say so at once.
				return backoff.Permanent(fmt.Errorf("%w: %w", apiErr, &ThrottledError{Until: until}))
			}
			ra.setServerDelay(until.Sub(c.now()))
			// Every request to this service waits as long, not only this
			// one's retry.
			c.opts.Gate.closeUntil(until)
			return apiErr
		}
		if r.decode == nil {
			kept, keptCancel = resp, acancel
			return nil
		}
		a, err := c.readAnswer(resp)
		resp.Body.Close()
		acancel()
		if err == nil {
			err = r.decode(a)
		}
		var bf *bodyFault
		switch {
		case err == nil:
			return nil
		case !r.idempotent:
			// The service answered a release with a success: whatever
			// went wrong after that, a build may exist.
			if ctx.Err() != nil {
				err = fmt.Errorf("%w: %w", ctx.Err(), err)
			}
			return backoff.Permanent(asUncertain(err))
		case ctx.Err() != nil:
			return backoff.Permanent(ctx.Err())
		case !errors.As(err, &bf):
			return backoff.Permanent(err)
		}
		if bodyFaults++; bodyFaults >= maxBodyFaults {
			return backoff.Permanent(err)
		}
		return err
	}
	var last error
	notify := func(err error, wait time.Duration) {
		last = err
		if c.opts.Logf != nil {
			c.opts.Logf("%s %s: %v; retrying in %s", r.method, r.path, err, wait.Round(10*time.Millisecond))
		}
	}
	if err := backoff.RetryNotify(op, b, notify); err != nil {
		if last != nil && ctx.Err() != nil && err == ctx.Err() {
			// Time ran out between attempts: say what kept failing.
			err = fmt.Errorf("%w; the last attempt: %w", err, last)
		}
		return nil, nil, err
	}
	return kept, keptCancel, nil
}

// transportFault judges a request that got no answer; the attempt began at
// began. reach and unanswered count the call's attempts of either kind.
func (c *Client) transportFault(ctx context.Context, r *request, s *sent, err error, reach *reachability, unanswered *int, began time.Time) error {
	if !r.idempotent && s.requestWritten() {
		// The request may have reached the service: never send it again,
		// and say so, even when the run's time ran out meanwhile.
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", ctx.Err(), err)
		}
		return backoff.Permanent(&UncertainError{Err: err})
	}
	if ctx.Err() != nil {
		return backoff.Permanent(ctx.Err())
	}
	if errors.Is(err, errRedirect) {
		return backoff.Permanent(err)
	}
	if pe := c.proxyFault(err, targetOf(err, c.base), s); pe != nil {
		// A proxy that wants credentials, or forbids the host, will not
		// change its mind: say so at once. One that cannot be reached, or
		// fails otherwise, is tried as an unreachable service is.
		refusal := pe.Status == http.StatusProxyAuthRequired || pe.Status == http.StatusForbidden
		if refusal || reach.fail(began, c.now()) {
			pe.Attempts = max(reach.attempts, 1)
			return backoff.Permanent(pe)
		}
		return err
	}
	if kind := unreachable(err, s); kind != 0 {
		if reach.fail(began, c.now()) {
			return backoff.Permanent(&UnreachableError{URL: hostOf(err, c.base), Kind: kind, Attempts: reach.attempts, Err: err})
		}
	}
	if waitedOut(err, s) {
		if *unanswered++; *unanswered >= maxUnanswered {
			return backoff.Permanent(&NoAnswerError{URL: hostOf(err, c.base), Attempts: *unanswered, Wait: c.opts.RequestTimeout, Err: err})
		}
	}
	return err // nothing was sent, or sending again is harmless
}

// asUncertain wraps err as an *UncertainError unless it is one.
func asUncertain(err error) error {
	if IsUncertain(err) {
		return err
	}
	return &UncertainError{Err: err}
}

// reachability counts attempts that could not reach the host at all.
type reachability struct {
	attempts int
	first    time.Time // when the first of them began
}

// fail records one more such attempt, which began at began and failed at
// now, and reports whether to give up: after unreachableAttempts, or when
// another attempt as long as this one would end past unreachableWindow
// from the first. So attempts that fail at once (refused, unknown host) are
// tried four times over a few seconds, and attempts that wait out a timeout
// (a connection or TLS handshake not answered) are not tried for 4 × that
// timeout.
func (r *reachability) fail(began, now time.Time) bool {
	if r.attempts == 0 {
		r.first = began
	}
	r.attempts++
	took := now.Sub(began)
	return r.attempts >= unreachableAttempts || now.Sub(r.first)+took >= unreachableWindow
}

// unreachable says why a host could not be reached at all, or returns 0 for
// faults that happen on a connection that worked.
func unreachable(err error, s *sent) Unreachable {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var hostErr x509.HostnameError
	var authErr x509.UnknownAuthorityError
	var invalidErr x509.CertificateInvalidError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	switch {
	case errors.Is(err, http.ErrSchemeMismatch):
		return PlainHTTP
	case errors.Is(err, syscall.ECONNREFUSED):
		return Refused
	case errors.As(err, &dnsErr):
		return UnknownHost
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return NoRoute
	case errors.As(err, &certErr), errors.As(err, &hostErr), errors.As(err, &authErr), errors.As(err, &invalidErr):
		return UntrustedCertificate
	case errors.As(err, &recErr), errors.As(err, &alert):
		return TLSFailed
	case s.tlsTimedOut(err):
		return TLSTimeout
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		switch {
		case opErr.Op == "dial" && opErr.Timeout():
			return ConnectTimeout
		case opErr.Op == "dial":
			return ConnectFailed
		case opErr.Op == "remote error": // a TLS alert from the server, over TCP
			return TLSFailed
		}
	}
	return 0
}

// waitedOut reports whether a request was sent and then ran out of time
// waiting for its answer.
func waitedOut(err error, s *sent) bool {
	var ne net.Error
	return s.requestWritten() && errors.As(err, &ne) && ne.Timeout()
}

// hostOf names the host a failed request was sent to: the API's, or the one
// a redirect led to.
func hostOf(err error, base *url.URL) string {
	u := targetOf(err, base)
	return u.Scheme + "://" + u.Host
}

// targetOf is the address a failed request was sent to: the API's, or the
// one a redirect led to.
func targetOf(err error, base *url.URL) *url.URL {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			return u
		}
	}
	return base
}

// retryableStatus are answers after which the same idempotent request may
// succeed: the request timed out, was throttled, or met a passing fault.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusTooManyRequests,
		http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// unprocessedStatus are answers that say the request was turned away before
// it was acted on, so even a non-idempotent request may be sent again.
func unprocessedStatus(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// parseRetryAfter reads a Retry-After header in either form, delay-seconds
// or an HTTP date, as the time the service asks to be left alone until;
// the zero time for none, a date past, or one not read. A delay of more
// than maxRetryAfter (which a Duration could not hold past 292 years) is
// read as that.
func parseRetryAfter(v string, now time.Time) time.Time {
	if v == "" {
		return time.Time{}
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(v, "-") {
		if s <= 0 {
			return time.Time{}
		}
		return now.Add(time.Duration(min(s, int64(maxRetryAfter/time.Second))) * time.Second)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t
	}
	return time.Time{}
}

// maxRetryAfter is the longest delay-seconds read: a hundred years.
const maxRetryAfter = 100 * 365 * 24 * time.Hour

// retryAfterBackOff waits at least as long as the server asked. backoff/v4
// knows nothing of Retry-After, so the attempt records the server's delay
// and NextBackOff returns the larger of it and the normal interval.
type retryAfterBackOff struct {
	backoff.BackOff
	mu     sync.Mutex
	server time.Duration
}

func (b *retryAfterBackOff) setServerDelay(d time.Duration) {
	b.mu.Lock()
	b.server = d
	b.mu.Unlock()
}

func (b *retryAfterBackOff) NextBackOff() time.Duration {
	next := b.BackOff.NextBackOff()
	if next == backoff.Stop {
		return next
	}
	b.mu.Lock()
	server := b.server
	b.server = 0
	b.mu.Unlock()
	return max(next, server)
}

// capToDeadline keeps a wait inside the time left: waiting past the deadline
// would only end in a timeout.
type capToDeadline struct {
	backoff.BackOff
	deadline time.Time
	now      func() time.Time
}

func (b capToDeadline) NextBackOff() time.Duration {
	next := b.BackOff.NextBackOff()
	if next == backoff.Stop || b.deadline.IsZero() {
		return next
	}
	left := b.deadline.Sub(b.now())
	if left <= 0 {
		return backoff.Stop
	}
	return min(next, left)
}

// UncertainError says a non-idempotent request may have reached the service
// even though no usable answer came back, so it was not sent again.
type UncertainError struct {
	Err error
}

func (e *UncertainError) Error() string {
	return "the answer was lost or unreadable after the request was sent: " + e.Err.Error()
}

func (e *UncertainError) Unwrap() error { return e.Err }

// IsUncertain reports whether err says a request may have been processed.
func IsUncertain(err error) bool {
	var ue *UncertainError
	return errors.As(err, &ue)
}
