//go:build unix

package main

import (
	"fmt"
	"strings"
	"time"
)

type report struct {
	machine   string
	started   time.Time
	took      time.Duration
	e2e       e2eResult
	startup   stats
	prep      []prepRow
	prepNotes []string
	growth    []point
	download  []point
}

// checks judges what a run measured, for the smoke run's summary: each
// measurement the run was to take must have taken place and given a value
// (a time and a peak memory above zero). It returns how many passed, and
// what fell short.
func (r *report) checks(o *options) (passed int, failed []string) {
	check := func(ok bool, what string) {
		if ok {
			passed++
		} else {
			failed = append(failed, what)
		}
	}
	measured := func(s stats, runs int) bool { return s.n == runs && s.median > 0 && s.rssMax > 0 }
	check(measured(r.e2e.dp, o.runs), fmt.Sprintf("end to end: docs-publish, %d of %d runs", r.e2e.dp.n, o.runs))
	if r.e2e.skipped == "" {
		check(measured(r.e2e.curl, o.runs), fmt.Sprintf("end to end: curl script, %d of %d runs", r.e2e.curl.n, o.runs))
	}
	check(r.startup.n > 0 && r.startup.median > 0, "start-up")
	check(len(r.prep) > 0, "preparation: no input was measured")
	for _, row := range r.prep {
		for _, tool := range row.tools {
			st, ok := row.stats[tool]
			check(ok && st.n > 0 && st.median > 0 && row.err[tool] == "", fmt.Sprintf("preparation: %s on %s: %s", tool, row.input.name, row.err[tool]))
		}
	}
	check(len(r.growth) > 0, "growth: no description was measured")
	for _, p := range r.growth {
		check(p.wall > 0 && p.rss > 0, fmt.Sprintf("growth: %g MB description", p.mb))
	}
	check(len(r.download) > 0, "growth: no download was measured")
	for _, p := range r.download {
		check(p.wall > 0 && p.rss > 0, fmt.Sprintf("growth: %g MB download", p.mb))
	}
	return passed, failed
}

func verdict(ok bool) string {
	if ok {
		return "**met**"
	}
	return "**not met**"
}

