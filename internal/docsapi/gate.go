package docsapi

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Gate holds back every request to one service while it has asked to be
// left alone: an answer of 429 or 503 with Retry-After closes the gate
// until the time it asks for, and every client that shares the gate waits
// for it before its next attempt. Runs that publish several descriptions at
// once share one, so that one throttled request slows them all rather than
// each worker learning of the throttle on its own. The zero value is open.
type Gate struct {
	mu    sync.Mutex
	until time.Time
}

// NewGate returns an open gate.
func NewGate() *Gate { return &Gate{} }

// closeUntil keeps the gate closed until t, unless it is closed longer.
func (g *Gate) closeUntil(t time.Time) {
	g.mu.Lock()
	if t.After(g.until) {
		g.until = t
	}
	g.mu.Unlock()
}

// ThrottledError is a request not sent because the service asked, with
// Retry-After, to be left alone past the time the run has left.
type ThrottledError struct {
	Until time.Time // when the service asked to be sent requests again
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("the service asked (Retry-After) to be sent no request before %s, after this run's time ends: re-run the job later, or raise timeout", e.Until.UTC().Format(time.RFC3339))
}

// wait waits until the gate opens, or ctx ends: at once with a
// *ThrottledError when the gate opens after ctx's deadline. now is the
// client's clock.
func (g *Gate) wait(ctx context.Context, now func() time.Time) error {
	for {
		g.mu.Lock()
		until := g.until
		g.mu.Unlock()
		left := until.Sub(now())
		if left <= 0 {
			return nil
		}
		if d, ok := ctx.Deadline(); ok && until.After(d) {
			return &ThrottledError{Until: until}
		}
		t := time.NewTimer(left)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
			// The gate may have been closed further meanwhile: look again.
		}
	}
}
