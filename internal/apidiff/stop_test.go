package apidiff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
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