func (r *report) markdown(o *options) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Benchmarks\n\n")
	w("Written by `go -C internal/benchmarks run .` on %s, in %s.\n\n", r.started.UTC().Format("2006-01-02"), r.took.Round(time.Second))
	w("Machine: %s.\n\n", r.machine)
	w("Every figure is a median of several runs; ratios are taken between runs of the same harness run, on the same inputs. Peak memory is the process's maximum resident set size (what `/usr/bin/time -v` reports), read from its resource usage. Everything runs on loopback.\n\n")

	w("## 1. End to end against the emulator\n\n")
	w("The seed's four requests as a shell script (`testdata/seed/curl-flow.sh`: curl and jq, polling the download every 200 ms) against the docs-publish binary, %d runs each, alternating, against one emulator whose builds take 100 ms.\n\n", o.runs)
	if r.e2e.skipped != "" {
		w("_%s._\n\n", r.e2e.skipped)
	}
	w("| flow | runs | median | p25–p75 | min–max | peak memory |\n|---|---|---|---|---|---|\n")
	for _, f := range []struct {
		name string
		s    stats
	}{{"curl + jq script", r.e2e.curl}, {"docs-publish", r.e2e.dp}} {
		if f.s.n == 0 {
			continue
		}
		w("| %s | %d | %s | %s–%s | %s–%s | %s |\n", f.name, f.s.n, ms(f.s.median), ms(f.s.p25), ms(f.s.p75), ms(f.s.min), ms(f.s.max), mb(f.s.rssMax))
	}
	if r.e2e.curl.n > 0 {
		ratio := r.e2e.dp.median.Seconds() / r.e2e.curl.median.Seconds()
		w("\ndocs-publish / curl script, medians: **%.2f×** (target at most 1.15×: %s). docs-publish does more in that time: it validates the description, retries transient faults, waits for the build with backoff, checks the zip and writes it atomically.\n\n", ratio, verdict(ratio <= 1.15))
	}

	w("## 2. Spec preparation\n\n")
	w("Load, validate, bundle and write JSON. docs-publish: `docs-publish --dry-run --file IN --bundle-path OUT`; peers: `redocly bundle IN --ext json -o OUT` (`REDOCLY_TELEMETRY=off`) and `swagger-cli bundle -t json -o OUT IN`, installed from the npm registry into a temporary directory. Three runs each.\n\n")
	for _, n := range r.prepNotes {
		w("_%s._\n\n", n)
	}
	w("| description | size | tool | median wall | peak memory |\n|---|---|---|---|---|\n")
	for _, row := range r.prep {
		for _, t := range row.tools {
			if e, ok := row.err[t]; ok {
				w("| %s | %.1f MB | %s | failed: %s | |\n", row.input.name, float64(row.input.size)/1e6, t, e)
				continue
			}
			s := row.stats[t]
			w("| %s | %.1f MB | %s | %s | %s |\n", row.input.name, float64(row.input.size)/1e6, t, ms(s.median), mb(s.rssMedian))
		}
	}
	w("\n| description | faster than the fastest peer (target ≥ 10×) | less memory than the fastest peer (target ≥ 4×) |\n|---|---|---|\n")
	for _, row := range r.prep {
		dp, ok := row.stats["docs-publish"]
		if !ok {
			continue
		}
		fastest := ""
		for _, t := range row.tools {
			if s, ok := row.stats[t]; ok && t != "docs-publish" && (fastest == "" || s.median < row.stats[fastest].median) {
				fastest = t
			}
		}
		if fastest == "" {
			continue
		}
		f := row.stats[fastest]
		speed := f.median.Seconds() / dp.median.Seconds()
		mem := float64(f.rssMedian) / float64(dp.rssMedian)
		w("| %s (fastest peer: %s) | %.1f× %s | %.1f× %s |\n", row.input.name, fastest, speed, verdict(speed >= 10), mem, verdict(mem >= 4))
	}
	w("\nSources: ")
	for i, row := range r.prep {
		if i > 0 {
			w("; ")
		}
		w("%s: %s", row.input.name, row.input.source)
	}
	w(". The Kubernetes description is real Swagger 2.0; its parameters are shared per path rather than as top-level components.\n\n")

	w("## 3. Start-up\n\n")
	w("`docs-publish --version`, a new process each time, %d runs: median **%s** (p25–p75 %s–%s; target under 15 ms: %s).\n\n", r.startup.n, ms(r.startup.median), ms(r.startup.p25), ms(r.startup.p75), verdict(r.startup.median < 15*time.Millisecond))

	w("## 4. Growth\n\n")
	w("Synthetic descriptions made by repeating GitHub's real paths under new names, prepared with `docs-publish --dry-run`; and downloads of zips of incompressible data from a loopback stand-in of the service.\n\n")
	w("| description | median wall | peak memory |\n|---|---|---|\n")
	for _, p := range r.growth {
		w("| %g MB | %.2f s | %.0f MB |\n", p.mb, p.wall, p.rss)
	}
	w("\n| zip | wall | peak memory |\n|---|---|---|\n")
	for _, p := range r.download {
		w("| %g MB | %.2f s | %.0f MB |\n", p.mb, p.wall, p.rss)
	}
	if len(r.download) > 1 {
		lo, hi := r.download[0].rss, r.download[len(r.download)-1].rss
		w("\nDownload memory from the smallest to the largest zip: %.0f MB to %.0f MB (%s).\n", lo, hi, map[bool]string{true: "flat", false: "**grows**"}[hi < lo*1.5])
	}
	w("\n![Preparation time and memory against description size; download memory against zip size](%s)\n", strings.TrimPrefix(o.plot, "./"))
	return b.String()
}
