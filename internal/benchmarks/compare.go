//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docs-publish/docs-publish/internal/apidiff/apiedits"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// oasdiffModule is the oasdiff the action's go.mod pins: the CLI it is
// measured against is built from the same version.
const oasdiffModule = "github.com/oasdiff/oasdiff@v1.35.0"

// compareResult is the API comparison: consecutive real releases and a
// copy of GitHub's REST description with a handful of edits, docs-publish's
// dry run against `oasdiff changelog` on the same pairs; and the same
// description unchanged, against the run with compare: false.
type compareResult struct {
	size                     int64 // of the description
	edits                    []string
	edited, oasdiff          stats
	unchanged, noCompare     stats
	breaking, oasdiffChanges string // what each found, in its own words
	skipped                  string
	synthetic                pairRow // the edited case, as a row of pairs
	pairs                    []pairRow
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
	// CI keeps the CLI, this version, between runs (.ci/run's tools).
	oasdiff := os.Getenv("OASDIFF")
	if oasdiff == "" {
		oasdiff = filepath.Join(o.work, "oasdiff")
		install := exec.CommandContext(ctx, "go", "install", oasdiffModule)
		install.Env = append(os.Environ(), "GOBIN="+o.work)
		if out, err := install.CombinedOutput(); err != nil {
			res.skipped = fmt.Sprintf("the oasdiff CLI could not be built (%v: %s)", err, firstLine(string(out)))
		}
	}
	runs := 3
	if o.smoke {
		runs = 1
	}
	dp := func(file string, args ...string) (sample, error) {
		return measure(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary,
			append([]string{"--dry-run", "--file", file, "--base-file", "base.json"}, args...)...)
	}
	var edit, peer, same, off []sample
	var log string // what the run on the edited description printed
	for i := 0; i < runs; i++ {
		s, out, err := measureOut(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary, "--dry-run", "--file", "head.json", "--base-file", "base.json")
		if err != nil {
			return res, err
		}
		edit, log = append(edit, s), out
		if res.skipped == "" {
			s, out, err = measureOut(ctx, dir, nil, oasdiff, "changelog", "base.json", "head.json", "--format", "singleline")
			if err != nil {
				return res, err
			}
			peer = append(peer, s)
			res.synthetic.peerF = parseFound(oasdiffFound, out)
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
	res.oasdiffChanges = res.synthetic.peerF.String()
	res.synthetic.name = fmt.Sprintf("synthetic: %d edits to GitHub REST 23.0.2", len(res.edits))
	res.synthetic.size = 2 * res.size
	res.synthetic.dp, res.synthetic.peer = res.edited, res.oasdiff
	res.synthetic.dpF = parseFound(dpFound, log)
	peerBin := oasdiff
	if res.skipped != "" {
		peerBin = ""
	}
	logf("comparison: consecutive releases, docs-publish and oasdiff changelog, %d rounds", min(runs, 3))
	if res.pairs, err = releasePairs(ctx, o, dir, peerBin, min(runs, 3)); err != nil {
		return res, err
	}
	return res, nil
}

// unchangedCost is the comparison's target on an unchanged description:
// at most this much slower than the run that does not compare.
const unchangedCost = 1.5

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
	w("Each pair compared by `docs-publish --dry-run --file head --base-file base` (the whole run: load, validate, bundle both sides, compare, report) and by `oasdiff changelog base head` (%s, built by the harness with `go install`; `changelog` finds every level, as docs-publish does), back to back, alternating, %d rounds (the synthetic case %d). Descriptions fetched from the npm registry at run time: consecutive releases of GitHub's REST description (`@octokit/openapi`, `generated/api.github.com.json`), of Directus's (`@directus/specs`, `dist/openapi.json`) and of Blockfrost's (`@blockfrost/openapi`, `openapi.yaml`); and GitHub's 23.0.2 (%.1f MB) against a copy with %d edits (%s). Found: breaking changes / warnings / other changes (oasdiff: error / warning / info; its info counts the advice about `info.version` that docs-publish leaves out). Times are medians; the machine was shared with other work, so times are noisy and memory is the steadier figure.\n\n",
		oasdiffModule, min(r.edited.n, 3), r.edited.n, float64(r.size)/1e6, len(r.edits), strings.Join(r.edits, "; "))
	if r.skipped != "" {
		w("_%s._\n\n", r.skipped)
	}
	pairsMarkdown(w, append(slices.Clone(r.pairs), r.synthetic))
	w("The description unchanged (`--base-file` a copy of it) against the run with `--compare=false`:\n\n")
	w("| run | median wall | p25–p75 | peak memory |\n|---|---|---|---|\n")
	for _, f := range []struct {
		name string
		s    stats
	}{{"docs-publish, unchanged", r.unchanged}, {"docs-publish, compare: false", r.noCompare}} {
		if f.s.n > 0 {
			w("| %s | %s | %s–%s | %s |\n", f.name, ms(f.s.median), ms(f.s.p25), ms(f.s.p75), mb(f.s.rssMedian))
		}
	}
	w("\n")
	if r.noCompare.median > 0 {
		cost := r.unchanged.median.Seconds() / r.noCompare.median.Seconds()
		w("Unchanged: **%.2f×** the run with `compare: false` (target at most %g×: %s).\n\n", cost, unchangedCost, verdict(cost <= unchangedCost))
	}
}
