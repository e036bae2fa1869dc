//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/apidiff/apiedits"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// oasdiffModule is the oasdiff the action's go.mod pins: the CLI it is
// measured against is built from the same version.
const oasdiffModule = "github.com/oasdiff/oasdiff@v1.35.0"

// compareResult is the API comparison on GitHub's REST description: a copy
// with a handful of edits against the original, docs-publish's dry run
// against `oasdiff breaking` on the same pair; and the same description
// unchanged, against the run with compare: false.
type compareResult struct {
	size                     int64 // of the description
	edits                    []string
	edited, oasdiff          stats
	unchanged, noCompare     stats
	breaking, oasdiffChanges string // what each found, in its own words
	skipped                  string
}

// comparison measures the comparison.
func comparison(ctx context.Context, o *options) (compareResult, error) {
	var res compareResult
	dir := filepath.Join(o.work, "compare")
	os.MkdirAll(dir, 0o755)
	logf("comparison: GitHub's REST description and the oasdiff CLI")
	gh, err := npmFiles(ctx, dir, "@octokit/openapi@23.0.2", "generated/api.github.com.json")
	if err != nil {
		return res, err
	}
	res.size = int64(len(gh[0]))
	root, err := openapi.Parse("base.json", gh[0])
	if err != nil {
		return res, err
	}
	for _, e := range apiedits.All {
		if e.Apply(root) {
			res.edits = append(res.edits, e.Name)
		}
	}
	edited, err := openapi.Encode(root, openapi.DefaultLimits)
	if err != nil {
		return res, err
	}
	for name, data := range map[string][]byte{"base.json": gh[0], "head.json": edited, "same.json": gh[0]} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return res, err
		}
	}
	oasdiff := filepath.Join(o.work, "oasdiff")
	install := exec.CommandContext(ctx, "go", "install", oasdiffModule)
	install.Env = append(os.Environ(), "GOBIN="+o.work)
	if out, err := install.CombinedOutput(); err != nil {
		res.skipped = fmt.Sprintf("the oasdiff CLI could not be built (%v: %s)", err, firstLine(string(out)))
	}
	runs := 5
	if o.smoke {
		runs = 1
	}
	dp := func(file string, args ...string) (sample, error) {
		return measure(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary,
			append([]string{"--dry-run", "--file", file, "--base-file", "base.json"}, args...)...)
	}
	var edit, peer, same, off []sample
	for i := 0; i < runs; i++ {
		s, err := dp("head.json")
		if err != nil {
			return res, err
		}
		edit = append(edit, s)
		if res.skipped == "" {
			s, err = measure(ctx, dir, nil, oasdiff, "breaking", "base.json", "head.json", "--format", "singleline")
			if err != nil {
				return res, err
			}
			peer = append(peer, s)
		}
		if s, err = dp("same.json"); err != nil {
			return res, err
		}
		same = append(same, s)
		if s, err = dp("head.json", "--compare=false"); err != nil {
			return res, err
		}
		off = append(off, s)
	}
	res.edited, res.oasdiff, res.unchanged, res.noCompare = summarize(edit), summarize(peer), summarize(same), summarize(off)
	// What each found.
	cmd := exec.CommandContext(ctx, o.binary, "--dry-run", "--file", "head.json", "--base-file", "base.json", "--output", "json")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GITHUB_ACTIONS=")
	out, _ := cmd.Output()
	var outputs struct {
		Breaking int `json:"breaking-changes"`
		Changes  int `json:"api-changes"`
	}
	if err := json.Unmarshal(out, &outputs); err != nil {
		return res, fmt.Errorf("docs-publish --output json: %v: %s", err, firstLine(string(out)))
	}
	res.breaking = fmt.Sprintf("%d breaking changes, %d API changes", outputs.Breaking, outputs.Changes)
	if res.skipped == "" {
		peerOut, _ := exec.CommandContext(ctx, oasdiff, "breaking", filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json"), "--format", "singleline").Output()
		res.oasdiffChanges = firstLine(string(peerOut))
	}
	return res, nil
}

// compareTargets are the comparison's targets: on the edited description,
// at least this much faster and leaner than `oasdiff breaking`; unchanged,
// at most this much slower than the run that does not compare.
const (
	compareSpeed  = 10
	compareMemory = 3
	unchangedCost = 1.5
)

// checks are the smoke run's checks of the comparison.
func (r compareResult) checks() (passed int, failed []string) {
	for _, c := range []struct {
		s    stats
		what string
	}{{r.edited, "edited"}, {r.unchanged, "unchanged"}, {r.noCompare, "compare: false"}} {
		if c.s.n > 0 && c.s.median > 0 && c.s.rssMax > 0 {
			passed++
		} else {
			failed = append(failed, "comparison: "+c.what)
		}
	}
	return passed, failed
}

func (r compareResult) markdown(w func(string, ...any)) {
	w("## 7. The API comparison\n\n")
	w("GitHub's REST description (%.1f MB of JSON, `@octokit/openapi@23.0.2` `generated/api.github.com.json`) against a copy with %d edits (%s), compared by `docs-publish --dry-run --file head.json --base-file base.json` and by `oasdiff breaking base.json head.json` (%s, built by the harness with `go install`); and the description unchanged (`--base-file` a copy of it) against the run with `--compare=false`. %d runs each, alternating.\n\n",
		float64(r.size)/1e6, len(r.edits), strings.Join(r.edits, "; "), oasdiffModule, r.edited.n)
	if r.skipped != "" {
		w("_%s._\n\n", r.skipped)
	}
	w("| run | median wall | p25–p75 | peak memory |\n|---|---|---|---|\n")
	for _, f := range []struct {
		name string
		s    stats
	}{{"docs-publish, edited", r.edited}, {"oasdiff breaking, edited", r.oasdiff}, {"docs-publish, unchanged", r.unchanged}, {"docs-publish, compare: false", r.noCompare}} {
		if f.s.n > 0 {
			w("| %s | %s | %s–%s | %s |\n", f.name, ms(f.s.median), ms(f.s.p25), ms(f.s.p75), mb(f.s.rssMedian))
		}
	}
	w("\n")
	if r.oasdiff.n > 0 && r.edited.median > 0 && r.edited.rssMedian > 0 {
		speed := r.oasdiff.median.Seconds() / r.edited.median.Seconds()
		mem := float64(r.oasdiff.rssMedian) / float64(r.edited.rssMedian)
		w("Edited: docs-publish is **%.1f×** faster than `oasdiff breaking` (target at least %d×: %s) and uses **%.1f×** less memory (target at least %d×: %s), for the whole run (load, validate, bundle, compare, report) against the comparison alone.\n\n",
			speed, compareSpeed, verdict(speed >= compareSpeed), mem, compareMemory, verdict(mem >= compareMemory))
	}
	if r.noCompare.median > 0 {
		cost := r.unchanged.median.Seconds() / r.noCompare.median.Seconds()
		w("Unchanged: **%.2f×** the run with `compare: false` (target at most %g×: %s).\n\n", cost, unchangedCost, verdict(cost <= unchangedCost))
	}
	if r.size > 0 && r.edited.rssMedian > 0 {
		w("Memory: the edited run's peak is **%.1f×** the description's size (the run without the comparison: %.1f×).\n\n",
			float64(r.edited.rssMedian*1024)/float64(r.size), float64(r.noCompare.rssMedian*1024)/float64(r.size))
	}
	w("What each found: docs-publish %s; `oasdiff breaking` \"%s\" (its errors are breaking changes).\n\n", r.breaking, r.oasdiffChanges)
}
