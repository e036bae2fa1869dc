package docsapi

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestGateClosedPastTheDeadline: a gate closed past the run's deadline
// fails the wait at once, saying until when the service asked to wait;
// closed within it, the wait waits.
func TestGateClosedPastTheDeadline(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		closed    time.Duration
		throttled bool
	}{
		{"past the deadline", time.Hour, true},
		{"within it", 20 * time.Millisecond, false},
		{"open", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := NewGate()
			until := time.Now().Add(tc.closed)
			g.closeUntil(until)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := g.wait(ctx, time.Now)
			var te *ThrottledError
			if got := errors.As(err, &te); got != tc.throttled || tc.throttled && !te.Until.Equal(until) || !tc.throttled && err != nil {
				t.Errorf("wait: %v, want a ThrottledError: %v", err, tc.throttled)
			}
		})
	}
}
