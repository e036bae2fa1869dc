// Package memlimit keeps the collector's soft memory limit
// (runtime/debug.SetMemoryLimit) in step with the input the process holds.
// Without a limit the collector lets the heap grow to twice what is live
// (GOGC=100), so a process that holds a large description, or builds one
// and throws most of the work away, takes about twice the memory it needs.
//
// Work that holds input reserves room for it, as a number of bytes it may
// grow as it reads more (Reserve, Set); once they hold Engage together,
// the limit is Floor, the process's own, plus what every reservation of the
// moment holds, and it goes back to what it was when they hold less or the
// last one is released. A process that runs one job (a command, not a
// test process) says so (OneRun): its limit is set from the first
// reservation, over what it holds then and Room. A reservation may also
// cap the limit at what of the process is live when it sets the cap, and
// some room (CapLive). A lower limit set from outside
// (GOMEMLIMIT) wins. A limit the heap never reaches costs nothing; one it
// reaches makes the collector run sooner, at most half the CPU (the
// runtime's own cap), rather than let the heap grow past it.
//
// While the limit is set, the collector runs only at it: the proportional
// target (GOGC) is turned off, since the limit already bounds the heap by
// the input, and collecting every time the heap doubled would cost a run
// that never nears its room a collection for every few megabytes it
// allocates. A GOGC under the default, set from outside (or by a test that
// follows what is live), asks for less memory than the limit gives: it
// stays.
package memlimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Floor is the room the process has before any input: the runtime, the
// buffers and tables every run keeps, and a little heap to allocate in
// without collecting at every step.
const Floor = 16 << 20

var (
	mu    sync.Mutex
	held  int64 // bytes all the reservations hold together
	count int   // reservations not released
	outer int64 // the limit before the first reservation
	// capped are the reservations that cap the limit (CapLive), by their cap.
	capped = map[*Reservation]capAt{}
	// outerGC is the collector's target (GOGC) before the limit was set,
	// and engaged that the limit is set.
	outerGC int
	engaged bool
	// oneRun is OneRun called: the limit is set from the first
	// reservation, and floor measured then.
	oneRun bool
	floor  int64 = Floor
	// firstFloor is the floor measured at the process's first reservation
	// once OneRun was called, and firstLive the live heap then (as of the
	// collection before it); zero until then.
	firstFloor, firstLive int64
)

// A Reservation is room in the limit for one piece of work. The zero
// Reservation and nil hold nothing: their methods do nothing.
type Reservation struct {
	n    int64
	live bool
}

// Reserve reserves room for n bytes until the reservation is released.
func Reserve(n int64) *Reservation {
	mu.Lock()
	defer mu.Unlock()
	if count == 0 {
		outer = debug.SetMemoryLimit(-1)
		if oneRun {
			floor = oneRunFloor()
		}
	}
	count++
	held += n
	apply()
	return &Reservation{n: n, live: true}
}

