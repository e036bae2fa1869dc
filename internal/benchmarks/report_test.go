//go:build unix

package main

import (
	"strings"
	"testing"
	"time"
)

// TestChecksCountWhatFellShort: the smoke summary counts what was measured,
// and names each measurement that did not take place or gave no value.
// smokeReports are a smoke pass's report with every measurement taken, and
// one where three fell short.
func smokeReports() (full, short report) {
	ok := stats{n: 1, median: time.Millisecond, rssMax: 1 << 20}
	full = report{
		machine:    "test machine",
		started:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		e2e:        e2eResult{curl: ok, dp: ok},
		startup:    ok,
		prep:       []prepRow{{input: input{name: "sample"}, tools: []string{"docs-publish"}, stats: map[string]stats{"docs-publish": ok}}},
		growth:     []point{{mb: 1, wall: 0.1, rss: 20}},
		growthTree: []point{{mb: 1, wall: 0.2, rss: 30}},
		download:   []point{{mb: 10, wall: 0.2, rss: 12}},
		yaml:       []yamlRow{{name: "list", size: 4 << 20, st: stats{n: 1, median: time.Millisecond, rssMedian: 1 << 10, rssMax: 1 << 10}}},
		image:      imageSize{binary: 11e6, certs: 220e3},
		compare:    compareResult{size: 13e6, edited: ok, oasdiff: ok, unchanged: ok, noCompare: ok},
		many:       manyResult{rows: []manyRow{{what: "time", n: 5, parallel: 4, s: sample{wall: time.Second, rss: 1 << 10}}}},
	}
	short = full
	short.e2e.dp = stats{}
	short.prep = []prepRow{{input: input{name: "sample"}, tools: []string{"docs-publish"}, stats: map[string]stats{}, err: map[string]string{"docs-publish": "exit 1"}}}
	short.download = nil
	return full, short
}

func TestChecksCountWhatFellShort(t *testing.T) {
	t.Parallel()
	full, short := smokeReports()
	o := &options{runs: 1}
	if passed, failed := full.checks(o); passed != 19 || len(failed) != 0 {
		t.Errorf("a full report: %d passed, failed %q; want 19 and none", passed, failed)
	}
	passed, failed := short.checks(o)
	if passed != 15 || len(failed) != 3 {
		t.Fatalf("a short report: %d passed, failed %q; want 15 and 3", passed, failed)
	}
	for i, want := range []string{"end to end: docs-publish, 0 of 1 runs", "preparation: docs-publish on sample: exit 1", "growth: no download was measured"} {
		if !strings.Contains(failed[i], want) {
			t.Errorf("failure %d is %q, want %q", i, failed[i], want)
		}
	}
}

// TestSmokeExitsNonZeroWhenACheckFails runs the smoke pass's reporting and
// exit path as main does (smoke, then exitCode) on a report: it prints the
// counts it found and each check that fell short, and exits 1 when one
// did.
func TestSmokeExitsNonZeroWhenACheckFails(t *testing.T) {
	t.Parallel()
	full, short := smokeReports()
	cases := []struct {
		name   string
		r      report
		code   int
		stdout []string
		stderr string
	}{
		{"every check passed", full, 0, []string{"# Benchmarks", "smoke: 19 passed, 0 failed\n", "## 6. YAML memory"}, ""},
		{"three fell short", short, 1, []string{"# Benchmarks", "smoke: 15 passed, 3 failed\n",
			"  failed: end to end: docs-publish, 0 of 1 runs\n", "  failed: preparation: docs-publish on sample: exit 1\n", "  failed: growth: no download was measured\n"},
			"benchmarks: 3 smoke checks failed\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := &options{smoke: true, runs: 1}
			var stdout, stderr strings.Builder
			code := exitCode(smoke(&stdout, tc.r.markdown(o), &tc.r, o), &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			if stderr.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
		})
	}
}
