package publish

import (
	"fmt"
	"strings"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/report"
)

// maxChangeRows bounds a table of changes: a pull request comment holds at
// most 65,536 characters, a job summary 1 MiB.
const maxChangeRows = 150

// ChangesMarkdown is the report of a comparison in Markdown, for the job
// summary and the pull request comment (which add their own heading):
// counts first, then a table of the breaking changes and warnings, and the
// other changes folded away. Everything from the description is escaped.
func ChangesMarkdown(c *Comparison, file string) string {
	return changesMarkdown(c, file, maxChangeRows)
}

// BaseMarkdown is c.Base in Markdown: a commit's SHA, the program's own
// from the event, as a code span, so that it copies as it is and links to
// nothing; the rest escaped.
func (c *Comparison) BaseMarkdown() string {
	what, ok := strings.CutSuffix(c.Base, " "+c.BaseCommit)
	if c.BaseCommit == "" || !ok {
		return report.EscapeMarkdown(c.Base)
	}
	return report.EscapeMarkdown(what) + " " + report.CodeSpan(c.BaseCommit)
}

// changesMarkdown is ChangesMarkdown with at most rows rows in each table.
func changesMarkdown(c *Comparison, file string, rows int) string {
	var b strings.Builder
	esc := report.EscapeMarkdown
	switch {
	case c.Report == nil && c.New:
		fmt.Fprintf(&b, "%s is new: it does not exist at %s, so there is nothing to compare.\n", esc(file), c.BaseMarkdown())
		return b.String()
	case c.Report == nil:
		fmt.Fprintf(&b, "Nothing compared: %s\n", esc(report.Shorten(c.Skipped, maxReason)))
		return b.String()
	}
	r := c.Report
	breaking, warnings, other := r.Count(apidiff.Breaking), r.Count(apidiff.Warning), r.Count(apidiff.Info)
	switch {
	case len(r.Changes) == 0:
		fmt.Fprintf(&b, "✅ No API changes in %s against %s.\n", esc(file), c.BaseMarkdown())
	case breaking > 0:
		fmt.Fprintf(&b, "❌ **%s** in %s against %s, %s, %s.\n", report.Plural(breaking, "breaking change"), esc(file), c.BaseMarkdown(),
			report.Plural(warnings, "warning"), report.Plural(other, "other change"))
	default:
		fmt.Fprintf(&b, "✅ No breaking changes in %s against %s: %s, %s.\n", esc(file), c.BaseMarkdown(),
			report.Plural(warnings, "warning"), report.Plural(other, "other change"))
	}
	if c.BaseFault != "" {
		fmt.Fprintf(&b, "\nNote: %s.\n", esc(report.Shorten(c.BaseFault, maxReason)))
	}
	var serious, rest []apidiff.Change
	for _, ch := range r.Changes {
		if ch.Level == apidiff.Info {
			rest = append(rest, ch)
		} else {
			serious = append(serious, ch)
		}
	}
	// The report keeps the most serious changes and counts the others.
	if len(serious) > 0 {
		b.WriteString("\n| | operation | change | check |\n|---|---|---|---|\n")
		changeRows(&b, serious, breaking+warnings, true, rows)
	}
	if other > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n| operation | change | check |\n|---|---|---|\n", report.Plural(other, "other change"))
		changeRows(&b, rest, other, false, rows)
		b.WriteString("\n</details>\n")
	}
	if n := r.TotalAccepted(); n > 0 {
		fmt.Fprintf(&b, "\n%s listed in breaking-ignore %s not counted.\n", report.Plural(n, "agreed change"), map[bool]string{true: "is", false: "are"}[n == 1])
	}
	return b.String()
}

// changeRows writes a row for each of the first max of cs, and one saying
// how many more of all there are.
func changeRows(b *strings.Builder, cs []apidiff.Change, all int, icon bool, max int) {
	more := func(n int) {
		cols := "| | and %d more |  |\n"
		if icon {
			cols = "| | | and %d more |  |\n"
		}
		fmt.Fprintf(b, cols, n)
	}
	for i, ch := range cs {
		if i == max {
			more(all - i)
			return
		}
		if icon {
			b.WriteString(map[apidiff.Level]string{apidiff.Breaking: "| ❌ ", apidiff.Warning: "| ⚠️ "}[ch.Level])
		}
		op := strings.TrimSpace(ch.Operation + " " + ch.Path)
		fmt.Fprintf(b, "| %s | %s | %s |\n", cell(op), withCode(ch.Text), cell(ch.ID))
	}
	if all > len(cs) {
		more(all - len(cs))
	}
}

// withCode is a change's text in Markdown: the values it quotes in
// backticks (names and values from the description) as code, everything
// escaped, since the values are the description's, untrusted, and each
// long name shortened.
//
// The comparison library quotes a value in one backtick on either side,
// whatever the value holds, after a space or at the start and before a
// space, punctuation or the end. So a value runs from a backtick that
// opens a word to the first backtick that ends one, backticks inside it
// and all: the enum value `tick` (backticks its own) is quoted with two
// backticks on either side, a parameter named with three backticks with
// five in a row. A value with a backtick before a space inside (a` b) is
// cut there: the text alone cannot tell. A backtick that opens a value no
// backtick ends is shown as itself.
//
// A value is shown in <code>, not in a Markdown code span: a code span
// shows its content as it is, so the entities, <br> and zero-width spaces
// that keep a name from breaking the table row, mentioning anyone or
// linking would show as text, and a code span in a table cell still ends
// at a pipe. Markdown is read inside <code> too, so the one escaping of
// EscapeMarkdown serves, a backtick in the value escaped (\`) like the
// rest, and every guarantee it gives holds inside the value.
func withCode(text string) string {
	var b strings.Builder
	last := 0 // where the text not yet written starts
	for i := 0; i < len(text); i++ {
		if text[i] != '`' || i > 0 && !opensValue(text[i-1]) {
			continue
		}
		end := valueEnd(text, i+1)
		if end < 0 { // no backtick ends a value after this one, nor after any later one
			break
		}
		b.WriteString(cell(text[last:i]))
		b.WriteString("<code>" + cell(text[i+1:end]) + "</code>")
		last, i = end+1, end
	}
	b.WriteString(cell(text[last:]))
	return b.String()
}

// opensValue reports whether a backtick after c can open a quoted value.
func opensValue(c byte) bool { return strings.IndexByte(" \t\n(\"'", c) >= 0 }

// valueEnd is the index of the first backtick from text[from:] on that can
// end a quoted value (one before a space, punctuation or the end), -1 for
// none.
func valueEnd(text string, from int) int {
	for j := from; j < len(text); j++ {
		if text[j] == '`' && (j+1 == len(text) || strings.IndexByte(" \t\n,.:;)\"'!?", text[j+1]) >= 0) {
			return j
		}
	}
	return -1
}

// maxReason bounds why nothing was compared (an error, with GitHub's
// message in it) in a report.
const maxReason = 1000

// maxName bounds a name or value from the description in a report: 600
// parameters named with 60 KB each would make a report GitHub refuses.
const maxName = 200

// cell is text from the description as a table cell shows it: shortened,
// then escaped.
func cell(s string) string { return report.EscapeMarkdown(report.Shorten(s, maxName)) }
