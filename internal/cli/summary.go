package cli

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/docs-publish/docs-publish/internal/report"
)

// summary is what the job summary says of a run: the outcome and where the
// docs are first, then the facts, the steps' timings, the API changes and
// the findings in the description.
type summary struct {
	cfg    publish.Config
	res    *publish.Result
	runErr error
	total  time.Duration
	facts  []fact // facts without a value are left out
	// deeper is how many levels below a summary of its own the summary's
	// headings are: one description's details among several.
	deeper int
}

func newSummary(cfg publish.Config, res *publish.Result, runErr error, total time.Duration) *summary {
	s := &summary{cfg: cfg, res: res, runErr: runErr, total: total}
	s.fact("Project", cfg.ProjectID)
	s.fact("File", res.FileName)
	s.fact("Branch", res.Branch)
	// A commit message is copied as it is: the default one names the
	// repository and the commit (acme/pets@1a2b3c4).
	s.add(fact{label: "Commit message", value: res.CommitMessage, md: report.CodeSpan(res.CommitMessage)})
	s.fact("Doc", res.DocID)
	s.fact("Build", res.BuildID)
	if res.BuildID != "" {
		s.fact("Live", liveWords(res))
		s.fact("Build outcome", buildOutcome(res.BuildState))
	}
	s.fact("Bundle", res.BundlePath)
	if res.ZipPath != "" {
		s.fact("Zip", res.ZipPath)
		s.fact("Zip size", fmt.Sprintf("%d bytes", res.ZipSize))
		s.fact("Zip sha256", res.ZipSHA256)
	}
	s.fact("Site", res.SitePath)
	s.add(fact{label: "API changes", value: changesRow(res.Changes, false), md: changesRow(res.Changes, true)})
	return s
}

// fact is one row of the summary's table of facts.
type fact struct {
	label, value string
	md           string // the value in Markdown, when it is not value escaped
}

func (s *summary) fact(label, value string) { s.add(fact{label: label, value: value}) }

func (s *summary) add(f fact) {
	if f.value != "" {
		s.facts = append(s.facts, f)
	}
}

// headline is the outcome in a few words, and the sentence under it.
func (s *summary) headline() (icon, title, detail string) {
	var be *publish.BreakingError
	var ie *publish.InterruptedError
	switch {
	case s.runErr != nil && publish.IsInvalid(s.runErr):
		return "❌", "The description is invalid: nothing was sent", s.runErr.Error()
	case s.runErr != nil && errors.As(s.runErr, &be):
		return "❌", "Breaking API changes: nothing was published", s.runErr.Error()
	case s.runErr != nil && errors.As(s.runErr, &ie):
		return "⏹️", "Cancelled during: " + s.res.FailedStep.String(), s.runErr.Error()
	case s.runErr != nil:
		return "❌", "Publishing failed at: " + s.res.FailedStep.String(), s.runErr.Error()
	case s.res.Held:
		return "⏸️", "Not sent: another description failed its check", "This description passed its check, but another of the run's did not, so nothing was sent for any of them."
	case s.res.ForkCheck:
		// Compared only when a comparison ran: not with compare off, nor
		// for a description new at its base, nor one the comparison skipped.
		did := "checked"
		if c := s.res.Changes; c != nil && c.Report != nil {
			did = "checked and compared with its base"
		}
		_, why := publish.MissingTokenNote(s.cfg, did)
		return "🔍", "Checked only: nothing was published", "The " + why
	case s.res.DryRun:
		return "🔍", "Dry run: nothing was sent", ""
	}
	return "✅", "API docs published", ""
}

// liveWords says whether the released build is live: only a build that
// was made, and released to be made live, is.
func liveWords(res *publish.Result) string {
	switch {
	case !res.Live:
		return "false"
	case res.BuildState == publish.BuildReady:
		return "true"
	case res.BuildState == publish.BuildFailed:
		return "false: the build failed, so it was not made live"
	}
	return "not known: released to be made live once it builds"
}

// maxReason bounds the service's reason for a failed build in the notes,
// so that the advice around it is never cut.
const maxReason = 500

