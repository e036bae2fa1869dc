package docsapi

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
)

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

// parseRetryAfter reads a Retry-After header in either form: delay-seconds or
// an HTTP-date. It returns 0 when there is none or it is unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

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
// even though no answer came back, so it was not sent again.
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
