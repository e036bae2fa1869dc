package testenv

import (
	"fmt"
	"testing"
)

// skipRecorder is a test whose skip is recorded rather than taken, so
// that this test leaves no skipped test behind (CI fails on one).
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Skip(args ...any)                 { r.skipped = fmt.Sprint(args...) }
func (r *skipRecorder) Skipf(format string, args ...any) { r.skipped = fmt.Sprintf(format, args...) }

// TestOptIns: each mark lets its test run only when its variable is 1
// (and Long never under -short), and a skip says how to turn it on.
func TestOptIns(t *testing.T) {
	marks := []struct {
		name     string
		variable string
		mark     func(testing.TB)
	}{
		{"Long", LongVar, Long},
		{"Network", NetworkVar, Network},
		{"Sweep", SweepsVar, Sweep},
	}
	for _, m := range marks {
		for _, value := range []string{"", "0", "true", "1"} {
			t.Run(m.name+"/"+m.variable+"="+value, func(t *testing.T) {
				t.Setenv(m.variable, value)
				r := &skipRecorder{TB: t}
				m.mark(r)
				ran := r.skipped == ""
				want := value == "1" && !(m.name == "Long" && testing.Short())
				if ran != want {
					t.Errorf("%s=%q: the marked test ran: %v, want %v (skip: %q)", m.variable, value, ran, want, r.skipped)
				}
			})
		}
	}
}