// rendersNote says, for a run that released a build, which file it wrote
// and that the doc renders the file set in its publish settings: a file
// written under another name builds green and changes nothing. For a
// failed build the service's reason comes first, when it gave one; the
// note is the service's text as it wrote it, escaped where it is written.
func (s *summary) rendersNote() string {
	if s.res.BuildID == "" || s.res.FileName == "" {
		return ""
	}
	var bf *publish.BuildFailedError
	if s.res.BuildState == publish.BuildFailed && errors.As(s.runErr, &bf) {
		if reason := bf.Reason(); reason != "" {
			return fmt.Sprintf("The service could not build doc %s, and says why: “%s”. Fix what it names, in the description or in the doc's settings in the service's web application, then run again. This run wrote %q on branch %q.",
				s.res.DocID, report.Shorten(reason, maxReason), s.res.FileName, s.res.Branch)
		}
	}
	return fmt.Sprintf("This run wrote %q on branch %q. The doc renders the file set in its publish settings in the service's web application: if that is another file, this build does not show this description; set file-name to that file.", s.res.FileName, s.res.Branch)
}

// docsLink is the doc's address to link as the docs, or "" when there is
// none to link: a failed build is not the docs, whatever the doc shows.
func docsLink(r *publish.Result) string {
	if r.BuildState == publish.BuildFailed || !isWebURL(r.DocsURL) {
		return ""
	}
	return r.DocsURL
}

