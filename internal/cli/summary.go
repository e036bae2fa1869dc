package cli

import (
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/docs-publish/docs-publish/internal/report"
)

// summary is what the job summary says of a run.
type summary struct {
	file   string // the description, as the file input names it
	res    *publish.Result
	runErr error
	rows   [][2]string // label, value; rows without a value are left out
}

func newSummary(cfg publish.Config, res *publish.Result, runErr error, total time.Duration) *summary {
	s := &summary{file: cfg.File, res: res, runErr: runErr}
	s.add("Project", cfg.ProjectID)
	s.add("File", res.FileName)
	s.add("Branch", res.Branch)
	s.add("Commit message", res.CommitMessage)
	s.add("Doc", res.DocID)
	s.add("Build", res.BuildID)
	if res.BuildID != "" {
		s.add("Live", fmt.Sprint(res.Live))
		s.add("Build outcome", buildOutcome(res.BuildState))
	}
	s.add("Docs URL", res.DocsURL)
	s.add("Bundle", res.BundlePath)
	if res.ZipPath != "" {
		s.add("Zip", res.ZipPath)
		s.add("Zip size", fmt.Sprintf("%d bytes", res.ZipSize))
		s.add("Zip sha256", res.ZipSHA256)
	}
	s.add("Site", res.SitePath)
	s.add("API changes", changesRow(res.Changes))
	for _, st := range res.Steps {
		s.add("Step: "+st.Step.String(), st.Duration.Round(time.Millisecond).String())
	}
	s.add("Total", total.Round(time.Millisecond).String())
	return s
}

func (s *summary) add(label, value string) {
	if value != "" {
		s.rows = append(s.rows, [2]string{label, value})
	}
}

// markdown renders the summary for GitHub's job summary.
func (s *summary) markdown() string {
	var b strings.Builder
	switch {
	case s.runErr != nil:
		fmt.Fprintf(&b, "### ❌ docs-publish failed at: %s\n\n%s\n\n", s.res.FailedStep, report.EscapeMarkdown(s.runErr.Error()))
	case s.res.DryRun:
		b.WriteString("### Dry run: nothing was sent\n\n")
	default:
		b.WriteString("### ✅ API docs published\n\n")
	}
	if s.res.DocsURL != "" {
		fmt.Fprintf(&b, "**Docs:** <%s>\n\n", s.res.DocsURL)
	}
	b.WriteString("| | |\n|---|---|\n")
	for _, r := range s.rows {
		fmt.Fprintf(&b, "| %s | %s |\n", r[0], report.EscapeMarkdown(r[1]))
	}
	if c := s.res.Changes; c != nil {
		b.WriteString("\n#### API changes\n\n")
		b.WriteString(publish.ChangesMarkdown(c, s.file))
		if u, err := url.Parse(c.CommentURL); err == nil && u.Scheme == "https" && !strings.ContainsAny(c.CommentURL, " <>") {
			fmt.Fprintf(&b, "\nOn the pull request: <%s>\n", c.CommentURL)
		}
	}
	if fs := s.res.Findings; len(fs) > 0 {
		fmt.Fprintf(&b, "\n#### Findings in the description (%d)\n\n| | where | message |\n|---|---|---|\n", len(fs))
		for i, f := range fs {
			if i == maxSummaryFindings {
				fmt.Fprintf(&b, "| | | and %d more |\n", len(fs)-i)
				break
			}
			icon := "⚠️"
			if f.Severity == openapi.Error {
				icon = "❌"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", icon, report.EscapeMarkdown(fmt.Sprintf("%s:%d:%d", f.File, f.Pos.Line, f.Pos.Col)), report.EscapeMarkdown(f.Msg))
		}
	}
	return b.String()
}

// text renders the summary as plain text, for the CLI's stderr.
func (s *summary) text() string {
	var b strings.Builder
	switch {
	case s.runErr != nil:
		fmt.Fprintf(&b, "docs-publish failed at: %s\n", s.res.FailedStep)
	case s.res.DryRun:
		b.WriteString("docs-publish: dry run, nothing was sent\n")
	default:
		b.WriteString("docs-publish: published\n")
	}
	for _, r := range s.rows {
		fmt.Fprintf(&b, "  %-16s %s\n", r[0]+":", ghaction.OneLine(r[1]))
	}
	return b.String()
}

// writeSummary writes the job summary on GitHub, or a short plain-text one
// on stderr elsewhere.
func writeSummary(rep *ghaction.Reporter, stderr io.Writer, cfg publish.Config, res *publish.Result, runErr error, total time.Duration) {
	s := newSummary(cfg, res, runErr, total)
	switch {
	case rep.HasSummary():
		rep.Summary(s.markdown())
	case !rep.OnGitHub():
		io.WriteString(stderr, rep.Scrub(s.text()))
	}
}

// buildOutcome says what is known of the released build.
func buildOutcome(state string) string {
	switch state {
	case publish.BuildReady:
		return "built"
	case publish.BuildFailed:
		return "failed"
	case publish.BuildUnchecked:
		return "unknown: not checked (wait-for-build: false)"
	}
	return "unknown: the run stopped before the build finished"
}

// maxSummaryFindings bounds the findings table: GitHub refuses a job summary
// over 1 MiB.
const maxSummaryFindings = 500

// changesRow is the comparison with the base in a few words.
func changesRow(c *publish.Comparison) string {
	switch {
	case c == nil:
		return ""
	case c.New:
		return "the description is new at " + c.Base
	case c.Report == nil:
		return "not compared: " + c.Skipped
	}
	r := c.Report
	return fmt.Sprintf("%d breaking, %d warnings, %d other, against %s",
		r.Count(apidiff.Breaking), r.Count(apidiff.Warning), r.Count(apidiff.Info), c.Base)
}
