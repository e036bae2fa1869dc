package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
)

// writeSummary writes the job summary on GitHub, or a short plain-text one
// on stderr elsewhere.
func writeSummary(rep *ghaction.Reporter, stderr io.Writer, cfg publish.Config, res *publish.Result, runErr error, total time.Duration) {
	rows := [][2]string{
		{"Project", cfg.ProjectID},
		{"File", res.FileName},
		{"Branch", res.Branch},
		{"Commit message", res.CommitMessage},
		{"Doc", res.DocID},
		{"Build", res.BuildID},
	}
	if res.BuildID != "" {
		rows = append(rows, [2]string{"Live", fmt.Sprint(res.Live)}, [2]string{"Build outcome", buildOutcome(res.BuildState)})
	}
	if res.DocsURL != "" {
		rows = append(rows, [2]string{"Docs URL", res.DocsURL})
	}
	if res.BundlePath != "" {
		rows = append(rows, [2]string{"Bundle", res.BundlePath})
	}
	if res.ZipPath != "" {
		rows = append(rows,
			[2]string{"Zip", res.ZipPath},
			[2]string{"Zip size", fmt.Sprintf("%d bytes", res.ZipSize)},
			[2]string{"Zip sha256", res.ZipSHA256})
	}
	if res.SitePath != "" {
		rows = append(rows, [2]string{"Site", res.SitePath})
	}
	for _, st := range res.Steps {
		rows = append(rows, [2]string{"Step: " + st.Step.String(), st.Duration.Round(time.Millisecond).String()})
	}
	rows = append(rows, [2]string{"Total", total.Round(time.Millisecond).String()})

	if rep.HasSummary() {
		var b strings.Builder
		if runErr != nil {
			fmt.Fprintf(&b, "### ❌ docs-publish failed at: %s\n\n%s\n\n", res.FailedStep, mdEscape(runErr.Error()))
		} else {
			b.WriteString("### ✅ API docs published\n\n")
		}
		if res.DryRun && runErr == nil {
			b.Reset()
			b.WriteString("### Dry run: nothing was sent\n\n")
		}
		if res.DocsURL != "" {
			fmt.Fprintf(&b, "**Docs:** <%s>\n\n", res.DocsURL)
		}
		b.WriteString("| | |\n|---|---|\n")
		for _, r := range rows {
			if r[1] != "" {
				fmt.Fprintf(&b, "| %s | %s |\n", r[0], mdEscape(r[1]))
			}
		}
		if len(res.Findings) > 0 {
			fmt.Fprintf(&b, "\n#### Findings in the description (%d)\n\n| | where | message |\n|---|---|---|\n", len(res.Findings))
			for i, f := range res.Findings {
				if i == maxSummaryFindings {
					fmt.Fprintf(&b, "| | | and %d more |\n", len(res.Findings)-i)
					break
				}
				icon := "⚠️"
				if f.Severity == "error" {
					icon = "❌"
				}
				fmt.Fprintf(&b, "| %s | %s | %s |\n", icon, mdEscape(fmt.Sprintf("%s:%d:%d", f.File, f.Pos.Line, f.Pos.Col)), mdEscape(f.Msg))
			}
		}
		rep.Summary(b.String())
		return
	}
	if rep.OnGitHub() {
		return
	}
	var b strings.Builder
	if runErr != nil {
		fmt.Fprintf(&b, "docs-publish failed at: %s\n", res.FailedStep)
	} else if res.DryRun {
		b.WriteString("docs-publish: dry run, nothing was sent\n")
	} else {
		b.WriteString("docs-publish: published\n")
	}
	for _, r := range rows {
		if r[1] != "" {
			fmt.Fprintf(&b, "  %-16s %s\n", r[0]+":", ghaction.OneLine(r[1]))
		}
	}
	io.WriteString(stderr, rep.Scrub(b.String()))
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

// mdEscape makes text (from the service, or the description) plain text in
// Markdown: no links, images, emphasis, code spans or HTML of its own.
var mdEscape = strings.NewReplacer(
	"\\", `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`,
	"!", `\!`, "#", `\#`, "~", `\~`, "|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
	"\r", "", "\n", "<br>",
).Replace
