//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// manyRow is one run of docs-publish over a config file of n descriptions.
type manyRow struct {
	what      string
	n         int
	parallel  int
	size      string // of each description
	s         sample
	predicted time.Duration // the slowest alone, times the rounds parallel implies
}

type manyResult struct {
	single   sample // one small description, alone: the median of three
	rows     []manyRow
	buildFor time.Duration
}

// several measures a config file of many descriptions against the
// emulator: time against parallel (small descriptions, so the service's
// build time dominates), and peak memory against the number of
// descriptions and parallel (descriptions of a few MB that name a second
// file, so that each is loaded as a tree).
func several(ctx context.Context, o *options) (manyResult, error) {
	res := manyResult{buildFor: 300 * time.Millisecond}
	dir := filepath.Join(o.work, "many")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	n, parallels, counts, size := 50, []int{1, 4, 8, 16}, []int{1, 10, 50}, 2.0
	if o.smoke {
		n, parallels, counts, size = 5, []int{1, 4}, []int{1, 5}, 0.2
	}
	small, err := os.ReadFile("testdata/specs/bookstore.openapi3.json")
	if err != nil {
		return res, err
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("small%d.json", i)), small, 0o644); err != nil {
			return res, err
		}
	}
	root, err := openapi.Load(ctx, os.DirFS("testdata/specs"), "bookstore.openapi3.json", openapi.DefaultLimits)
	if err != nil {
		return res, err
	}
	if err := synthesize(root, size, filepath.Join(dir, "big.json")); err != nil {
		return res, err
	}
	if err := os.WriteFile(filepath.Join(dir, "shared.json"), []byte(`{"note":"a second file"}`), 0o644); err != nil {
		return res, err
	}
	for i := range n {
		if err := namingAnotherFile(filepath.Join(dir, "big.json"), filepath.Join(dir, fmt.Sprintf("big%d.json", i))); err != nil {
			return res, err
		}
	}
	bigSize := fmt.Sprintf("%.1f MB", size)

	var alone []sample
	for range 3 {
		s, err := severalOnce(ctx, o, dir, "small", 1, 1, res.buildFor, true)
		if err != nil {
			return res, err
		}
		alone = append(alone, s)
	}
	st := summarize(alone)
	for _, s := range alone {
		if s.wall == st.median {
			res.single = s
		}
	}
	for _, p := range parallels {
		logf("  %d small descriptions, parallel %d", n, p)
		s, err := severalOnce(ctx, o, dir, "small", n, p, res.buildFor, true)
		if err != nil {
			return res, err
		}
		rounds := (n + p - 1) / p
		res.rows = append(res.rows, manyRow{what: "time", n: n, parallel: p, size: "2.6 kB", s: s, predicted: time.Duration(rounds) * res.single.wall})
	}
	for _, c := range counts {
		logf("  %d descriptions of %s, parallel 4", c, bigSize)
		s, err := severalOnce(ctx, o, dir, "big", c, 4, res.buildFor, false)
		if err != nil {
			return res, err
		}
		res.rows = append(res.rows, manyRow{what: "memory", n: c, parallel: 4, size: bigSize, s: s})
	}
	for _, p := range []int{1, 8} {
		logf("  %d descriptions of %s, parallel %d", counts[len(counts)-1], bigSize, p)
		s, err := severalOnce(ctx, o, dir, "big", counts[len(counts)-1], p, res.buildFor, false)
		if err != nil {
			return res, err
		}
		res.rows = append(res.rows, manyRow{what: "memory", n: counts[len(counts)-1], parallel: p, size: bigSize, s: s})
	}
	return res, nil
}

// severalOnce publishes n descriptions named prefix<i>.json, parallel at a
// time, to an emulator of its own whose builds take buildFor; wait says
// whether each run waits for its build (the emulator renders a large
// description's site for seconds, which a memory row need not count).
func severalOnce(ctx context.Context, o *options, dir, prefix string, n, parallel int, buildFor time.Duration, wait bool) (sample, error) {
	cfg := emulator.Default()
	cfg.BuildDelay = buildFor
	var config strings.Builder
	config.WriteString("descriptions:\n")
	for i := range n {
		id := fmt.Sprint(100 + i)
		name := fmt.Sprintf("svc%d.yml", i)
		cfg.Projects[0].Docs = append(cfg.Projects[0].Docs, emulator.Doc{ID: id, Domain: emulator.DomainFor("4711", id), File: name, Branch: "main"})
		fmt.Fprintf(&config, "  - file: %s%d.json\n    doc-id: %q\n    file-name: %s\n", prefix, i, id, name)
	}
	emu, err := emulator.Start(cfg)
	if err != nil {
		return sample{}, err
	}
	defer emu.Close()
	configFile := fmt.Sprintf("%s-%d.yml", prefix, n)
	if err := os.WriteFile(filepath.Join(dir, configFile), []byte(config.String()), 0o644); err != nil {
		return sample{}, err
	}
	return measure(ctx, dir, []string{"DOCS_PUBLISH_TOKEN=" + cfg.Token, "GITHUB_ACTIONS="}, o.binary,
		"--api-url", emu.URL(), "--project-id", "4711", "--branch", "main", "--config", configFile, "--parallel", fmt.Sprint(parallel),
		fmt.Sprintf("--wait-for-build=%v", wait), "--timeout", "30m")
}

func (r manyResult) markdown(w func(string, ...any)) {
	w("## 9. Several descriptions\n\n")
	w("`docs-publish --config` against the emulator, each build taking %s, every description published and waited for. One small description alone takes %s (%s CPU, %s peak). The predicted time is that, times the rounds `parallel` implies (⌈n / parallel⌉): fifty descriptions take about the time of the slowest one per round, not the sum of their times.\n\n",
		ms(r.buildFor), ms(r.single.wall), ms(r.single.cpu), mb(r.single.rss))
	w("| descriptions | each | parallel | wall | predicted | CPU | peak memory |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, row := range r.rows {
		if row.what != "time" {
			continue
		}
		w("| %d | %s | %d | %s | %s | %s | %s |\n", row.n, row.size, row.parallel, ms(row.s.wall), ms(row.predicted), ms(row.s.cpu), mb(row.s.rss))
	}
	w("\nPeak memory with descriptions of a few MB that name a second file (so each is loaded as a tree, then let go once it is checked), released without waiting for the builds (`wait-for-build: false`: the emulator, in the harness's process, renders each site for seconds): it follows `parallel` and the largest description, not the number of descriptions.\n\n")
	w("| descriptions | each | parallel | wall | CPU | peak memory |\n|---:|---:|---:|---:|---:|---:|\n")
	for _, row := range r.rows {
		if row.what != "memory" {
			continue
		}
		w("| %d | %s | %d | %s | %s | %s |\n", row.n, row.size, row.parallel, ms(row.s.wall), ms(row.s.cpu), mb(row.s.rss))
	}
	w("\n")
}
