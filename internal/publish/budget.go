package publish

import (
	"fmt"
	"sync"

	"github.com/docs-publish/docs-publish/internal/report"
)

// annotationsPerLevel is how many annotations of each level GitHub shows
// for a step: ten errors and ten warnings (fifty per job); it drops the
// rest without a word.
const annotationsPerLevel = 10

// budget is what is left of GitHub's annotations in a run, per level. The
// description's findings and the breaking changes share it. An error
// annotation ends the run, and the run's final error, which says why, is an
// annotation too: it keeps its place among the ten.
type budget struct {
	mu               sync.Mutex // the descriptions of a run share it
	errors, warnings int
}

func newBudget() *budget {
	return &budget{errors: annotationsPerLevel - 1, warnings: annotationsPerLevel}
}

// annotate annotates msg at level if the level's budget has room, and
// reports whether it did. Notices are not counted.
func (b *budget) annotate(rep report.Reporter, level report.Level, msg string, at report.Where) bool {
	left := &b.warnings
	switch level {
	case report.Error:
		left = &b.errors
	case report.Notice:
		rep.Annotate(level, msg, at)
		return true
	}
	b.mu.Lock()
	room := *left > 0
	if room {
		*left--
	}
	b.mu.Unlock()
	if !room {
		return false
	}
	rep.Annotate(level, msg, at)
	return true
}

// maxUnannotated bounds the lines listUnannotated logs, as the job
// summary's tables are bounded: a change to a schema that a thousand
// operations share is a thousand changes, and would be as many lines.
const maxUnannotated = 1000

// listUnannotated says in a notice how many of what were not annotated, and
// lists them in the log, one line each, up to maxUnannotated of them.
func listUnannotated(rep report.Reporter, what, listedIn string, lines []string) {
	if len(lines) == 0 {
		return
	}
	rep.Annotate(report.Notice, fmt.Sprintf("%d more %s are not annotated (GitHub shows %d of each level): %s list them", len(lines), what, annotationsPerLevel, listedIn), report.Where{})
	end := rep.Group(fmt.Sprintf("%d %s not annotated", len(lines), what))
	for _, l := range lines[:min(len(lines), maxUnannotated)] {
		rep.Infof("%s", l)
	}
	if n := len(lines) - maxUnannotated; n > 0 {
		rep.Infof("and %d more %s, not listed: the log lists the first %d", n, what, maxUnannotated)
	}
	end()
}
