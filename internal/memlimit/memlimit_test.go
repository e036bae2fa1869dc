package memlimit

import (
	"math"
	"runtime"
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

// TestCapFollowsWhatIsHeld: a cap holds the limit at what the process
// held when it was set and its room, under the reservations' limit; of two
// caps the larger counts; a cap goes with its reservation; a cap of less
// room than Engage is none.
func TestCapFollowsWhatIsHeld(t *testing.T) {
	withOuter(t, math.MaxInt64)
	a := Reserve(1 << 30)
	a.CapLive(Engage - 1)
	if got := Limit(); got != Floor+1<<30 {
		t.Errorf("a cap of less room than Engage: limit %d, want the reservation's %d", got, Floor+1<<30)
	}
	a.CapLive(Engage)
	after := Held()
	if got := Limit(); got > after+Engage+1<<20 || got < after+Engage-1<<20 {
		t.Errorf("capped: limit %d, want what was held (%d) and Engage", got, after)
	}
	first := Limit()
	b := Reserve(0)
	b.CapLive(1 << 30)
	if got := Limit(); got > Held()+1<<30+1<<20 || got < Held()+1<<30-1<<20 {
		t.Errorf("a larger cap: limit %d, want what was held and 1 GB", got)
	}
	b.Release()
	if got := Limit(); got != first {
		t.Errorf("the larger cap released: limit %d, want the first cap's, %d", got, first)
	}
	a.Release()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("all released: limit %d, want none", got)
	}
	var none *Reservation
	none.CapLive(Engage) // holds nothing
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("a nil reservation capped: limit %d, want none", got)
	}
}

// TestCapLiveCountsNoGarbage: what the work before a cap let go of is not
// counted as held, whether or not the collector has collected it yet.
// Counted, it gave the capped work the headroom the cap is there to take
// away.
func TestCapLiveCountsNoGarbage(t *testing.T) {
	withOuter(t, math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // the garbage stays until collected
	for _, tc := range []struct {
		name    string
		collect bool // the garbage collected before the cap
	}{
		{"not collected", false},
		{"collected", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			base := Held()
			const dropped = 64 << 20
			for range dropped / (1 << 20) {
				garbage = make([]byte, 1<<20)
			}
			garbage = nil
			if tc.collect {
				runtime.GC()
			}
			if got := inUse(); got < base+dropped/2 {
				t.Fatalf("the garbage is not in use: %d, want at least %d", got, base+dropped/2)
			}
			a := Reserve(0)
			defer a.Release()
			a.CapLive(Engage)
			if got := Limit(); got > base+dropped/4 {
				t.Errorf("capped over 64 MB of garbage: limit %d, want what was held before it and Engage, at most %d", got, base+dropped/4)
			}
		})
	}
}

// inUse is the process's memory as the limit counts it, free pages with
// it (the runtime's own count, not Held, which leaves them out).
func inUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// TestCapMakesRoomForOthers: what other reservations reserve after a cap
// is set raises the cap as much, so that two comparisons at once, or a
// description read beside one, are not held to room for one: the
// collector would run without pause.
func TestCapMakesRoomForOthers(t *testing.T) {
	withOuter(t, math.MaxInt64)
	a := Reserve(Engage)
	a.CapLive(Engage)
	capped := Limit()
	b := Reserve(0)
	b.Set(256 << 20)
	if got := Limit(); got < capped+256<<20 {
		t.Errorf("another reservation of 256 MB since the cap: limit %d, want at least %d", got, capped+256<<20)
	}
	b.Set(0)
	if got := Limit(); got != capped {
		t.Errorf("the other back to nothing: limit %d, want the cap's %d", got, capped)
	}
	a.Set(2 * Engage) // the capped work's own growth does not raise it
	if got := Limit(); got != capped {
		t.Errorf("the capped reservation grown: limit %d, want the cap's %d", got, capped)
	}
	b.Release()
	a.Release()
}

// TestCollectorProportionalUnderACap: under a cap, which counts what the
// process holds, the collector's proportional target stays on: off, the
// heap of a small comparison would grow to its cap.
func TestCollectorProportionalUnderACap(t *testing.T) {
	withOuter(t, math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	a := Reserve(Engage)
	if got := GCPercent(); got != -1 {
		t.Fatalf("limit set: target %d, want off", got)
	}
	a.CapLive(Engage)
	if got := GCPercent(); got != 100 {
		t.Errorf("capped: target %d, want 100", got)
	}
	a.Release()
	if got := GCPercent(); got != 100 {
		t.Errorf("released: target %d, want 100", got)
	}
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
		if got := GCPercent(); got != outer {
			t.Errorf("GOGC %d, under Engage: target %d, want %d", outer, got, outer)
		}
		b := Reserve(Engage / 2)
		if got := GCPercent(); got != whileSet {
			t.Errorf("GOGC %d, limit set: target %d, want %d", outer, got, whileSet)
		}
		a.Set(0)
		if got := GCPercent(); got != outer {
			t.Errorf("GOGC %d, under Engage again: target %d, want %d", outer, got, outer)
		}
		a.Set(Engage)
		if got := GCPercent(); got != whileSet {
			t.Errorf("GOGC %d, limit set again: target %d, want %d", outer, got, whileSet)
		}
		b.Release()
		if got := GCPercent(); got != whileSet {
			t.Errorf("GOGC %d, one released, the limit still set: target %d, want %d", outer, got, whileSet)
		}
		a.Release() // the last, while the limit is set
		if got := GCPercent(); got != outer {
			t.Errorf("GOGC %d, all released: target %d, want %d", outer, got, outer)
		}
	}
}

