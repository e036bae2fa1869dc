package publish

import (
	"fmt"
	"sync"

	"github.com/docs-publish/docs-publish/internal/report"
)

// unitReporter is the reporter of one description among several that run
// at once. It keeps what the description logs and annotates, and flush
// writes it through the run's reporter in one piece, each group titled
// with the description's label, so that the lines of descriptions under
// way at once do not interleave. Outputs are the run's (results, counts),
// not a description's: SetOutput keeps nothing.
type unitReporter struct {
	parent  report.Reporter
	label   string
	writing *sync.Mutex // the run's: one description flushes at a time

	mu      sync.Mutex
	entries []entry
}

// entry is one call kept for flush.
type entry struct {
	kind  byte // 'g' group, 'e' end of group, 'i' info, 'd' debug, 'a' annotation
	text  string
	level report.Level
	at    report.Where
}

func newUnitReporter(parent report.Reporter, label string, writing *sync.Mutex) *unitReporter {
	return &unitReporter{parent: parent, label: label, writing: writing}
}

func (r *unitReporter) keep(e entry) {
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
}

// Group implements report.Reporter.
func (r *unitReporter) Group(title string) func() {
	r.keep(entry{kind: 'g', text: title})
	return func() { r.keep(entry{kind: 'e'}) }
}

// Infof implements report.Reporter.
func (r *unitReporter) Infof(format string, args ...any) {
	r.keep(entry{kind: 'i', text: fmt.Sprintf(format, args...)})
}

// Debugf implements report.Reporter.
func (r *unitReporter) Debugf(format string, args ...any) {
	r.keep(entry{kind: 'd', text: fmt.Sprintf(format, args...)})
}

// Annotate implements report.Reporter. An annotation at no place in a file
// names the description it is about.
func (r *unitReporter) Annotate(level report.Level, msg string, at report.Where) {
	r.keep(entry{kind: 'a', text: msg, level: level, at: at})
}

// SetOutput implements report.Reporter: a description's outputs are in
// its Result.
func (r *unitReporter) SetOutput(name, value string) error { return nil }

// flush writes what was kept through the parent, and forgets it. Lines
// outside any group go in a group named after the description.
func (r *unitReporter) flush() {
	r.mu.Lock()
	entries := r.entries
	r.entries = nil
	r.mu.Unlock()
	if len(entries) == 0 {
		return
	}
	r.writing.Lock()
	defer r.writing.Unlock()
	// A group is opened when its first line comes, so that none is empty.
	var end func()
	title := r.label
	line := func() {
		if title == "" {
			return
		}
		if end != nil {
			end()
		}
		end, title = r.parent.Group(title), ""
	}
	for _, e := range entries {
		switch e.kind {
		case 'g':
			title = r.label + ": " + e.text
		case 'e':
			title = r.label
		case 'i':
			line()
			r.parent.Infof("%s", e.text)
		case 'd':
			line()
			r.parent.Debugf("%s", e.text)
		case 'a':
			line()
			msg := e.text
			if e.at.File == "" {
				msg = r.label + ": " + msg
			}
			r.parent.Annotate(e.level, msg, e.at)
		}
	}
	if end != nil {
		end()
	}
}
