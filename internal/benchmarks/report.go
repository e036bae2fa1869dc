//go:build unix

package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

type report struct {
	machine    string
	started    time.Time
	took       time.Duration
	e2e        e2eResult
	startup    stats
	prep       []prepRow
	prepNotes  []string
	growth     []point // the single pass
	growthTree []point // the same descriptions naming a second file: the tree
	download   []point
	yaml       []yamlRow
	shapes     []shapeRow
	image      imageSize
	compare    compareResult
	many       manyResult
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
	check(len(r.growthTree) == len(r.growth), "growth: the tree was not measured at every size")
	for _, p := range r.growthTree {
		check(p.wall > 0 && p.rss > 0, fmt.Sprintf("growth: %g MB description through the tree", p.mb))
	}
	check(len(r.yaml) > 0, "YAML memory: no description was measured")
	for _, y := range r.yaml {
		check(y.size > 0 && y.st.n > 0 && y.st.rssMedian > 0, "YAML memory: "+y.name)
	}
	check(r.image.binary > 0, "binary: its size was not measured")
	check(len(r.download) > 0, "growth: no download was measured")
	for _, p := range r.download {
		check(p.wall > 0 && p.rss > 0, fmt.Sprintf("growth: %g MB download", p.mb))
	}
	check(len(r.many.rows) > 0, "several descriptions: no run was measured")
	for _, row := range r.many.rows {
		check(row.s.wall > 0 && row.s.rss > 0, fmt.Sprintf("several descriptions: %d at parallel %d", row.n, row.parallel))
	}
	passed2, failed2 := r.compare.checks()
	return passed + passed2, append(failed, failed2...)
}

// imageSize is what the image holds: the binary, and the CA bundle.
type imageSize struct{ binary, certs int64 }

// caBundle is the CA bundle the image copies from Debian.
const caBundle = "/etc/ssl/certs/ca-certificates.crt"

func measureImage(binary string) (imageSize, error) {
	st, err := os.Stat(binary)
	if err != nil {
		return imageSize{}, err
	}
	im := imageSize{binary: st.Size()}
	if st, err := os.Stat(caBundle); err == nil {
		im.certs = st.Size()
	}
	return im, nil
}

func mbExact(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }
func kbExact(n int64) string {
	if n == 0 {
		return "not on this machine"
	}
	return fmt.Sprintf("%.0f kB", float64(n)/1e3)
}

