// Package growthtest checks, in tests, that the cost of a piece of work
// grows in proportion to its input: it counts what the work allocates, or
// what the work itself counts, at two sizes four times apart and requires
// the ratio to stay near four. It times nothing, so a loaded machine
// cannot make it fail; a shape that turns quadratic again shows as a ratio
// near sixteen.
package growthtest

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// Factor is how much larger the second size is than the first.
const Factor = 4

// MaxRatio is the most the cost may grow when the input grows Factor
// times: room for n log n and for fixed costs, well short of n² (16).
const MaxRatio = 6.0

// Cost is what one run allocated: the number of allocations and the bytes.
type Cost struct {
	Allocs, Bytes uint64
}

// Measure runs run(n) once and returns what it allocated. Run it from a
// test that is not parallel: other tests' allocations would count.
func Measure(run func(n int), n int) Cost {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run(n)
	runtime.ReadMemStats(&after)
	return Cost{Allocs: after.Mallocs - before.Mallocs, Bytes: after.TotalAlloc - before.TotalAlloc}
}

// Linear fails t unless run(Factor*n) allocates at most MaxRatio times
// what run(n) allocates, counted both in allocations and in bytes. run is
// called once beforehand at size n, so that one-time set-up (a compiled
// pattern, a pool) does not count; what names the shape in the failure.
func Linear(t testing.TB, what string, n int, run func(n int)) {
	t.Helper()
	check(t, what, n, run, MaxRatio)
}

func check(t testing.TB, what string, n int, run func(n int), most float64) {
	t.Helper()
	run(n)
	small := Measure(run, n)
	large := Measure(run, Factor*n)
	ra := ratio(large.Allocs, small.Allocs)
	rb := ratio(large.Bytes, small.Bytes)
	t.Logf("%s: %d → %d: allocations %d → %d (×%.2f), bytes %d → %d (×%.2f)", what, n, Factor*n, small.Allocs, large.Allocs, ra, small.Bytes, large.Bytes, rb)
	if ra > most {
		t.Errorf("%s: %d times the input made %.1f times the allocations (%d → %d), want at most %.1f", what, Factor, ra, small.Allocs, large.Allocs, most)
	}
	if rb > most {
		t.Errorf("%s: %d times the input allocated %.1f times the bytes (%d → %d), want at most %.1f", what, Factor, rb, small.Bytes, large.Bytes, most)
	}
}

// LinearCount fails t unless run(Factor*n) does at most MaxRatio times the
// work that run(n) does, as run counts it and returns: for work that costs
// time and allocates nothing (a scan through a list that an index should
// spare), which Linear cannot see. unit names what run counts.
func LinearCount(t testing.TB, what, unit string, n int, run func(n int) uint64) {
	t.Helper()
	small, large := run(n), run(Factor*n)
	r := ratio(large, small)
	t.Logf("%s: %d → %d: %s %d → %d (×%.2f)", what, n, Factor*n, unit, small, large, r)
	if r > MaxRatio {
		t.Errorf("%s: %d times the input made %.1f times the %s (%d → %d), want at most %.1f", what, Factor, r, unit, small, large, MaxRatio)
	}
}

// MaxBoundedRatio is the most the cost of refusing an input may grow when
// the input grows Factor times and the limits do not: a refusal costs what
// the limits allow, not what the input holds.
const MaxBoundedRatio = 1.5

// Bounded fails t unless run(Factor*n) allocates at most MaxBoundedRatio
// times what run(n) allocates: for inputs over a limit, refused at a cost
// the limit bounds.
func Bounded(t testing.TB, what string, n int, run func(n int)) {
	t.Helper()
	check(t, what, n, run, MaxBoundedRatio)
}

func ratio(large, small uint64) float64 {
	if small == 0 {
		small = 1
	}
	return float64(large) / float64(small)
}

// Peak runs run and returns the most heap its objects held at once, as
// sampled every millisecond (and at the end): a measure of memory that
// counts what is live, where Measure counts what was ever allocated. Lower
// the collector's target (debug.SetGCPercent) for the heap to follow what
// is live closely.
func Peak(run func()) uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var peak uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	run()
	close(done)
	wg.Wait()
	peak = max(peak, read())
	if peak < base {
		return 0
	}
	return peak - base
}

// Punct spells i in punctuation only (!$&()*+,;=), so that the names
// "a"+Punct(i) differ for every i and all clean to "a" where a name is
// made of its letters and digits: a shape where made names collide.
func Punct(i int) string {
	const digits = "!$&()*+,;="
	var b []byte
	for {
		b = append(b, digits[i%10])
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}

// Operations is an OpenAPI description, as JSON, of n operations, each with
// a query parameter and a response of two properties; changed, each has its
// parameter required and its three types integer where string, four
// breaking changes an operation: the shape that makes a comparison's
// changes as many as its operations.
func Operations(n int, changed bool) string {
	req, typ := "false", "string"
	if changed {
		req, typ = "true", "integer"
	}
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"operationId":"op%d","parameters":[{"name":"q","in":"query","required":%s,"schema":{"type":"%s"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{"a":{"type":"%s"},"b":{"type":"%s"}}}}}}}}}`, i, i, req, typ, typ, typ)
	}
	b.WriteString(`}}`)
	return b.String()
}
