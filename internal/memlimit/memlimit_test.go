package memlimit

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// Not parallel, none of them: the limit is the process's.

// withOuter runs the test under the outer limit outer, and restores the
// test process's afterwards.
func withOuter(t *testing.T, outer int64) {
	t.Helper()
	prev := debug.SetMemoryLimit(outer)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
}

// TestReservationsAddUp: the limit is Floor and what every reservation of
// the moment holds, as they are made, grown and released, and the last
// released restores the limit there was before the first.
func TestReservationsAddUp(t *testing.T) {
	withOuter(t, math.MaxInt64)
	steps := []struct {
		name string
		do   func(a, b **Reservation)
		want int64
	}{
		{"first", func(a, _ **Reservation) { *a = Reserve(100 << 20) }, Floor + 100<<20},
		{"second", func(_, b **Reservation) { *b = Reserve(10 << 20) }, Floor + 110<<20},
		{"first grows", func(a, _ **Reservation) { (*a).Set(200 << 20) }, Floor + 210<<20},
		{"first shrinks", func(a, _ **Reservation) { (*a).Set(50 << 20) }, Floor + 60<<20},
		{"first released", func(a, _ **Reservation) { (*a).Release() }, Floor + 10<<20},
		{"first released again", func(a, _ **Reservation) { (*a).Release() }, Floor + 10<<20},
		{"first set after release", func(a, _ **Reservation) { (*a).Set(500 << 20) }, Floor + 10<<20},
		{"last released", func(_, b **Reservation) { (*b).Release() }, math.MaxInt64},
	}
	var a, b *Reservation
	for _, s := range steps {
		s.do(&a, &b)
		if got := debug.SetMemoryLimit(-1); got != s.want {
			t.Errorf("after %s: limit %d, want %d", s.name, got, s.want)
		}
		if got := Limit(); got != s.want {
			t.Errorf("after %s: Limit() %d, want %d", s.name, got, s.want)
		}
	}
}

// TestLowerOuterLimitWins: a limit set from outside (GOMEMLIMIT) lower
// than the reservations' stays, and is there again after them.
func TestLowerOuterLimitWins(t *testing.T) {
	const outer = 64 << 20
	withOuter(t, outer)
	r := Reserve(10 << 20)
	if got := debug.SetMemoryLimit(-1); got != Floor+10<<20 {
		t.Errorf("under the outer limit: limit %d, want %d", got, Floor+10<<20)
	}
	r.Set(100 << 20)
	if got := debug.SetMemoryLimit(-1); got != outer {
		t.Errorf("over the outer limit: limit %d, want the outer %d", got, outer)
	}
	r.Release()
	if got := debug.SetMemoryLimit(-1); got != outer {
		t.Errorf("released: limit %d, want the outer %d", got, outer)
	}
}

// TestNilReservationHoldsNothing: work given no reservation calls its
// methods freely.
func TestNilReservationHoldsNothing(t *testing.T) {
	withOuter(t, math.MaxInt64)
	var r *Reservation
	r.Set(1 << 30)
	r.Release()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d, want none", got)
	}
}

// TestSmallReservationsSetNoLimit: reservations that hold less than Engage
// together leave the limit there was; once they hold Engage, the limit is
// Floor and what they hold.
func TestSmallReservationsSetNoLimit(t *testing.T) {
	withOuter(t, math.MaxInt64)
	a := Reserve(Engage / 2)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("under Engage: limit %d, want none", got)
	}
	b := Reserve(Engage / 2)
	if got, want := debug.SetMemoryLimit(-1), int64(Floor+Engage); got != want {
		t.Errorf("at Engage: limit %d, want %d", got, want)
	}
	b.Release()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("under Engage again: limit %d, want none", got)
	}
	a.Release()
}

// gcPercent is the collector's target of the moment, read without
// changing it.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// TestCollectorRunsAtTheLimit: while the reservations set a limit, the
// collector's proportional target is off (-1), so that it runs only at the
// limit, and it is back to what it was once they set none; a target under
// the default, or off, set before stays as it was.
func TestCollectorRunsAtTheLimit(t *testing.T) {
	withOuter(t, math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, outer := range []int{100, 400, 50, -1} {
		debug.SetGCPercent(outer)
		whileSet := -1
		if outer >= 0 && outer < 100 {
			whileSet = outer
		}
		a := Reserve(Engage / 2)
		if got := gcPercent(); got != outer {
			t.Errorf("GOGC %d, under Engage: target %d, want %d", outer, got, outer)
		}
		b := Reserve(Engage / 2)
		if got := gcPercent(); got != whileSet {
			t.Errorf("GOGC %d, limit set: target %d, want %d", outer, got, whileSet)
		}
		a.Set(0)
		if got := gcPercent(); got != outer {
			t.Errorf("GOGC %d, under Engage again: target %d, want %d", outer, got, outer)
		}
		a.Set(Engage)
		if got := gcPercent(); got != whileSet {
			t.Errorf("GOGC %d, limit set again: target %d, want %d", outer, got, whileSet)
		}
		b.Release()
		if got := gcPercent(); got != whileSet {
			t.Errorf("GOGC %d, one released, the limit still set: target %d, want %d", outer, got, whileSet)
		}
		a.Release() // the last, while the limit is set
		if got := gcPercent(); got != outer {
			t.Errorf("GOGC %d, all released: target %d, want %d", outer, got, outer)
		}
	}
}
