// Package report is the vocabulary a run reports in: the level of an
// annotation, the place in a file it is about, and the Reporter the flow
// reports through (the GitHub Actions face implements it in ghaction; tests
// record it).
package report

// Level is how serious an annotation is.
type Level string

// The levels, as the runner names them.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Notice  Level = "notice"
)

// Where is the place in a file an annotation is about. The zero value is
// no place: the annotation is about the run.
type Where struct {
	File      string // relative to the workspace
	Line, Col int    // 1-based; zero when unknown
}

// Reporter is what a run needs of the outside world's log and outputs.
type Reporter interface {
	// Group starts a collapsible group of log lines; end closes it.
	Group(title string) (end func())
	// Infof logs a line.
	Infof(format string, args ...any)
	// Debugf logs a line when step debugging is on.
	Debugf(format string, args ...any)
	// Annotate reports a message at a level, at a place when it has one.
	Annotate(level Level, msg string, at Where)
	// SetOutput records an output of the step.
	SetOutput(name, value string) error
}
