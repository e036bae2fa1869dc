package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
)

// summaries is the job summary of a run of several descriptions: the
// outcome, a row per description, and each description's details below.
type summaries struct {
	cfgs    []publish.Config
	results []*publish.Result
	runErr  error
	total   time.Duration
}

// headline is the run's outcome in a few words.
func (s *summaries) headline() (icon, title string) {
	c := publish.CountOf(s.outcomes())
	var re *publish.RunsError
	switch {
	case s.runErr == nil && c.Checked == c.Descriptions:
		return "🔍", fmt.Sprintf("%d descriptions checked: nothing was sent", c.Descriptions)
	case s.runErr == nil:
		return "✅", fmt.Sprintf("%d of %d descriptions published", c.Published, c.Descriptions)
	case errors.As(s.runErr, &re) && !re.Sent:
		return "❌", fmt.Sprintf("%d of %d descriptions failed the check: nothing was sent", c.Failed, c.Descriptions)
	}
	return "❌", fmt.Sprintf("%d of %d descriptions failed; %d published", c.Failed, c.Descriptions, c.Published)
}

func (s *summaries) outcomes() []publish.Outcome {
	out := make([]publish.Outcome, len(s.results))
	for i, r := range s.results {
		out[i] = publish.OutcomeOf(r)
	}
	return out
}

// outcomeWords is a description's outcome in the table.
var outcomeWords = map[string]string{
	publish.OutcomePublished: "✅ published",
	publish.OutcomeChecked:   "🔍 checked, nothing sent",
	publish.OutcomeHeld:      "⏸️ not sent: another description failed its check",
	publish.OutcomeFailed:    "❌ failed",
}

// markdown renders the job summary. Everything that comes from the config
// file, the service or a description is escaped.
func (s *summaries) markdown() string {
	var b strings.Builder
	icon, title := s.headline()
	fmt.Fprintf(&b, "### %s %s\n\n", icon, title)
	b.WriteString("| # | file | project | doc | build | outcome | API changes | docs |\n|---:|---|---|---|---|---|---|---|\n")
	for i, o := range s.outcomes() {
		outcome := outcomeWords[o.Outcome]
		if o.Error != nil {
			outcome += " at " + escapeCell(o.Error.Step)
		}
		docs := ""
		if u := docsLink(s.results[i]); u != "" {
			docs = "<" + u + ">"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", i, escapeCell(o.File), escapeCell(o.ProjectID), escapeCell(o.DocID),
			escapeCell(o.BuildID), outcome, changesRow(s.results[i].Changes, true), docs)
	}
	for i, r := range s.results {
		fmt.Fprintf(&b, "\n### descriptions[%d]: %s\n\n", i, escapeCell(r.File))
		// A description's total is its own steps': the run's wall time is
		// at the end, and the descriptions ran side by side within it.
		one := newSummary(s.cfgs[i], r, r.Err, stepsTotal(r.Steps))
		one.deeper = 1
		b.WriteString(one.markdown())
	}
	fmt.Fprintf(&b, "\n*Took %s in all.*\n", s.total.Round(time.Millisecond))
	return b.String()
}

// stepsTotal is how long the steps took together.
func stepsTotal(steps []publish.StepTime) time.Duration {
	var total time.Duration
	for _, st := range steps {
		total += st.Duration
	}
	return total
}

// text renders the summary as plain text, for the CLI's stderr: a line per
// description.
func (s *summaries) text() string {
	var b strings.Builder
	_, title := s.headline()
	fmt.Fprintf(&b, "docs-publish: %s\n", title)
	for i, o := range s.outcomes() {
		line := fmt.Sprintf("  [%d] %s: %s", i, o.File, o.Outcome)
		if o.BuildID != "" {
			line += fmt.Sprintf(", doc %s, build %s", o.DocID, o.BuildID)
		}
		if o.Error != nil {
			line += " at " + o.Error.Step
		}
		b.WriteString(ghaction.OneLine(line) + "\n")
	}
	fmt.Fprintf(&b, "  %-20s %s\n", "total:", s.total.Round(time.Millisecond))
	return b.String()
}

// writeSummaries writes the job summary of several descriptions on GitHub,
// or a short plain-text one on stderr elsewhere.
func writeSummaries(rep *ghaction.Reporter, cfgs []publish.Config, results []*publish.Result, runErr error, total time.Duration) {
	s := &summaries{cfgs: cfgs, results: results, runErr: runErr, total: total}
	switch {
	case rep.HasSummary():
		rep.Summary(s.markdown())
	case !rep.OnGitHub():
		rep.PrintLog(s.text())
	}
}
