//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// release is one API's published descriptions on npm, and the pairs of
// consecutive releases compared.
type release struct {
	name, pkg, file, ext string
	pairs                [][2]string // base and head versions, each pair consecutive releases
}

// releases are the real pairs: GitHub's REST description (large, hundreds
// of changes a major release; 17.0.0 holds a path written twice), and two
// smaller APIs with many changes a release. Directus's releases before
// 15.1.1 have operations without responses: as heads they are refused, so
// 15.1.0 is a base only.
var releases = []release{
	{"GitHub REST", "@octokit/openapi", "generated/api.github.com.json", "json",
		[][2]string{{"17.0.0", "18.0.0"}, {"19.1.0", "20.0.0"}, {"20.0.0", "21.0.0"}, {"22.0.0", "23.0.0"}, {"23.0.0", "23.0.1"}}},
	{"Directus", "@directus/specs", "dist/openapi.json", "json",
		[][2]string{{"15.1.0", "15.1.1"}, {"15.1.1", "15.2.0"}}},
	{"Blockfrost", "@blockfrost/openapi", "openapi.yaml", "yaml",
		[][2]string{{"0.1.84", "0.1.86"}, {"0.1.86", "0.1.92"}, {"0.1.92", "0.1.93"}}},
}

// found is what a tool found: breaking changes (oasdiff's errors),
// warnings, and other changes (its info).
type found struct {
	breaking, warnings, other int
	ok                        bool
}

func (f found) String() string {
	if !f.ok {
		return "?"
	}
	return fmt.Sprintf("%d / %d / %d", f.breaking, f.warnings, f.other)
}

var (
	dpFound      = regexp.MustCompile(`API changes against [^\n]*?: (\d+) breaking changes?, (\d+) warnings?, (\d+) other changes?`)
	oasdiffFound = regexp.MustCompile(`(\d+) changes?: (\d+) error, (\d+) warning, (\d+) info`)
)

func parseFound(re *regexp.Regexp, out string) found {
	m := re.FindStringSubmatch(out)
	if m == nil {
		return found{}
	}
	n := make([]int, len(m)-1)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	n = n[len(n)-3:]
	return found{n[0], n[1], n[2], true}
}

// pairRow is one pair of releases compared by both tools.
type pairRow struct {
	name       string
	size       int64 // both descriptions
	dp, peer   stats
	dpF, peerF found
	err        string
}

// speed and memory are oasdiff's time and memory over docs-publish's.
func (r pairRow) ratios() (speed, memory float64, ok bool) {
	if r.dp.n == 0 || r.peer.n == 0 || r.dp.median <= 0 || r.dp.rssMedian <= 0 {
		return 0, 0, false
	}
	return r.peer.median.Seconds() / r.dp.median.Seconds(), float64(r.peer.rssMedian) / float64(r.dp.rssMedian), true
}

// releasePairs fetches the releases and compares each pair with both
// tools, runs rounds back to back, alternating.
func releasePairs(ctx context.Context, o *options, dir, oasdiff string, runs int) ([]pairRow, error) {
	var rows []pairRow
	for _, rel := range releases {
		pairs := rel.pairs
		if o.smoke {
			if rel.name != "Blockfrost" {
				continue
			}
			pairs = pairs[len(pairs)-1:]
		}
		have := map[string]string{}
		for _, p := range pairs {
			for _, v := range p {
				if have[v] != "" {
					continue
				}
				got, err := npmFiles(ctx, dir, rel.pkg+"@"+v, rel.file)
				if err != nil {
					return nil, err
				}
				name := strings.ToLower(strings.Fields(rel.name)[0]) + "-" + v + "." + rel.ext
				if err := os.WriteFile(filepath.Join(dir, name), got[0], 0o644); err != nil {
					return nil, err
				}
				have[v] = name
			}
		}
		for _, p := range pairs {
			base, head := have[p[0]], have[p[1]]
			row := pairRow{name: fmt.Sprintf("%s %s → %s", rel.name, p[0], p[1])}
			for _, f := range []string{base, head} {
				if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
					row.size += fi.Size()
				}
			}
			logf("  %s", row.name)
			var dp, peer []sample
			for i := 0; i < runs && row.err == ""; i++ {
				s, out, err := measureOut(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary, "--dry-run", "--file", head, "--base-file", base)
				if err != nil {
					row.err = "docs-publish: " + firstLine(err.Error())
					break
				}
				dp, row.dpF = append(dp, s), parseFound(dpFound, out)
				if oasdiff == "" {
					continue
				}
				s, out, err = measureOut(ctx, dir, nil, oasdiff, "changelog", base, head, "--format", "singleline")
				if err != nil {
					row.err = "oasdiff: " + firstLine(err.Error())
					break
				}
				peer, row.peerF = append(peer, s), parseFound(oasdiffFound, out)
			}
			if len(dp) > 0 {
				row.dp = summarize(dp)
			}
			if len(peer) > 0 {
				row.peer = summarize(peer)
			}
			logf("    docs-publish %s, %s, %v; oasdiff %s, %s, %v", ms(row.dp.median), mb(row.dp.rssMedian), row.dpF, ms(row.peer.median), mb(row.peer.rssMedian), row.peerF)
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// pairsMarkdown writes the table of pairs, with the synthetic case as one
// more row, and the median and worst ratios.
func pairsMarkdown(w func(string, ...any), rows []pairRow) {
	w("| pair | size | found by docs-publish | found by oasdiff | docs-publish | oasdiff | faster | docs-publish memory | oasdiff memory | less memory |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var speeds, mems []float64
	for _, r := range rows {
		if r.err != "" {
			w("| %s | %.1f MB | %s | | | | | | | |\n", r.name, float64(r.size)/1e6, r.err)
			continue
		}
		speed, mem, ok := r.ratios()
		sp, me := "", ""
		if ok {
			speeds, mems = append(speeds, speed), append(mems, mem)
			sp, me = fmt.Sprintf("%.1f×", speed), fmt.Sprintf("%.2f×", mem)
		}
		w("| %s | %.1f MB | %v | %v | %s | %s | %s | %s | %s | %s |\n", r.name, float64(r.size)/1e6, r.dpF, r.peerF,
			ms(r.dp.median), ms(r.peer.median), sp, mb(r.dp.rssMedian), mb(r.peer.rssMedian), me)
	}
	w("\n")
	if len(speeds) == 0 {
		return
	}
	w("Over the %d pairs: docs-publish is **%.1f×** faster than oasdiff at the median (target at least %d×: %s), **%.2f×** at the worst (target at least 1×: %s); it uses **%.2f×** less memory at the median, **%.2f×** at the worst (target at least 1×: %s).\n\n",
		len(speeds), median(speeds), pairSpeed, verdict(median(speeds) >= pairSpeed), slices.Min(speeds), verdict(slices.Min(speeds) >= 1),
		median(mems), slices.Min(mems), verdict(slices.Min(mems) >= 1))
}

// pairSpeed is the median speed-up over oasdiff the pairs are to show.
const pairSpeed = 5

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
