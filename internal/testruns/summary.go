package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// event is a line of go test -json (test2json's format).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// result is what the streams say of one test or package.
type result struct {
	pkg, test string
	elapsed   float64 // the longest of its runs, in seconds
	ran       bool    // passed or failed in at least one stream
	failed    bool
	skipped   bool     // skipped in at least one stream
	reasons   []string // the last line it printed before each skip, once each
	output    []string // what it printed when it failed
}

// streams gathers the results of one or more go test -json streams.
type streams struct {
	byKey  map[string]*result
	output map[string][]string // per test, its lines in the stream being read
}

func newStreams() *streams {
	return &streams{byKey: map[string]*result{}, output: map[string][]string{}}
}

// read takes one stream. Lines that are not JSON events (go's build
// errors, a shell's) are passed over.
func (s *streams) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	clear(s.output)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "output":
			if line := strings.TrimSpace(e.Output); line != "" && !framing(line) {
				s.output[key] = append(s.output[key], line)
			}
		case "pass", "fail", "skip":
			r := s.byKey[key]
			if r == nil {
				r = &result{pkg: e.Package, test: e.Test}
				s.byKey[key] = r
			}
			r.elapsed = max(r.elapsed, e.Elapsed)
			switch e.Action {
			case "skip":
				r.skipped = true
				if out := s.output[key]; len(out) > 0 && !slices.Contains(r.reasons, out[len(out)-1]) {
					r.reasons = append(r.reasons, out[len(out)-1])
				}
			case "fail":
				r.ran, r.failed = true, true
				r.output = append(r.output, s.output[key]...)
			default:
				r.ran = true
			}
		}
	}
	return sc.Err()
}

// framing is a line go test writes around a test's own output.
func framing(line string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- FAIL", "--- SKIP"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// results lists the tests (with test true) or the packages, sorted by
// name.
func (s *streams) results(test bool, keep func(*result) bool) []*result {
	var out []*result
	for _, r := range s.byKey {
		if (r.test != "") == test && keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *result) int { return cmp.Or(cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.test, b.test)) })
	return out
}

func summary(args []string, stdin io.Reader, stdout io.Writer) error {
	fl := flag.NewFlagSet("summary", flag.ContinueOnError)
	requireAll := fl.Bool("require-all", false, "exit 1 when a test skipped in every stream (CI: every test runs)")
	top := fl.Int("top", 10, "how many of the slowest packages and tests to list")
	allow := fl.String("allow", "", "a regular expression: a test that skipped with a reason it matches is not counted by -require-all")
	if err := fl.Parse(args); err != nil {
		return err
	}
	s := newStreams()
	if fl.NArg() == 0 {
		if err := s.read(stdin); err != nil {
			return fmt.Errorf("read standard input: %w", err)
		}
	}
	for _, name := range fl.Args() {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = s.read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
	}
	expected, err := regexp.Compile(*allow)
	if err != nil {
		return fmt.Errorf("-allow: %w", err)
	}
	if *allow == "" {
		expected = nil
	}
	return s.write(stdout, *top, *requireAll, expected)
}

// write prints the report, and the error that ends the command. A test
// skipped with a reason that expected matches, in any stream, did not run
// as the runs meant.
func (s *streams) write(w io.Writer, top int, requireAll bool, expected *regexp.Regexp) error {
	ran := func(r *result) bool { return r.ran }
	slowest := func(rs []*result) []*result {
		slices.SortStableFunc(rs, func(a, b *result) int { return cmp.Compare(b.elapsed, a.elapsed) })
		return rs[:min(top, len(rs))]
	}
	fmt.Fprintln(w, "slowest packages (a test binary's run, build not included):")
	for _, r := range slowest(s.results(false, ran)) {
		fmt.Fprintf(w, "  %7s  %s\n", seconds(r.elapsed), r.pkg)
	}
	fmt.Fprintln(w, "slowest tests (top level; parallel tests overlap):")
	for _, r := range slowest(s.results(true, func(r *result) bool { return r.ran && !strings.Contains(r.test, "/") })) {
		fmt.Fprintf(w, "  %7s  %s %s\n", seconds(r.elapsed), short(r.pkg), r.test)
	}
	// A package fails without a failed test when its build fails, its
	// binary panics or times out, or TestMain fails.
	failed := append(s.results(false, func(r *result) bool { return r.failed }), s.results(true, func(r *result) bool { return r.failed })...)
	// A test that skipped wherever it appeared did not run; its subtests
	// are left out, their parent says why.
	notRun := s.results(true, func(r *result) bool { return r.skipped && !r.ran })
	notRun = slices.DeleteFunc(notRun, func(r *result) bool {
		parent, _, nested := cutLast(r.test, "/")
		p := s.byKey[r.pkg+"\x00"+parent]
		return nested && p != nil && p.skipped && !p.ran
	})
	var meant []*result
	if expected != nil {
		notRun = slices.DeleteFunc(notRun, func(r *result) bool {
			if slices.ContainsFunc(r.reasons, expected.MatchString) {
				meant = append(meant, r)
				return true
			}
			return false
		})
	}
	fmt.Fprintf(w, "did not run (%d; go test -json ./... | go run ./internal/testruns summary lists them):\n", len(notRun))
	for _, r := range notRun {
		fmt.Fprintf(w, "  %s %s: %s\n", short(r.pkg), r.test, cmp.Or(strings.Join(r.reasons, "; "), "(no reason given)"))
	}
	if len(meant) > 0 {
		fmt.Fprintf(w, "did not run, as this run means (%d):\n", len(meant))
		for _, r := range meant {
			fmt.Fprintf(w, "  %s %s: %s\n", short(r.pkg), r.test, strings.Join(r.reasons, "; "))
		}
	}
	for _, r := range failed {
		fmt.Fprintln(w, strings.TrimSpace("FAIL "+short(r.pkg)+" "+r.test))
		for _, line := range r.output {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	// The closing count, in the plain form CI systems read: every test and
	// subtest, a test that ran in any stream counted once.
	passed := len(s.results(true, func(r *result) bool { return r.ran && !r.failed }))
	failedTests := len(s.results(true, func(r *result) bool { return r.failed }))
	skipped := len(s.results(true, func(r *result) bool { return r.skipped && !r.ran }))
	fmt.Fprintf(w, "tests: %d passed, %d failed, %d skipped\n", passed, failedTests, skipped)
	switch {
	case len(failed) > 0:
		return fmt.Errorf("%d packages and tests failed", len(failed))
	case requireAll && len(notRun) > 0:
		return fmt.Errorf("%d tests did not run, and every test must run here: give each what it needs (docs/development.md says what)", len(notRun))
	}
	return nil
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// short is a package's path inside the module.
func short(pkg string) string {
	const module = "github.com/docs-publish/docs-publish"
	if rest, ok := strings.CutPrefix(pkg, module+"/"); ok {
		return rest
	}
	if pkg == module {
		return "."
	}
	return pkg
}

func seconds(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(100 * time.Millisecond).String()
}