// whyMissed says, for an input, why a target is out of reach of the way
// docs-publish prepares it.
func whyMissed(file string) string {
	switch {
	case strings.HasSuffix(file, ".yaml"):
		return "A YAML description is read by go.yaml.in/yaml/v3 into its own tree of nodes (about 160 bytes each) before docs-publish converts it, and that library has no streaming interface: its parse is most of the time, and its tree most of the peak memory; docs-publish lets each node go as it is converted."
	case strings.HasSuffix(file, ".json"):
		return "The single pass reads every token through jsontext, which runs a few batches ahead on a second goroutine, and writes the upload on a third; what every run costs whatever its input (starting the process and initialising the API-diff libraries, see the start-up below) is a large share of a small description's time, and the process's resident memory before it reads anything (about 18 MB, the binary's pages among it) a large share of its memory."
	}
	return ""
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
	w("Load, validate, bundle and write JSON. docs-publish: `docs-publish --dry-run --file IN --bundle-path OUT`; peers: `redocly bundle IN --ext json -o OUT` (`REDOCLY_TELEMETRY=off`) and `swagger-cli bundle -t json -o OUT IN`, installed from the npm registry into a temporary directory. %d runs each, in rounds: each tool once in turn, so that a machine others share slows them alike.\n\n", o.prepRuns)
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
	w("\n| description | fastest peer | faster (target) | less memory (target) |\n|---|---|---|---|\n")
	for _, row := range r.prep {
		speed, mem, ok := row.ratios()
		if !ok {
			continue
		}
		w("| %s | %s | %.1f× (≥ %g×: %s) | %.1f× (≥ %g×: %s) |\n", row.input.name, row.fastest(), speed, row.input.speed, verdict(speed >= row.input.speed), mem, row.input.memory, verdict(mem >= row.input.memory))
	}
	for _, row := range r.prep {
		speed, mem, ok := row.ratios()
		if !ok || !row.missed() {
			continue
		}
		w("\n**%s**: ", row.input.name)
		if speed < row.input.speed {
			w("%.1f× faster where %g× is the target, short by %.0f%% of the time it takes (%s against %s). ", speed, row.input.speed, 100*(1-speed/row.input.speed), ms(row.stats["docs-publish"].median), ms(time.Duration(float64(row.stats[row.fastest()].median)/row.input.speed)))
		}
		if mem < row.input.memory {
			w("%.1f× less memory where %g× is the target, %s over (%s against %s). ", mem, row.input.memory, mb(row.stats["docs-publish"].rssMedian-int64(float64(row.stats[row.fastest()].rssMedian)/row.input.memory)), mb(row.stats["docs-publish"].rssMedian), mb(int64(float64(row.stats[row.fastest()].rssMedian)/row.input.memory)))
		}
		if row.profile != "" {
			w("Where the time goes (CPU profile of the same preparation, `go tool pprof -top` summed by part): %s.", row.profile)
		}
		w(" %s\n", whyMissed(row.input.file))
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
	w("Synthetic descriptions made by repeating GitHub's real paths under new names, prepared with `docs-publish --dry-run`, both ways a run prepares a description: as they are (one JSON file: the single pass), and with one `$ref` to a second file added at the top, which takes the tree (load, bundle, validate, encode); and downloads of zips of incompressible data from a loopback stand-in of the service.\n\n")
	w("| description | single pass: median wall | peak memory | per byte of input | the tree: median wall | peak memory |\n|---|---|---|---|---|---|\n")
	for i, p := range r.growth {
		t := point{}
		if i < len(r.growthTree) {
			t = r.growthTree[i]
		}
		w("| %g MB | %.2f s | %.0f MB | %.1f bytes | %.2f s | %.0f MB |\n", p.mb, p.wall, p.rss, p.rss/p.mb, t.wall, t.rss)
	}
	if n := len(r.growth); n > 0 && r.growth[n-1].mb >= 80 {
		p := r.growth[n-1]
		w("\nSingle pass at %g MB: %.1f bytes of memory per byte of input (target at most 3 at 80 MB: %s).\n", p.mb, p.rss/p.mb, verdict(p.rss/p.mb <= 3))
	}
	w("\n| zip | wall | peak memory |\n|---|---|---|\n")
	for _, p := range r.download {
		w("| %g MB | %.2f s | %.0f MB |\n", p.mb, p.wall, p.rss)
	}
	if len(r.download) > 1 {
		lo, hi := r.download[0].rss, r.download[len(r.download)-1].rss
		w("\nDownload memory from the smallest to the largest zip: %.0f MB to %.0f MB (%s).\n", lo, hi, map[bool]string{true: "flat", false: "**grows**"}[hi < lo*1.5])
	}
	w("\n![Preparation time and memory against description size, single pass and tree; download memory against zip size](%s)\n", strings.TrimPrefix(o.plot, "./"))

	w("\n## 5. The binary and the image\n\n")
	w("The binary as the image holds it (`CGO_ENABLED=0 go build -trimpath -ldflags \"-s -w\"`), measured by this run: **%s**. The image is that binary and Debian's CA bundle (`/etc/ssl/certs/ca-certificates.crt`, %s here): **%s** (gate 25 MB: %s).\n\n",
		mbExact(r.image.binary), kbExact(r.image.certs), mbExact(r.image.binary+r.image.certs), verdict(r.image.binary+r.image.certs <= 25e6))
	w("What the API-diff feature's libraries add, as measured on 2026-11-23 by building with and without them (not measured by this run): before the feature, 10.90 MB; with it, 20.13 MB. github.com/oasdiff/oasdiff with github.com/getkin/kin-openapi add about 6.5 MB, github.com/go-git/go-git about 2.8 MB; github.com/google/go-github would have added 4.6 MB and is not used (GitHub's API is spoken to over net/http). The emulator's Markdown renderer, github.com/yuin/goldmark, adds about 0.8 MB.\n")
	if len(r.yaml) > 0 {
		w("\n%s", yamlSection(r.yaml))
	}
	w("\n")
	r.compare.markdown(w)
	if len(r.shapes) > 0 {
		w("\n%s", shapesSection(r.shapes))
	}
	if len(r.many.rows) > 0 {
		w("\n")
		r.many.markdown(w)
	}
	return b.String()
}