// Set makes r hold n bytes instead of what it held.
func (r *Reservation) Set(n int64) {
	if r == nil {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if !r.live || n == r.n {
		return
	}
	held += n - r.n
	r.n = n
	apply()
}

// Release gives r's room back; the last reservation released restores the
// limit there was before the first.
func (r *Reservation) Release() {
	if r == nil {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if !r.live {
		return
	}
	r.live = false
	held -= r.n
	delete(capped, r)
	if count--; count == 0 {
		collectAtLimit(false)
		debug.SetMemoryLimit(outer)
		return
	}
	apply()
}

// Limit is the limit the reservations of the moment set: the floor (Floor,
// or in a process of one run what it held at the first and Room) and what
// they hold, or the outer limit or the largest cap when lower; with none,
// the outer limit itself.
func Limit() int64 {
	mu.Lock()
	defer mu.Unlock()
	if count == 0 {
		return debug.SetMemoryLimit(-1)
	}
	return limit()
}

// Engage is the least the reservations must hold together for a limit to
// be set: under it the headroom the collector would save is small beside
// Floor, and what the process holds besides its input (many small runs at
// once, a test process's servers) is not counted, so that a limit of
// Floor and a little would have the collector run without pause.
const Engage = 4 << 20

// Room is the room a process of one run (OneRun) has over what it holds
// when its first reservation is made. Measured on many small files (150
// kB to 1.2 MB), 2 MB took 1 MB less at the smallest sizes and the same at
// the largest, where the collector, held near what is live, took up to
// half as much CPU again; 8 MB took 4 MB more at every size. 4 MB keeps
// the peak of the smallest inputs where Floor had it, and room for what a
// run allocates besides its input.
const Room = 4 << 20

// OneRun declares that the process runs one job, whose input the
// reservations count: a command's, not a test process's. From then on the
// limit is set from the first reservation, however little it holds, and
// its floor is not Floor but what the process holds at the first
// reservation (the runtime, what the run built before it read its input)
// and Room: without it the collector lets the heap of an input of less
// than Engage grow to twice what is live, and Floor leaves a small input
// more headroom than its tree. At a later first reservation the floor
// follows what the live heap grew by since the first (oneRunFloor). What
// the process holds counts its garbage: collecting first,
// to count only what is live, took up to 1.3 MB off the peak of many
// small files but cost every run some 4 ms of CPU (7% of Kubernetes' 4
// MB description's); the live heap of the last collection instead left
// out what the run had built since (2 MB at its start), and the limit so
// low had the collector take up to half as much CPU again on many small
// files. A process that holds more than its input, as a test process
// running many runs at once, does not call it. Called while reservations
// are held, it measures the floor at the next first reservation; until
// then the floor is Floor.
func OneRun() {
	mu.Lock()
	defer mu.Unlock()
	oneRun = true
	if count > 0 {
		apply()
	}
}

// oneRunFloor is the floor of a first reservation in a process of one
// run: what the process holds at its first and Room, and at a later one
// (a run of several descriptions, one after another) that and what the
// live heap grew by since. Not what it holds then: the limit of the work
// before, with the proportional target off, left the heap full of its
// garbage, which, counted in, raised the floor by a description's room at
// each (11, 35, 58, 82 and 105 MB for descriptions of 34).
func oneRunFloor() int64 {
	live := heapLive()
	if firstFloor == 0 {
		firstFloor, firstLive = Held()+Room, live
	}
	return firstFloor + max(0, live-firstLive)
}

// heapLive is the heap the last collection found live.
func heapLive() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// set is whether the reservations of the moment set a limit.
func set() bool {
	return oneRun || held >= Engage
}

func limit() int64 {
	l := outer
	if set() {
		l = min(floor+held, outer)
	}
	if len(capped) > 0 {
		// The most lenient cap: each counts what the process held when
		// it was set, and what the other reservations reserved since.
		c := int64(0)
		for r, a := range capped {
			c = max(c, a.at+max(0, held-r.n-a.others))
		}
		l = min(l, c)
	}
	return l
}

// capAt is a cap: what the process held when it was set and the room
// given, and what the other reservations held then.
type capAt struct {
	at, others int64
}

// CapLive caps the limit, while r is held, at what of the process is live
// now and room more: for work that knows what it adds to what is already
// live, as a comparison of two descriptions read before it does, where
// Floor and the reservations, which count room for all the process read,
// leave the collector more headroom than the work uses. It collects first,
// so that the garbage of the work before (descriptions read with the
// collector off) is not taken for held; a collection costs some
// milliseconds a few megabytes live. What the process holds then is its
// memory as the limit counts it, less the heap's free pages, which the
// runtime gives back to the system as the limit nears. Counting what the
// process holds, a cap leaves the collector the same room in a process
// that holds more; a cap of less room than Engage is not set: what the
// process allocates beside the work (a test process's other tests) would
// have the collector run without pause. What other reservations reserve
// after the cap is set (another description read, another comparison)
// raises it as much: the cap holds this work's room, not theirs.
func (r *Reservation) CapLive(room int64) {
	if r == nil || room < Engage {
		return
	}
	runtime.GC()
	now := Held()
	mu.Lock()
	defer mu.Unlock()
	if !r.live {
		return
	}
	capped[r] = capAt{at: now + room, others: held - r.n}
	apply()
}

// Held is what the process holds, as a cap counts it: its memory as the
// limit counts it, less the heap's free pages.
func Held() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64() - s[2].Value.Uint64())
}

// apply sets the limit of the moment. A cap counts what the process holds
// when it is set, which the collector's proportional target keeps near
// what is live: under a cap, that target stays on.
//
// The proportional target goes back on before the limit goes, and off
// after it is set: never a moment with neither.
func apply() {
	on := set() && len(capped) == 0
	if !on {
		collectAtLimit(false)
	}
	debug.SetMemoryLimit(limit())
	collectAtLimit(on)
}

// defaultGC is the collector's target when GOGC is not set.
const defaultGC = 100

// collectAtLimit turns the collector's proportional target off while a
// limit of the reservations' is set, and back to what it was once not.
func collectAtLimit(on bool) {
	if on == engaged {
		return
	}
	engaged = on
	if !on {
		debug.SetGCPercent(outerGC)
		return
	}
	outerGC = GCPercent()
	if outerGC >= defaultGC { // off already, or tighter than the default: it stays
		debug.SetGCPercent(-1)
	}
}

// GCPercent is the collector's proportional target of the moment (GOGC),
// read without changing it: -1 when off.
func GCPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(int64(s[0].Value.Uint64())) // off reads as the largest uint64
}

// Open is how many reservations are not released yet: a test of work that
// reserves reads it to find one never given back.
func Open() int {
	mu.Lock()
	defer mu.Unlock()
	return count
}
