package ghaction

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/sethvargo/go-githubactions"
)

// Reporter reports a run: on GitHub through workflow commands and file
// commands, elsewhere as plain text (logs on stderr, outputs as name=value
// lines on stdout). Every line it writes has the registered secrets scrubbed.
type Reporter struct {
	gh      *githubactions.Action // nil off GitHub
	files   bool                  // GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are set
	stdout  io.Writer
	log     io.Writer
	debug   bool
	secrets redact.Redactor
	mu      sync.Mutex
	outputs []KV
}

// KV is one output.
type KV struct{ Name, Value string }

// NewReporter picks the face from the environment: GITHUB_ACTIONS=true means
// workflow commands; GITHUB_OUTPUT set means outputs go to that file.
// go-githubactions panics when a file command's variable is unset, so
// without GITHUB_OUTPUT outputs are printed instead.
func NewReporter(getenv func(string) string, stdout, stderr io.Writer) *Reporter {
	r := &Reporter{stdout: stdout, log: stderr}
	if getenv("GITHUB_ACTIONS") == "true" {
		r.gh = githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(stdout))
		r.log = stdout
		r.files = getenv("GITHUB_OUTPUT") != "" && getenv("GITHUB_STEP_SUMMARY") != ""
	}
	r.debug = getenv("RUNNER_DEBUG") == "1" || getenv("ACTIONS_STEP_DEBUG") == "true"
	return r
}

// OnGitHub reports whether workflow commands are in use.
func (r *Reporter) OnGitHub() bool { return r.gh != nil }

// Mask registers a secret: on GitHub the runner hides it (and the encoded
// forms it may be echoed in) in the log from now on, and the reporter
// scrubs all of them from everything it writes.
func (r *Reporter) Mask(secret string) {
	if secret == "" {
		return
	}
	r.secrets.Add(secret)
	if r.gh != nil {
		for _, form := range redact.Forms(secret) {
			r.gh.AddMask(form)
		}
	}
}

// Scrub replaces every registered secret, in every form, in s.
func (r *Reporter) Scrub(s string) string { return r.secrets.Redact(s) }

// OneLine makes text safe as one line of the log: line breaks escaped as
// the runner escapes them in workflow commands, and no command of the
// runner's (or another CI system's) left in it, so that text from the
// service can never issue one.
func OneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r", "%0D", "\n", "%0A").Replace(s)
	}
	s = defuse(s)
	// The runner reads a line that starts with :: after leading blanks.
	if t := strings.TrimLeft(s, " \t\v\f\u00a0\ufeff"); strings.HasPrefix(t, "::") {
		s = "> " + s
	}
	return s
}

// defuse breaks the commands the runner (and Azure Pipelines) act on
// anywhere in a line: ##[command] and ##vso[command].
var defuse = strings.NewReplacer("##[", "## [", "##vso[", "## vso[", "##VSO[", "## VSO[").Replace

// line is msg scrubbed of secrets and made one line.
func (r *Reporter) line(msg string) string { return OneLine(r.Scrub(msg)) }

// Infof logs a line.
func (r *Reporter) Infof(format string, args ...any) {
	fmt.Fprintln(r.log, r.line(fmt.Sprintf(format, args...)))
}

// Debugf logs a line only when step debugging is on.
func (r *Reporter) Debugf(format string, args ...any) {
	if !r.debug {
		return
	}
	msg := defuse(r.Scrub(fmt.Sprintf(format, args...)))
	if r.gh != nil {
		r.gh.Debugf("%s", msg) // go-githubactions escapes the line breaks
		return
	}
	fmt.Fprintln(r.log, "debug: "+OneLine(msg))
}

// properties are an annotation's workflow-command properties. An
// annotation not tied to a file is titled with the program's name.
func properties(at report.Where) map[string]string {
	m := map[string]string{}
	if at.File == "" {
		m["title"] = "docs-publish"
		return m
	}
	m["file"] = at.File
	if at.Line > 0 {
		m["line"] = fmt.Sprint(at.Line)
	}
	if at.Col > 0 {
		m["col"] = fmt.Sprint(at.Col)
	}
	return m
}

// prefix is where an annotation is about, in front of it off GitHub.
func prefix(at report.Where) string {
	switch {
	case at.File == "":
		return ""
	case at.Line == 0:
		return at.File + ": "
	case at.Col == 0:
		return fmt.Sprintf("%s:%d: ", at.File, at.Line)
	}
	return fmt.Sprintf("%s:%d:%d: ", at.File, at.Line, at.Col)
}

// Annotate reports msg at level: on GitHub an annotation (on the file's line
// in a pull request, when it has a place), elsewhere a line on stderr.
func (r *Reporter) Annotate(level report.Level, msg string, at report.Where) {
	msg = defuse(r.Scrub(msg))
	at.File = defuse(r.Scrub(at.File))
	if r.gh == nil {
		fmt.Fprintf(r.log, "%s%s: %s\n", OneLine(prefix(at)), level, OneLine(msg))
		return
	}
	// go-githubactions escapes line breaks in the message and properties.
	a := r.gh.WithFieldsMap(properties(at))
	switch level {
	case report.Error:
		a.Errorf("%s", msg)
	case report.Warning:
		a.Warningf("%s", msg)
	default:
		a.Noticef("%s", msg)
	}
}

// Group starts a collapsible log group; call the returned func to end it.
func (r *Reporter) Group(title string) func() {
	title = defuse(r.Scrub(title))
	if r.gh == nil {
		fmt.Fprintf(r.log, "== %s\n", OneLine(title))
		return func() {}
	}
	r.gh.Group(title) // go-githubactions escapes the line breaks
	return r.gh.EndGroup
}

// SetOutput records an output. On GitHub it goes to GITHUB_OUTPUT at once;
// elsewhere the outputs are printed by PrintOutputs.
func (r *Reporter) SetOutput(name, value string) error {
	if strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("output %s: value has a line break, which no output of this action may hold", name)
	}
	if strings.Contains(value, "_GitHubActionsFileCommandDelimeter_") {
		return fmt.Errorf("output %s: value holds the GITHUB_OUTPUT delimiter", name)
	}
	value = r.Scrub(value)
	r.mu.Lock()
	r.outputs = append(r.outputs, KV{name, value})
	r.mu.Unlock()
	if r.files {
		r.gh.SetOutput(name, value)
	}
	return nil
}

// Outputs returns the outputs set so far, in order.
func (r *Reporter) Outputs() []KV {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]KV(nil), r.outputs...)
}

// PrintOutputs prints name=value lines on stdout when there is no
// GITHUB_OUTPUT file to write them to.
func (r *Reporter) PrintOutputs() {
	if r.files {
		return
	}
	for _, kv := range r.Outputs() {
		fmt.Fprintf(r.stdout, "%s=%s\n", kv.Name, defuse(kv.Value)) // plain values are unchanged
	}
}

// Summary appends markdown to the job summary on GitHub; elsewhere it does
// nothing (the CLI prints its own plain text).
func (r *Reporter) Summary(markdown string) {
	if r.files {
		r.gh.AddStepSummary(r.Scrub(markdown))
	}
}

// HasSummary reports whether a job summary file is being written.
func (r *Reporter) HasSummary() bool { return r.files }
