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
		rows = append(rows, [2]string{"Live", fmt.Sprint(res.Live)})
	}
	if res.ZipPath != "" {
		rows = append(rows,
			[2]string{"Zip", res.ZipPath},
			[2]string{"Zip size", fmt.Sprintf("%d bytes", res.ZipSize)},
			[2]string{"Zip sha256", res.ZipSHA256})
	}
	for _, st := range res.Steps {
		rows = append(rows, [2]string{"Step: " + st.Step, st.Duration.Round(time.Millisecond).String()})
	}
	rows = append(rows, [2]string{"Total", total.Round(time.Millisecond).String()})

	if rep.HasSummary() {
		var b strings.Builder
		if runErr != nil {
			fmt.Fprintf(&b, "### ❌ docs-publish failed at: %s\n\n%s\n\n", res.FailedStep, mdEscape(runErr.Error()))
		} else {
			b.WriteString("### ✅ API docs published\n\n")
		}
		b.WriteString("| | |\n|---|---|\n")
		for _, r := range rows {
			if r[1] != "" {
				fmt.Fprintf(&b, "| %s | %s |\n", r[0], mdEscape(r[1]))
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
	} else {
		b.WriteString("docs-publish: published\n")
	}
	for _, r := range rows {
		if r[1] != "" {
			fmt.Fprintf(&b, "  %-16s %s\n", r[0]+":", r[1])
		}
	}
	io.WriteString(stderr, rep.Scrub(b.String()))
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", "<br>", "<", "&lt;", ">", "&gt;").Replace(s)
}
