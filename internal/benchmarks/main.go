//go:build unix

// Command benchmarks measures docs-publish side by side with what a user
// would otherwise run, on the same inputs and machine, and writes
// BENCHMARKS.md with a plot:
//
//  1. end to end against the emulator: the seed's four requests as a curl +
//     jq script, against the docs-publish binary;
//  2. spec preparation (load, validate, bundle, JSON) on large real
//     descriptions fetched from the npm registry, against @redocly/cli and
//     @apidevtools/swagger-cli installed into a temporary directory;
//  3. start-up and binary size;
//  4. growth: preparation time and memory for synthetic descriptions of
//     1 to 80 MB, and download memory for zips of 10 to 500 MB;
//  5. the binary and the image;
//  6. YAML memory: peak memory per byte of input on GitHub's description
//     as YAML and on a 36 MB block-style list of one-letter items;
//  7. the API comparison on GitHub's REST description, edited and
//     unchanged, against the oasdiff CLI;
//  8. growth by shape;
//  9. several descriptions from a config file: time against parallel,
//     peak memory against their number and parallel.
//
// Everything runs on loopback. The harness is a module of its own (its plot
// library stays out of the action's go.mod); run it from anywhere in the
// repository:
//
//	go -C internal/benchmarks run .            # full run, rewrites BENCHMARKS.md
//	go -C internal/benchmarks run . -smoke     # one quick pass, writes nothing
//	go -C internal/benchmarks run . -yaml      # only section 6, printed
//	go -C internal/benchmarks run . -shapes    # only section 8, printed
//	go -C internal/benchmarks run . -shapes -shape allOf  # the shapes named so
//	go -C internal/benchmarks run . -shapes -shape "small" -shape-runs 3  # three runs a size, their medians
//	go -C internal/benchmarks run . -only compare  # the comparison alone, rewrites its section
//	go -C internal/benchmarks run . -only prep -prep-runs 7  # section 2 alone, rewrites it
//	go -C internal/benchmarks run . -only many     # section 9 alone, rewrites it
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

type options struct {
	smoke  bool
	yaml   bool   // only the YAML memory section, printed
	shapes bool   // only the growth by shape, printed
	shape  string // with shapes: only the shapes whose name holds it
	// shapeRuns is the runs of each shape at each size, whose medians
	// the table gives.
	shapeRuns int
	out       string
	plot      string
	runs      int
	prepRuns  int    // runs of each tool on each description (section 2)
	only      string // "compare": measure the comparison only
	work      string // temporary directory
	binary    string // docs-publish, built for this run
	peerDir   string // node_modules of the peers
}

func main() {
	var o options
	flag.BoolVar(&o.smoke, "smoke", false, "one quick pass on the small sample, no npm peers, no report")
	flag.StringVar(&o.out, "out", "BENCHMARKS.md", "report to write")
	flag.StringVar(&o.plot, "plot", "testdata/benchmarks/growth.png", "plot to write, relative to the repository's root")
	flag.IntVar(&o.runs, "runs", 20, "end-to-end runs of each flow")
	flag.IntVar(&o.prepRuns, "prep-runs", 3, "runs of each tool on each description in spec preparation, in rounds")
	flag.BoolVar(&o.yaml, "yaml", false, "only the YAML memory section, printed: no report is written")
	flag.BoolVar(&o.shapes, "shapes", false, "only the growth by shape, printed: no report is written")
	flag.StringVar(&o.shape, "shape", "", "with -shapes: only the shapes whose name holds this text")
	flag.IntVar(&o.shapeRuns, "shape-runs", 1, "runs of each shape at each size in the growth by shape: the table gives their medians")
	flag.StringVar(&o.only, "only", "", "compare, prep or many: measure the API comparison, spec preparation, or several descriptions, alone and rewrite its section of the report")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := exitCode(run(ctx, &o, os.Stdout), os.Stderr)
	stop()
	os.Exit(code)
}

