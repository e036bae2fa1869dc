package apidiff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// endsAfter is a context that ends after its Err was asked n times:
// as a budget that runs out while the comparison is under way.
type endsAfter struct {
	context.Context
	n atomic.Int32
}

func (c *endsAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func endingAfter(n int32) context.Context {
	c := &endsAfter{Context: context.Background()}
	c.n.Store(n)
	return c
}

// TestCompareStops: a comparison whose context has ended, before it starts
// or while it goes through its parts, stops with the context's error rather
// than comparing on.
func TestCompareStops(t *testing.T) {
	t.Parallel()
	doc := func(param string) []byte {
		var b strings.Builder
		b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
		for i := range 50 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"/p%d":{"get":{"parameters":[{"name":%q,"in":"query","schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}}`, i, param)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	base, head := doc("a"), doc("b")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		most int
	}{
		{"ended before", cancelled, maxPartText},
		// Asked at the start, before each part, and before each part's
		// checks: 3 is the first part compared, and the next not.
		{"ends after the start", endingAfter(1), 1},
		{"ends after the first part", endingAfter(3), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if rep, err := compareIn(tc.ctx, base, head, nil, tc.most); !errors.Is(err, context.Canceled) {
				t.Fatalf("a report (%t), error %v: want the context's error", rep != nil, err)
			}
		})
	}
	// And the same pair compares with a context that does not end.
	if rep, err := CompareAccepting(context.Background(), base, head, nil); err != nil || rep.Total() == 0 {
		t.Fatalf("error %v: want changes", err)
	}
}

// counting is a context that never ends and counts how often its Err was
// asked.
type counting struct {
	context.Context
	n atomic.Int32
}

func (c *counting) Err() error {
	c.n.Add(1)
	return nil
}

// TestCompareStopsWhilePlacing: a comparison whose context ends once it
// found every change, while it places them, gives its report with every
// change and the places found so far, not the context's error: whatever
// time it had left, a report that found every change is not lost. Before
// that, it gives the context's error, never a report of some changes.
func TestCompareStopsWhilePlacing(t *testing.T) {
	t.Parallel()
	doc := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"/p%d":{"get":{"responses":{"200":{"description":"ok"}}}}`, i)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	base, head := doc(10), doc(5) // five operations removed: breaking
	count := &counting{Context: context.Background()}
	whole, err := compareIn(count, base, head, nil, 1)
	if err != nil || whole.Count(Breaking) != 5 || placed(whole) != 5 {
		t.Fatalf("error %v, %d breaking changes, %d placed: want 5 placed", err, whole.Count(Breaking), placed(whole))
	}
	inPart := false
	for n := range count.n.Load() {
		rep, err := compareIn(endingAfter(n), base, head, nil, 1)
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("ending after %d: error %v", n, err)
			}
			continue
		}
		if d := cmp.Diff(comparable(whole), comparable(rep)); d != "" {
			t.Fatalf("ending after %d: the changes differ from the whole's (-whole +got):\n%s", n, d)
		}
		inPart = inPart || placed(rep) < placed(whole)
	}
	if !inPart {
		t.Errorf("no context that ended while placing gave a report placed in part")
	}
}

// placed is how many changes of r have a place.
func placed(r *Report) (n int) {
	for _, c := range r.Changes {
		if c.HeadPointer != "" || c.BasePointer != "" {
			n++
		}
	}
	return n
}