// withOneRun runs the test in a process of one run (OneRun), and puts the
// test process's mode back afterwards.
func withOneRun(t *testing.T) {
	t.Helper()
	OneRun()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		oneRun, floor = false, Floor
		firstFloor, firstLive = 0, 0
	})
}

// TestOneRunSetsTheLimitAtTheFirstReservation: in a process of one run,
// the first reservation sets the limit, however little it holds, with the
// collector's proportional target off; the last released puts both back.
func TestOneRunSetsTheLimitAtTheFirstReservation(t *testing.T) {
	withOuter(t, math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	withOneRun(t)
	a := Reserve(0)
	if got := Limit(); got == math.MaxInt64 {
		t.Errorf("one run, a reservation of nothing: no limit, want one")
	}
	if got := GCPercent(); got != -1 {
		t.Errorf("one run, a reservation of nothing: target %d, want off", got)
	}
	first := Limit()
	a.Set(Engage / 4)
	if got, want := Limit(), first+Engage/4; got != want {
		t.Errorf("one run, the reservation grown under Engage: limit %d, want %d", got, want)
	}
	a.Release()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("one run, released: limit %d, want none", got)
	}
	if got := GCPercent(); got != 100 {
		t.Errorf("one run, released: target %d, want 100", got)
	}
}

// TestOneRunFloorIsWhatIsHeld: in a process of one run, the floor is what
// the process holds at the first reservation and Room, measured again at
// each first reservation: 64 MB more held since the last, the limit is 64
// MB higher; where Floor would be the same.
func TestOneRunFloorIsWhatIsHeld(t *testing.T) {
	withOuter(t, math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	withOneRun(t)
	runtime.GC()
	before := Held()
	a := Reserve(1 << 20)
	after := Held()
	if got := Limit() - 1<<20; !near(got, Room, before, after) {
		t.Errorf("one run: floor %d, want what was held (%d to %d) and Room", got, before, after)
	}
	small := Limit()
	a.Release()
	const more = 64 << 20
	kept := make([][]byte, more>>20)
	for i := range kept {
		kept[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	b := Reserve(1 << 20)
	if got := Limit(); got < small+more-more/8 {
		t.Errorf("one run, 64 MB more live at the first reservation: limit %d, want at least %d", got, small+more-more/8)
	}
	b.Release()
	runtime.KeepAlive(kept)
	kept = nil
	runtime.GC()
	// Garbage is not the floor: a description's limit, with the collector
	// off, leaves the heap full of it for the next.
	big := Reserve(4 * more)
	for range more >> 20 {
		garbage = make([]byte, 1<<20)
	}
	big.Release()
	c := Reserve(1 << 20)
	if got := Limit(); got > small+more/4 {
		t.Errorf("one run, 64 MB of garbage at the first reservation: limit %d, want at most %d", got, small+more/4)
	}
	c.Release()
}

// garbage is what a test allocates and drops, kept from the compiler's
// eyes.
var garbage []byte

// TestOneRunWhileReserved: OneRun called while reservations are held sets
// the limit at once, from Floor; the floor is measured at the next first
// reservation.
func TestOneRunWhileReserved(t *testing.T) {
	withOuter(t, math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	a := Reserve(Engage / 2)
	if got := Limit(); got != math.MaxInt64 {
		t.Fatalf("under Engage, before OneRun: limit %d, want none", got)
	}
	withOneRun(t)
	if got, want := debug.SetMemoryLimit(-1), int64(Floor+Engage/2); got != want {
		t.Errorf("OneRun while reserved: limit %d, want %d", got, want)
	}
	if got := GCPercent(); got != -1 {
		t.Errorf("OneRun while reserved: target %d, want off", got)
	}
	a.Release()
	runtime.GC()
	before := Held()
	b := Reserve(0)
	if got := Limit(); !near(got, Room, before, Held()) {
		t.Errorf("the next first reservation: limit %d, want what was held (%d) and Room", got, before)
	}
	b.Release()
}

// near is whether got is room over what was held, read as held before and
// after it was set (the collector's background work moves it a little
// either way).
func near(got, room int64, before, after int64) bool {
	const slack = 1 << 20
	return got >= min(before, after)+room-slack && got <= max(before, after)+room+slack
}

// TestLimitOnlyReads: Limit with no reservation tells the limit from
// outside and leaves it as it was, and a first reservation counts that
// limit, not one it set itself.
func TestLimitOnlyReads(t *testing.T) {
	const outside = 1 << 40
	withOuter(t, outside)
	if got := Limit(); got != outside {
		t.Errorf("Limit with no reservation: %d, want %d", got, outside)
	}
	if got := debug.SetMemoryLimit(-1); got != outside {
		t.Errorf("the process's limit after Limit: %d, want %d", got, outside)
	}
	r := Reserve(Engage)
	if got, want := Limit(), int64(Floor+Engage); got != want {
		t.Errorf("a first reservation: limit %d, want %d", got, want)
	}
	r.Release()
	if got := debug.SetMemoryLimit(-1); got != outside {
		t.Errorf("the last reservation released: limit %d, want %d back", got, outside)
	}
}