// markdown renders the summary for GitHub's job summary. Everything that
// comes from the service or the description is escaped.
func (s *summary) markdown() string {
	var b strings.Builder
	esc := escapeCell
	icon, title, detail := s.headline()
	fmt.Fprintf(&b, "%s %s %s\n\n", s.heading(3), icon, title)
	if detail != "" {
		fmt.Fprintf(&b, "%s\n\n", esc(detail))
	}
	var lead []string
	if u := docsLink(s.res); u != "" {
		lead = append(lead, fmt.Sprintf("**Docs:** <%s>", u))
	}
	if s.res.BuildID != "" {
		lead = append(lead, fmt.Sprintf("**Build:** %s (%s)", esc(s.res.BuildID), buildOutcome(s.res.BuildState)))
	}
	if len(lead) > 0 {
		b.WriteString(strings.Join(lead, " · ") + "\n\n")
	}
	if note := s.rendersNote(); note != "" {
		fmt.Fprintf(&b, "> [!IMPORTANT]\n> %s\n\n", esc(note))
	}
	if len(s.facts) > 0 {
		b.WriteString("| what | value |\n|---|---|\n")
		for _, r := range s.facts {
			v := r.md
			if v == "" {
				v = esc(r.value)
			}
			fmt.Fprintf(&b, "| %s | %s |\n", r.label, v)
		}
	}
	if len(s.res.Steps) > 0 {
		b.WriteString("\n| step | took |\n|---|---:|\n")
		for _, st := range s.res.Steps {
			fmt.Fprintf(&b, "| %s | %s |\n", st.Step, st.Duration.Round(time.Millisecond))
		}
		fmt.Fprintf(&b, "| **total** | **%s** |\n", s.total.Round(time.Millisecond))
	}
	if c := s.res.Changes; c != nil {
		fmt.Fprintf(&b, "\n%s API changes\n\n", s.heading(4))
		b.WriteString(publish.ChangesMarkdown(c, s.cfg.File))
		if isWebURL(c.CommentURL) {
			fmt.Fprintf(&b, "\nOn the pull request: <%s>\n", c.CommentURL)
		}
	}
	if fs := s.res.Findings; len(fs) > 0 {
		notAnnotated := ""
		if n := s.res.Unannotated; n > 0 {
			notAnnotated = fmt.Sprintf(", %d of them not annotated: GitHub shows 10 of each level", n)
		}
		fmt.Fprintf(&b, "\n%s Findings in the description (%d%s)\n\n| | where | message |\n|---|---|---|\n", s.heading(4), len(fs), notAnnotated)
		for i, f := range fs {
			if i == maxSummaryFindings {
				fmt.Fprintf(&b, "| | | and %d more |\n", len(fs)-i)
				break
			}
			icon := "⚠️"
			if f.Severity == openapi.Error {
				icon = "❌"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", icon, s.place(f), esc(f.Msg))
		}
	}
	return b.String()
}

// heading is the Markdown of a heading of level n, deeper as s is.
func (s *summary) heading(n int) string { return strings.Repeat("#", min(n+s.deeper, 6)) }

// place is where a finding was written, as a link to that line of the file
// at the run's commit when the run knows its repository.
func (s *summary) place(f openapi.Finding) string {
	text := escapeCell(fmt.Sprintf("%s:%d:%d", f.File, f.Pos.Line, f.Pos.Col))
	c := s.cfg
	if c.ServerURL == "" || c.Repository == "" || c.SHA == "" || f.File == "" || !isWebURL(c.ServerURL) {
		return text
	}
	segs := strings.Split(path.Clean(f.File), "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	link := strings.TrimRight(c.ServerURL, "/") + "/" + c.Repository + "/blob/" + url.PathEscape(c.SHA) + "/" + strings.Join(segs, "/")
	if f.Pos.Line > 0 {
		link += fmt.Sprintf("#L%d", f.Pos.Line)
	}
	if strings.ContainsAny(link, " <>()") {
		return text
	}
	return "[" + text + "](" + link + ")"
}

// isWebURL accepts an address that can be a Markdown link as it is.
func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && !strings.ContainsAny(s, " <>")
}

// text renders the summary as plain text, for the CLI's stderr.
func (s *summary) text() string {
	var b strings.Builder
	_, title, _ := s.headline()
	fmt.Fprintf(&b, "docs-publish: %s\n", title)
	if note := s.rendersNote(); note != "" {
		fmt.Fprintf(&b, "  %s\n", ghaction.OneLine(note))
	}
	for _, r := range s.facts {
		fmt.Fprintf(&b, "  %-20s %s\n", r.label+":", ghaction.OneLine(r.value))
	}
	for _, st := range s.res.Steps {
		fmt.Fprintf(&b, "  %-20s %s\n", st.Step.String()+":", st.Duration.Round(time.Millisecond))
	}
	fmt.Fprintf(&b, "  %-20s %s\n", "total:", s.total.Round(time.Millisecond))
	return b.String()
}

// writeSummary writes the job summary on GitHub, or a short plain-text one
// on stderr elsewhere.
func writeSummary(rep *ghaction.Reporter, cfg publish.Config, res *publish.Result, runErr error, total time.Duration) {
	s := newSummary(cfg, res, runErr, total)
	switch {
	case rep.HasSummary():
		rep.Summary(s.markdown())
	case !rep.OnGitHub():
		rep.PrintLog(s.text())
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

// maxCell bounds a text from the service or the description in the job
// summary: a long one is shortened, saying by how much.
const maxCell = 1000

// escapeCell is text from the service or the description as the job
// summary shows it: shortened, then escaped.
func escapeCell(s string) string { return report.EscapeMarkdown(report.Shorten(s, maxCell)) }

// maxSummaryFindings bounds the findings table: GitHub refuses a job summary
// over 1 MiB.
const maxSummaryFindings = 500

// changesRow is the comparison with the base in a few words; inMarkdown
// writes it for a table cell: the words escaped and shortened, the base
// commit a code span (Comparison.BaseMarkdown).
func changesRow(c *publish.Comparison, inMarkdown bool) string {
	text, base := func(s string) string { return s }, ""
	if c != nil {
		base = c.Base
	}
	if inMarkdown {
		text = escapeCell
		if c != nil && c.BaseCommit != "" {
			base = c.BaseMarkdown()
		} else {
			base = escapeCell(base)
		}
	}
	switch {
	case c == nil:
		return ""
	case c.New:
		return text("the description is new at ") + base
	case c.Report == nil:
		return text("not compared: " + c.Skipped)
	}
	r := c.Report
	return text(fmt.Sprintf("%d breaking, %s, %d other, against ",
		r.Count(apidiff.Breaking), report.Plural(r.Count(apidiff.Warning), "warning"), r.Count(apidiff.Info))) + base
}
