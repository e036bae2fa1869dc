//go:build unix

package main

import (
	"strings"
	"testing"
	"time"
)

// TestShapesSectionSaysItsRuns: the table of growth by shape says how
// many runs each size took, and gives their medians.
func TestShapesSectionSaysItsRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		runs int
		says string
	}{
		{"one run", 1, "one run each"},
		{"three runs", 3, "3 runs each, the median"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rows := []shapeRow{{name: "a shape", runs: tc.runs, points: []shapePoint{
				{size: 1 << 20, s: sample{wall: time.Second, rss: 20 << 10}},
				{size: 2 << 20, s: sample{wall: 2 * time.Second, rss: 30 << 10}},
			}}}
			got := shapesSection(rows)
			if !strings.Contains(got, tc.says) {
				t.Errorf("%d runs: the section does not say %q:\n%s", tc.runs, tc.says, got)
			}
			if !strings.Contains(got, "| a shape | 1024 / 2048 | 1000 ms / 2000 ms | 20 / 30 | 10.0 | 1.00 |") {
				t.Errorf("the row is not the points':\n%s", got)
			}
		})
	}
}

// TestMedianOfRuns: a size's point is the median of its runs' wall times
// and the median of their peaks, each found on its own.
func TestMedianOfRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ss   []sample
		want sample
	}{
		{"one", []sample{{wall: time.Second, rss: 7}}, sample{wall: time.Second, rss: 7}},
		{"three, in no order", []sample{{wall: 3 * time.Second, rss: 10}, {wall: time.Second, rss: 30}, {wall: 2 * time.Second, rss: 20}}, sample{wall: 2 * time.Second, rss: 20}},
		{"five, the peaks against the times", []sample{{wall: 5, rss: 1}, {wall: 1, rss: 5}, {wall: 4, rss: 2}, {wall: 2, rss: 4}, {wall: 3, rss: 9}}, sample{wall: 3, rss: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := medianOf(tc.ss); got != tc.want {
				t.Errorf("medianOf(%v) = %v, want %v", tc.ss, got, tc.want)
			}
		})
	}
}

// TestShapeNamesKeepTheTable: a shape's name is a cell of a Markdown table,
// where a | not escaped ends the cell, inside backticks too.
func TestShapeNamesKeepTheTable(t *testing.T) {
	t.Parallel()
	for _, sh := range shapes {
		if strings.Count(sh.name, "|") != strings.Count(sh.name, `\|`) {
			t.Errorf("shape %q: a | not escaped splits its row", sh.name)
		}
	}
}
