package ghaction

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/report"
)

// ghToken is shaped like a GitHub token: Markdown escapes its _.
const ghToken = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"

// onGitHub is a reporter as the runner starts the action, with the
// runner's files in dir (which tests may make unwritable).
func onGitHub(t *testing.T, outFile, sumFile string) (*Reporter, *bytes.Buffer) {
	t.Helper()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outFile, "GITHUB_STEP_SUMMARY": sumFile}
	var out bytes.Buffer
	r := NewReporter(func(k string) string { return env[k] }, &out, &out)
	r.Mask(ghToken)
	return r, &out
}

// withoutMasks is the log without the ::add-mask:: commands, which alone
// must hold the secret.
func withoutMasks(log string) string { return maskLines.ReplaceAllString(log, "") }

var maskLines = regexp.MustCompile(`(?m)^::add-mask::.*\n`)

// TestEachSinkScrubs writes the token through each sink, in the form that
// sink's own formatting gives it, and finds it in none of what is written.
// Each case fails when that one sink's scrub is taken away.
func TestEachSinkScrubs(t *testing.T) {
	t.Parallel()
	split := ghToken[:10] + "\n" + ghToken[10:]
	cases := []struct {
		name  string
		write func(r *Reporter)
		read  func(out string, dir string) string
	}{
		{"log line", func(r *Reporter) { r.Infof("answer: %s", split) }, logOf},
		{"debug line", func(r *Reporter) { r.debug = true; r.Debugf("answer: %s", split) }, logOf},
		{"annotation", func(r *Reporter) { r.Annotate(report.Error, "bad: "+split, report.Where{}) }, logOf},
		{"annotation's file", func(r *Reporter) { r.Annotate(report.Error, "x", report.Where{File: "a:" + ghToken}) }, logOf},
		{"group title", func(r *Reporter) { r.Group("build " + ghToken)() }, logOf},
		{"summary", func(r *Reporter) { r.Summary("| build | " + report.EscapeMarkdown(split) + " |\n") }, fileOf("sum")},
		{"printed text", func(r *Reporter) { r.Print(`{"error":{"message":"` + ghToken + `"}}`) }, logOf},
		{"logged text", func(r *Reporter) { r.PrintLog("Build: " + split + "\n") }, logOf},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r, out := onGitHub(t, filepath.Join(dir, "out"), filepath.Join(dir, "sum"))
			tc.write(r)
			got := tc.read(out.String(), dir)
			squeezed := strings.NewReplacer("\n", "", "%0A", "", "<br>", "", `\`, "").Replace(got)
			if strings.Contains(squeezed, ghToken[:10]) || strings.Contains(squeezed, ghToken[10:]) {
				t.Errorf("the token shows: %q", got)
			}
			if !strings.Contains(got, "***") {
				t.Errorf("nothing was written in its place: %q", got)
			}
		})
	}
}

// TestOutputHoldingASecretIsWithheld: an output whose value holds a
// secret, in any form, is set empty, with a warning that names it; its
// name and the record's syntax are never scrubbed, even when the secret is
// a word they hold.
func TestOutputHoldingASecretIsWithheld(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, secret, output, value string }{
		{"the token", ghToken, "build-id", ghToken},
		{"the token JSON-escaped", ghToken, "doc-url", `https://x/` + strings.ReplaceAll(ghToken, "_", `\u005f`)},
		{"a short token that is a word of the output's name", "docs", "docs-url", "https://docs.example/"},
		{"a short token that is a word of the value", "t", "live", "true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "out")}
			var out bytes.Buffer
			r := NewReporter(func(k string) string { return env[k] }, &out, &out)
			r.Mask(tc.secret)
			r.SetOutput(tc.output, tc.value)
			r.SetOutput("build-id-2", "12")
			b, _ := os.ReadFile(env["GITHUB_OUTPUT"])
			got, err := parseRecords(string(b))
			if err != nil {
				t.Fatalf("%v: %q", err, b)
			}
			if want := map[string]string{tc.output: "", "build-id-2": "12"}; tc.secret != "t" && !maps.Equal(got, want) {
				t.Errorf("GITHUB_OUTPUT = %q, want %q", got, want)
			}
			if _, ok := got[tc.output]; !ok || got[tc.output] != "" {
				t.Errorf("GITHUB_OUTPUT = %q, want %s empty", got, tc.output)
			}
			if !strings.Contains(out.String(), "::warning title=docs-publish::output "+tc.output+" is left empty: its value holds a secret") {
				t.Errorf("no warning names %s:\n%s", tc.output, out.String())
			}
		})
	}
}