// exitCode reports err on stderr and is the process's exit code: 1 for an
// error (a smoke check that fell short included), else 0.
func exitCode(err error, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintln(stderr, "benchmarks:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o *options, stdout io.Writer) error {
	root, err := repositoryRoot()
	if err != nil {
		return err
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "docs-publish-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o.work = work
	if o.smoke {
		o.runs, o.prepRuns = 1, 1
	}
	start := time.Now()
	o.binary = filepath.Join(work, "docs-publish")
	// Built as the image builds it: static, stripped.
	if _, err := measure(ctx, "", []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", o.binary, "."); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	r := &report{machine: machine(), started: start}
	if r.image, err = measureImage(o.binary); err != nil {
		return fmt.Errorf("binary: %w", err)
	}
	if o.yaml {
		return yamlOnly(ctx, o, stdout)
	}
	if o.shapes {
		return shapesOnly(ctx, o, stdout)
	}

	switch o.only {
	case "compare":
		return compareOnly(ctx, o, r)
	case "prep":
		return prepOnly(ctx, o, r)
	case "many":
		return manyOnly(ctx, o, r)
	}
	logf("end to end against the emulator (%d runs each)", o.runs)
	if r.e2e, err = endToEnd(ctx, o); err != nil {
		return fmt.Errorf("end to end: %w", err)
	}
	logf("start-up")
	if r.startup, err = startup(ctx, o); err != nil {
		return fmt.Errorf("start-up: %w", err)
	}
	logf("spec preparation")
	if r.prep, r.prepNotes, err = preparation(ctx, o); err != nil {
		return fmt.Errorf("preparation: %w", err)
	}
	logf("growth")
	if r.growth, r.growthTree, r.download, err = growth(ctx, o); err != nil {
		return fmt.Errorf("growth: %w", err)
	}
	logf("YAML memory")
	if r.yaml, err = yamlMemory(ctx, o); err != nil {
		return fmt.Errorf("YAML memory: %w", err)
	}
	logf("growth by shape")
	if r.shapes, err = shapeGrowth(ctx, o); err != nil {
		return fmt.Errorf("growth by shape: %w", err)
	}
	logf("the API comparison")
	if r.compare, err = comparison(ctx, o); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	logf("several descriptions")
	if r.many, err = several(ctx, o); err != nil {
		return fmt.Errorf("several descriptions: %w", err)
	}
	r.took = time.Since(start)
	text := r.markdown(o)
	if o.smoke {
		return smoke(stdout, text, r, o)
	}
	if err := writePlot(o.plot, r.growth, r.growthTree, r.download); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if err := os.WriteFile(o.out, []byte(text), 0o644); err != nil {
		return err
	}
	logf("wrote %s and %s in %s", o.out, o.plot, r.took.Round(time.Second))
	return nil
}

// compareOnly measures the comparison and rewrites its section of the
// report, leaving the others as the last full run wrote them.
func compareOnly(ctx context.Context, o *options, r *report) error {
	var err error
	if r.compare, err = comparison(ctx, o); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	var b strings.Builder
	r.compare.markdown(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) })
	return rewriteSection(o, "## 7. The API comparison", b.String(), "`go -C internal/benchmarks run . -only compare`")
}

// manyOnly measures several descriptions and rewrites their section of
// the report, leaving the others as the last full run wrote them.
func manyOnly(ctx context.Context, o *options, r *report) error {
	var err error
	if r.many, err = several(ctx, o); err != nil {
		return fmt.Errorf("several descriptions: %w", err)
	}
	var b strings.Builder
	r.many.markdown(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) })
	return rewriteSection(o, "## 9. Several descriptions", b.String(), "`go -C internal/benchmarks run . -only many`")
}

// prepOnly measures spec preparation and rewrites its section of the
// report, leaving the others as the last full run wrote them.
func prepOnly(ctx context.Context, o *options, r *report) error {
	var err error
	if r.prep, r.prepNotes, err = preparation(ctx, o); err != nil {
		return fmt.Errorf("preparation: %w", err)
	}
	const head = "## 2. Spec preparation"
	text := r.markdown(o)
	section := text[strings.Index(text, head):]
	section = section[:strings.Index(section, "\n## ")+1]
	return rewriteSection(o, head, section, fmt.Sprintf("`go -C internal/benchmarks run . -only prep -prep-runs %d`", o.prepRuns))
}

// rewriteSection puts section, which starts with the heading head, in the
// place of the report's section of that heading (or at its end), with a
// line saying how it was measured; with -smoke it prints it instead.
func rewriteSection(o *options, head, section, how string) error {
	if o.smoke {
		_, err := io.WriteString(os.Stdout, section)
		return err
	}
	old, err := os.ReadFile(o.out)
	if err != nil {
		return err
	}
	note := fmt.Sprintf("_Measured on %s on its own, by %s; the other sections are from the last full run._", time.Now().UTC().Format("2006-01-02"), how)
	section = strings.Replace(section, "\n\n", "\n\n"+note+"\n\n", 1)
	text := string(old)
	i := strings.Index(text, head)
	if i < 0 {
		return os.WriteFile(o.out, []byte(strings.TrimRight(text, "\n")+"\n\n"+section), 0o644)
	}
	rest := ""
	if j := strings.Index(text[i+len(head):], "\n## "); j >= 0 {
		rest = text[i+len(head)+j+1:]
	}
	return os.WriteFile(o.out, []byte(text[:i]+strings.TrimRight(section, "\n")+"\n\n"+rest), 0o644)
}

// smoke prints the report of a smoke pass and what its checks found, and
// fails when one fell short.
func smoke(w io.Writer, text string, r *report, o *options) error {
	io.WriteString(w, text)
	passed, failed := r.checks(o)
	fmt.Fprintf(w, "smoke: %d passed, %d failed\n", passed, len(failed))
	for _, f := range failed {
		fmt.Fprintf(w, "  failed: %s\n", f)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d smoke checks failed", len(failed))
	}
	return nil
}

// repositoryRoot is the folder above the working directory that holds
// action.yml: the repository the harness measures.
func repositoryRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "action.yml")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("run inside the repository: no action.yml above the working directory")
		}
		dir = parent
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// machine describes where the numbers come from.
func machine() string {
	model := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				model = strings.TrimSpace(l[strings.Index(l, ":")+1:])
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		fmt.Sscanf(strings.TrimPrefix(strings.Split(string(b), "\n")[0], "MemTotal:"), "%d", &kb)
		mem = fmt.Sprintf("%.0f GiB", float64(kb)/(1<<20))
	}
	return fmt.Sprintf("%d cores (%s), %s memory, %s/%s, %s", runtime.NumCPU(), model, mem, runtime.GOOS, runtime.GOARCH, runtime.Version())
}
