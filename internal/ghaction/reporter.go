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

// Reporter reports a run: on GitHub through workflow commands and the
// runner's files, elsewhere as plain text (logs on stderr, outputs as
// name=value lines on stdout). It writes through the sinks, so everything
// it writes has the registered secrets scrubbed, and nothing it writes can
// panic: a file the runner gave that cannot be written is reported, never
// a crash.
type Reporter struct {
	onGitHub bool
	debug    bool
	secrets  *redact.Redactor
	log      *lineSink // workflow commands and log lines
	out      *lineSink // stdout: outputs and JSON off GitHub
	outputs  *fileSink // GITHUB_OUTPUT
	summary  *fileSink // GITHUB_STEP_SUMMARY

	mu        sync.Mutex
	recorded  []KV
	outputErr error // the first output that could not be written
}

// KV is one output.
type KV struct{ Name, Value string }

// NewReporter picks the face from the environment: GITHUB_ACTIONS=true means
// workflow commands; GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, when set, are
// the files outputs and the job summary are appended to. Without
// GITHUB_OUTPUT outputs are printed instead.
func NewReporter(getenv func(string) string, stdout, stderr io.Writer) *Reporter {
	secrets := redact.New()
	r := &Reporter{secrets: secrets, log: &lineSink{w: stderr, secrets: secrets}, out: &lineSink{w: stdout, secrets: secrets},
		outputs: &fileSink{env: "GITHUB_OUTPUT", secrets: secrets}, summary: &fileSink{env: "GITHUB_STEP_SUMMARY", secrets: secrets, max: maxSummary}}
	if getenv("GITHUB_ACTIONS") == "true" {
		r.onGitHub = true
		r.log.w = stdout
		r.out = r.log // one stream, one lock
		r.outputs.path = getenv("GITHUB_OUTPUT")
		r.summary.path = getenv("GITHUB_STEP_SUMMARY")
	}
	r.debug = getenv("RUNNER_DEBUG") == "1" || getenv("ACTIONS_STEP_DEBUG") == "true"
	return r
}

// OnGitHub reports whether workflow commands are in use.
func (r *Reporter) OnGitHub() bool { return r.onGitHub }

// Mask registers a secret: on GitHub the runner hides it (and the encoded
// forms it may be echoed in) in the log from now on, and every sink
// scrubs all of them from what it writes.
func (r *Reporter) Mask(secret string) {
	if secret == "" {
		return
	}
	r.secrets.Add(secret)
	if r.onGitHub {
		for _, form := range redact.Forms(secret) {
			r.log.raw(command("add-mask", nil, form))
		}
	}
}

// Secrets is the scrubber of the registered secrets, for the sinks that
// are not the reporter's: what is sent to GitHub, and file names.
func (r *Reporter) Secrets() *redact.Redactor { return r.secrets }

// command is a workflow command as the runner reads it, escaped by
// go-githubactions.
func command(name string, props map[string]string, msg string) string {
	c := githubactions.Command{Name: name, Message: msg, Properties: props}
	return c.String()
}

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

// Infof logs a line.
func (r *Reporter) Infof(format string, args ...any) {
	r.log.line(OneLine(fmt.Sprintf(format, args...)))
}

// Debugf logs a line only when step debugging is on.
func (r *Reporter) Debugf(format string, args ...any) {
	if !r.debug {
		return
	}
	msg := defuse(fmt.Sprintf(format, args...))
	if r.onGitHub {
		r.log.line(command("debug", nil, msg))
		return
	}
	r.log.line("debug: " + OneLine(msg))
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
	msg = defuse(msg)
	at.File = defuse(at.File)
	if !r.onGitHub {
		r.log.line(fmt.Sprintf("%s%s: %s", OneLine(prefix(at)), level, OneLine(msg)))
		return
	}
	name := map[report.Level]string{report.Error: "error", report.Warning: "warning"}[level]
	if name == "" {
		name = "notice"
	}
	r.log.line(command(name, properties(at), msg))
}

// Group starts a collapsible log group; call the returned func to end it.
func (r *Reporter) Group(title string) func() {
	title = defuse(title)
	if !r.onGitHub {
		r.log.line("== " + OneLine(title))
		return func() {}
	}
	r.log.line(command("group", nil, title))
	return func() { r.log.line(command("endgroup", nil, "")) }
}

// SetOutput records an output. On GitHub it goes to GITHUB_OUTPUT at once;
// elsewhere the outputs are printed by PrintOutputs. A value no output may
// hold is an error; a GITHUB_OUTPUT that cannot be written is not, so that
// the run goes on: OutputError tells it at the end.
func (r *Reporter) SetOutput(name, value string) error {
	if strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("output %s: value has a line break, which no output of this action may hold", name)
	}
	if strings.Contains(value, "_GitHubActionsFileCommandDelimeter_") {
		return fmt.Errorf("output %s: value holds the GITHUB_OUTPUT delimiter", name)
	}
	r.mu.Lock()
	r.recorded = append(r.recorded, KV{name, value})
	r.mu.Unlock()
	if !r.outputs.set() {
		return nil
	}
	rec, err := outputRecord(name, value)
	if err == nil {
		err = r.outputs.append(rec, "")
	}
	if err != nil {
		r.mu.Lock()
		if r.outputErr == nil {
			r.outputErr = fmt.Errorf("output %s: %w", name, err)
		}
		r.mu.Unlock()
	}
	return nil
}

// OutputError is the first output that could not be written to
// GITHUB_OUTPUT, or nil.
func (r *Reporter) OutputError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outputErr
}

// Outputs returns the outputs set so far, in order, as the run set them
// (secrets unscrubbed: a sink scrubs them where they are written).
func (r *Reporter) Outputs() []KV {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]KV(nil), r.recorded...)
}

// PrintOutputs prints name=value lines on stdout when there is no
// GITHUB_OUTPUT file to write them to.
func (r *Reporter) PrintOutputs() {
	if r.outputs.set() {
		return
	}
	for _, kv := range r.Outputs() {
		r.out.line(kv.Name + "=" + defuse(kv.Value)) // plain values are unchanged
	}
}

// Print writes text, of one line or more, on stdout: the CLI's JSON.
func (r *Reporter) Print(text string) { r.out.text(text) }

// PrintLog writes text, of one line or more, to the log: the CLI's
// plain-text summary.
func (r *Reporter) PrintLog(text string) { r.log.text(text) }

// summaryCut ends a job summary cut short to fit GitHub's bound.
const summaryCut = "\n\n*The summary is cut short here: GitHub takes at most 1 MiB of summary from a step.*\n"

// Summary appends markdown to the job summary on GitHub; elsewhere it does
// nothing (the CLI prints its own plain text). A summary that cannot be
// written is a warning: the run's outcome stands.
func (r *Reporter) Summary(markdown string) {
	if !r.summary.set() {
		return
	}
	if err := r.summary.append(markdown, summaryCut); err != nil {
		r.Annotate(report.Warning, fmt.Sprintf("the job summary is missing: %v. The run's outcome is as the log says.", err), report.Where{})
	}
}

// HasSummary reports whether a job summary file is being written.
func (r *Reporter) HasSummary() bool { return r.summary.set() }