// parseRecords reads GITHUB_OUTPUT as the runner does: name<<delimiter,
// the value's lines, the delimiter.
func parseRecords(file string) (map[string]string, error) {
	got := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			return nil, fmt.Errorf("line %d is no record's start: %q", i+1, lines[i])
		}
		var value []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			value = append(value, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("output %s has no end", name)
		}
		got[name] = strings.Join(value, "\n")
	}
	return got, nil
}

func logOf(out, _ string) string { return withoutMasks(out) }

func fileOf(name string) func(string, string) string {
	return func(_, dir string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
}

// TestRunnerFilesThatCannotBeWritten: each file the runner names, pointing
// where nothing can be written (as act's host mode does), is reported, and
// nothing panics.
func TestRunnerFilesThatCannotBeWritten(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-folder", "file")
	t.Run("GITHUB_OUTPUT", func(t *testing.T) {
		t.Parallel()
		r, _ := onGitHub(t, missing, filepath.Join(t.TempDir(), "sum"))
		if err := r.SetOutput("build-id", "1001"); err != nil {
			t.Errorf("SetOutput failed the run at once: %v", err)
		}
		r.SetOutput("zip-path", "x.zip")
		var fe *FileError
		err := r.OutputError()
		if !errors.As(err, &fe) || fe.Var != "GITHUB_OUTPUT" || !strings.Contains(err.Error(), "output build-id: cannot write GITHUB_OUTPUT") {
			t.Errorf("OutputError = %v", err)
		}
		if got := r.Outputs(); len(got) != 2 {
			t.Errorf("outputs recorded: %v", got)
		}
	})
	t.Run("GITHUB_STEP_SUMMARY", func(t *testing.T) {
		t.Parallel()
		r, out := onGitHub(t, filepath.Join(t.TempDir(), "out"), missing)
		r.Summary("### API docs published\n")
		if !strings.Contains(out.String(), "::warning title=docs-publish::the job summary is missing: cannot write GITHUB_STEP_SUMMARY") {
			t.Errorf("no warning: %q", out.String())
		}
		if r.OutputError() != nil {
			t.Error("a summary that cannot be written fails the outputs")
		}
	})
	t.Run("stdout", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"GITHUB_ACTIONS": "true"}
		r := NewReporter(func(k string) string { return env[k] }, brokenWriter{}, brokenWriter{})
		r.Mask(ghToken)
		r.Group("x")()
		r.Annotate(report.Error, "y", report.Where{})
		r.SetOutput("build-id", "1")
		r.PrintOutputs()
	})
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestReportsAreBounded: a line of the log (an annotation too) and the job
// summary stay within what GitHub takes, however long the text.
func TestReportsAreBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, out := onGitHub(t, filepath.Join(dir, "out"), filepath.Join(dir, "sum"))
	long := strings.Repeat("p", 60_000)
	r.Annotate(report.Warning, "breaking change: "+long, report.Where{File: "api/openapi.yaml", Line: 3})
	r.Infof("name %s", long)
	for _, l := range strings.Split(withoutMasks(out.String()), "\n") {
		if len(l) > maxLine {
			t.Errorf("a line of %d bytes", len(l))
		}
		if l != "" && !strings.Contains(l, "more characters)") {
			t.Errorf("a line cut without saying so: %.80s", l)
		}
	}
	row := "| " + strings.Repeat("x", 60_000) + " |\n"
	for range 20 { // 1.2 MB
		r.Summary(row)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sum"))
	if len(b) >= 1<<20 || !strings.HasSuffix(string(b), summaryCut) {
		t.Errorf("the summary is %d bytes, ending %q", len(b), b[max(0, len(b)-80):])
	}
}

// TestOutputLinesKeepTheirNames: off GitHub, outputs are name=value lines;
// a short secret that is a word of an output's name leaves the name whole,
// and the value that holds it is printed empty.
func TestOutputLinesKeepTheirNames(t *testing.T) {
	t.Parallel()
	var out, log bytes.Buffer
	r := NewReporter(func(string) string { return "" }, &out, &log)
	r.Mask("docs")
	r.SetOutput("docs-url", "https://docs.example/")
	r.SetOutput("doc-id", "17")
	r.PrintOutputs()
	if got, want := out.String(), "docs-url=\ndoc-id=17\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if !strings.Contains(log.String(), "warning: output docs-url is left empty") {
		t.Errorf("no warning names docs-url: %q", log.String())
	}
}
