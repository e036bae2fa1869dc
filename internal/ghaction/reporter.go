package ghaction

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
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
	maxJSON  int       // bound of a JSON output: maxJSONOutput

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
		outputs: &fileSink{env: "GITHUB_OUTPUT", secrets: secrets}, summary: &fileSink{env: "GITHUB_STEP_SUMMARY", secrets: secrets, max: maxSummary},
		maxJSON: maxJSONOutput}
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
// scrubs it, in every form, from what it writes. A secret too short to be
// told from ordinary text is warned of first: it will be hidden wherever
// it shows, in words and numbers too, and every output that holds it
// withheld.
func (r *Reporter) Mask(secret string) {
	if secret == "" {
		return
	}
	if len(secret) < redact.MinDistinct && !r.secrets.Has(secret) {
		// The warning holds no part of the secret, only its length.
		r.warnFixed(fmt.Sprintf("a secret given to this run (token or github-token) is only %s long, "+
			"too short to be told from ordinary text: it is hidden as %s wherever it shows, in words, numbers, ids and addresses too, "+
			"and an output that holds it is left empty. Use the service's real token.",
			report.Plural(len([]rune(secret)), "character"), redact.Mask))
	}
	r.secrets.Add(secret)
	if r.onGitHub {
		for _, form := range redact.Forms(secret) {
			r.log.raw("::add-mask::" + escapeData(form))
		}
	}
}

// Secrets is the scrubber of the registered secrets, for the sinks that
// are not the reporter's: what is sent to GitHub, and file names.
func (r *Reporter) Secrets() *redact.Redactor { return r.secrets }

// Infof logs a line.
func (r *Reporter) Infof(format string, args ...any) {
	r.log.line(fmt.Sprintf(format, args...))
}

// Debugf logs a line only when step debugging is on.
func (r *Reporter) Debugf(format string, args ...any) {
	if !r.debug {
		return
	}
	msg := defuse(fmt.Sprintf(format, args...))
	if r.onGitHub {
		r.log.command("debug", nil, msg)
		return
	}
	r.log.line("debug: " + msg)
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
		r.log.line(fmt.Sprintf("%s%s: %s", prefix(at), level, msg))
		return
	}
	name := map[report.Level]string{report.Error: "error", report.Warning: "warning"}[level]
	if name == "" {
		name = "notice"
	}
	r.log.command(name, properties(at), msg)
}

// warnFixed warns with text made of the program's own words and names
// alone (see lineSink.fixedCommand).
func (r *Reporter) warnFixed(msg string) {
	if !r.onGitHub {
		r.log.write(fmt.Sprintf("%s: %s\n", report.Warning, msg))
		return
	}
	r.log.fixedCommand("warning", properties(report.Where{}), msg)
}

// Group starts a collapsible log group; call the returned func to end it.
func (r *Reporter) Group(title string) func() {
	title = defuse(title)
	if !r.onGitHub {
		r.log.line("== " + title)
		return func() {}
	}
	r.log.command("group", nil, title)
	return func() { r.log.command("endgroup", nil, "") }
}

// SetOutput records an output. On GitHub it goes to GITHUB_OUTPUT at once;
// elsewhere the outputs are printed by PrintOutputs. A value no output may
// hold is an error; a GITHUB_OUTPUT that cannot be written is not, so that
// the run goes on: OutputError tells it at the end. A value that holds a
// secret, in any form, is withheld: the output is set, empty, so that a
// later step or a script reads every output it expects, and a warning
// names it. The output's name is never scrubbed.
func (r *Reporter) SetOutput(name, value string) error { return r.setOutput(name, value, false) }

// setOutput records an output; a value scrubbed already (JSON, whose
// names are the program's own) is not withheld for what the scrub left.
func (r *Reporter) setOutput(name, value string, scrubbed bool) error {
	if strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("output %s: value has a line break, which no output of this action may hold", name)
	}
	if strings.Contains(value, "_GitHubActionsFileCommandDelimeter_") {
		return fmt.Errorf("output %s: value holds the GITHUB_OUTPUT delimiter", name)
	}
	if !scrubbed && r.secrets.Has(value) {
		r.warnFixed(fmt.Sprintf("output %s is left empty: its value holds a secret, which no output shows", name))
		value = ""
	}
	r.mu.Lock()
	r.recorded = append(r.recorded, KV{name, value})
	r.mu.Unlock()
	if !r.outputs.set() {
		return nil
	}
	if err := r.outputs.record(name, value, scrubbed); err != nil {
		r.mu.Lock()
		if r.outputErr == nil {
			r.outputErr = fmt.Errorf("output %s: %w", name, err)
		}
		r.mu.Unlock()
	}
	return nil
}

// SetJSONOutput records an output whose value is a JSON text: each string
// in it that holds a secret is scrubbed, as PrintJSON does, rather than the
// whole value withheld, so that one message that echoes a token costs
// later steps that message alone. Scrubbed, the value is then fitted
// within r.maxJSON by cutting its longest strings (see fitJSON).
func (r *Reporter) SetJSONOutput(name, value string) error {
	value, cut := fitJSON(strings.TrimSuffix(scrubJSON(value, r.secrets), "\n"), r.maxJSON)
	if cut > 0 {
		r.warnFixed(fmt.Sprintf("output %s: %s cut short to keep it within %d KiB, as GitHub takes 1 MB of outputs a job; "+
			"a file written with the report input holds them whole", name, report.Plural(cut, "string"), r.maxJSON>>10))
	}
	return r.setOutput(name, value, true)
}

// ScrubJSON is a JSON text with every secret scrubbed, its shape kept, for
// a file the run writes for later steps (the report file).
func (r *Reporter) ScrubJSON(text string) string { return scrubJSON(text, r.secrets) }

// OutputError is the first output that could not be written to
// GITHUB_OUTPUT, or nil.
func (r *Reporter) OutputError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outputErr
}

// Outputs returns the outputs set so far, in order, as the run set them
// (a value that held a secret withheld).
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
		r.out.output(kv.Name, kv.Value)
	}
}

// Print writes text, of one line or more, on stdout: the CLI's help.
func (r *Reporter) Print(text string) { r.out.text(text) }

// PrintJSON writes a JSON text on stdout, its syntax and its object's
// names as they are, a value that holds a secret scrubbed (see scrubJSON).
func (r *Reporter) PrintJSON(text string) { r.out.json(text) }

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
