//go:build unix

package main

import (
	"strings"
	"testing"
	"time"
)

// TestChecksCountWhatFellShort: the smoke summary counts what was measured,
// and names each measurement that did not take place or gave no value.
func TestChecksCountWhatFellShort(t *testing.T) {
	t.Parallel()
	ok := stats{n: 1, median: time.Millisecond, rssMax: 1 << 20}
	full := report{
		e2e:      e2eResult{curl: ok, dp: ok},
		startup:  ok,
		prep:     []prepRow{{input: input{name: "sample"}, tools: []string{"docs-publish"}, stats: map[string]stats{"docs-publish": ok}}},
		growth:   []point{{mb: 1, wall: 0.1, rss: 20}},
		download: []point{{mb: 10, wall: 0.2, rss: 12}},
	}
	o := &options{runs: 1}
	if passed, failed := full.checks(o); passed != 9 || len(failed) != 0 {
		t.Errorf("a full report: %d passed, failed %q; want 9 and none", passed, failed)
	}
	short := full
	short.e2e.dp = stats{}
	short.prep = []prepRow{{input: input{name: "sample"}, tools: []string{"docs-publish"}, stats: map[string]stats{}, err: map[string]string{"docs-publish": "exit 1"}}}
	short.download = nil
	passed, failed := short.checks(o)
	if passed != 5 || len(failed) != 3 {
		t.Fatalf("a short report: %d passed, failed %q; want 5 and 3", passed, failed)
	}
	for i, want := range []string{"end to end: docs-publish, 0 of 1 runs", "preparation: docs-publish on sample: exit 1", "growth: no download was measured"} {
		if !strings.Contains(failed[i], want) {
			t.Errorf("failure %d is %q, want %q", i, failed[i], want)
		}
	}
}
