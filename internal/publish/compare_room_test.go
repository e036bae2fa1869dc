package publish

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/docs-publish/docs-publish/internal/memlimit"
)

// TestCompareRoomFromWhatIsLive: a comparison, whatever its size, runs
// with the collector's proportional target on and room over what the
// process holds live, the loads' garbage not counted, of at least
// compareRoomFloor and compareRoomPerByte a byte: with 20 bytes a byte
// alone, Directus's descriptions (0.3 MB) had the collector run without
// pause, and under 0.2 MB the comparison had no cap, and the collector off
// up to the floor's limit. Where the room of larger ones was counted from
// all the process held, the loads' garbage with it, the peak of a
// comparison whose every operation changed rose by that garbage at the
// size the counting changed. A large one has half as much again as the
// comparison keeps live. Not parallel: the limit is the process's.
func TestCompareRoomFromWhatIsLive(t *testing.T) {
	prev := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prev)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		name string
		n    int64
		room int64
	}{
		{"10 kB", 10 << 10, compareRoomFloor + 40<<10},
		{"Directus's 0.3 MB", 313 << 10, compareRoomFloor + 1252<<10},
		{"Blockfrost's 0.9 MB", 900 << 10, compareRoomFloor + 3600<<10},
		{"1 MB", 1 << 20, 12 << 20},
		{"GitHub's 11 MB", 11 << 20, 66 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Twice: what sync.Pools hold goes at the second (as it would
			// at the reservation's own).
			runtime.GC()
			runtime.GC()
			live := memlimit.Held()
			// The loads' garbage: let go of once read, not collected yet.
			garbage = make([][]byte, 32)
			for i := range garbage {
				garbage[i] = make([]byte, 1<<20)
			}
			garbage = nil
			_, forced := gcCycles()
			mem := compareReservation(tc.n)
			defer mem.Release()
			// Counted from what is live, the reservation collects first.
			if _, forcedAfter := gcCycles(); forcedAfter == forced {
				t.Errorf("the reservation did not collect: its room is counted from the loads' garbage too")
			}
			if got := memlimit.GCPercent(); got != 100 {
				t.Errorf("collector's target %d, want 100", got)
			}
			if got := compareRoom(tc.n); got != tc.room {
				t.Errorf("room %d, want %d", got, tc.room)
			}
			// Or the reservation's own limit, when the process holds more.
			want := min(live+tc.room, compareMemoryFloor+tc.room)
			if got := debug.SetMemoryLimit(-1); got < want-1<<20 || got > want+1<<20 {
				t.Errorf("limit %d, want %d: what is live (%d) and %d", got, want, live, tc.room)
			}
		})
	}
}

// garbage keeps allocations from being optimised away.
var garbage [][]byte

// gcCycles is how many collections ended, and how many of them the
// program asked for (runtime.GC).
func gcCycles() (all, forced uint64) {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}
