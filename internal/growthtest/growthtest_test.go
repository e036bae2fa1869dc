package growthtest

import (
	"fmt"
	"testing"
)

// recorder is a test whose failures are recorded rather than reported.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Errorf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// TestLinearCount: work that grows with n passes, work that grows with n²
// fails, whatever the constant factor.
func TestLinearCount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		work func(n int) uint64
		pass bool
	}{
		{"linear", func(n int) uint64 { return uint64(3 * n) }, true},
		{"linear with a fixed cost", func(n int) uint64 { return uint64(n + 5000) }, true},
		{"n log n", func(n int) uint64 {
			var w uint64
			for k := n; k > 0; k /= 2 {
				w += uint64(n)
			}
			return w
		}, true},
		{"quadratic", func(n int) uint64 { return uint64(n * n / 2) }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &recorder{TB: t}
			LinearCount(r, tc.name, "steps", 1000, tc.work)
			if (r.failed == "") != tc.pass {
				t.Errorf("passed: %v, want %v (%s)", r.failed == "", tc.pass, r.failed)
			}
		})
	}
}
