package testenv

import "testing"

// TestOptIns: each mark lets its test run only when its variable is 1
// (and Long never under -short).
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
				ran := false
				t.Run("marked", func(t *testing.T) {
					m.mark(t)
					ran = true
				})
				want := value == "1" && !(m.name == "Long" && testing.Short())
				if ran != want {
					t.Errorf("%s=%q: the marked test ran: %v, want %v", m.variable, value, ran, want)
				}
			})
		}
	}
}
