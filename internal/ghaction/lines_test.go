package ghaction

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/docs-publish/docs-publish/internal/namerule"
	"github.com/docs-publish/docs-publish/internal/report"
)

// TestControlsShownAsTheSummaryShowsThem: the log and the annotations show
// as an escape exactly the characters the job summary shows as one, in
// the same form (\u202E), for every character of the Basic Multilingual
// Plane and the edges beyond it.
func TestControlsShownAsTheSummaryShowsThem(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r == 0x10000 {
			r = 0xe0000 // tags and variation selectors, then the end
		}
		escape := fmt.Sprintf(`\u%04X`, r)
		inLog := OneLine(string(r)) == escape // what the log writes
		// The summary's form is Markdown: its backslash is escaped.
		inSummary := strings.Contains(report.EscapeMarkdown(string(r)), `\`+escape)
		if inLog != inSummary {
			t.Errorf("%U: shown as an escape in the log %v, in the summary %v", r, inLog, inSummary)
		}
	}
}

// hiding are texts from a pull request or a server that would restyle,
// hide or reorder the log's text around them: a terminal's escape
// sequences (ESC [8m hides what follows in GitHub's log viewer), a
// bidirectional override and isolate, NUL, DEL, a C1 control, a line
// separator.
var hiding = []string{
	"x\x1b[8mhidden\x1b[0m\u202e",
	"a\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\",
	"b\u2066c\u2069d\u200f\u061c",
	"e\x00f\x7fg\u0085h\u009bi\u2028j",
}

// TestNoControlReachesTheLog: text holding controls, written every way
// the reporter writes text that is not its own (a line, a debug line, an
// annotation's message and file, a group's title, logged and printed
// text), on GitHub and off it, reaches the log with each control shown as
// its escape, and none raw but the line feeds that end lines.
func TestNoControlReachesTheLog(t *testing.T) {
	t.Parallel()
	for _, gitHub := range []bool{true, false} {
		t.Run(fmt.Sprint("on GitHub ", gitHub), func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"RUNNER_DEBUG": "1"}
			if gitHub {
				env["GITHUB_ACTIONS"] = "true"
			}
			var out bytes.Buffer
			r := NewReporter(func(k string) string { return env[k] }, &out, &out)
			for _, text := range hiding {
				end := r.Group(text)
				r.Infof("parameter `%s`", text)
				r.Debugf("answer: %s", text)
				r.Annotate(report.Warning, "breaking change: parameter `"+text+"`", report.Where{File: "api/" + text + ".yaml", Line: 2})
				r.Annotate(report.Error, text, report.Where{})
				end()
				r.PrintLog(text + "\n")
				r.Print(text + "\n")
			}
			log := out.String()
			if i := strings.IndexFunc(log, func(r rune) bool { return namerule.Escaped(r) && r != '\n' }); i >= 0 {
				t.Errorf("a control reaches the log at %d: %q", i, log[max(0, i-40):min(len(log), i+40)])
			}
			for _, escape := range []string{`x\u001B[8mhidden\u001B[0m\u202E`, `\u001B]8;;https`, `b\u2066c\u2069d\u200F\u061C`, `e\u0000f\u007Fg\u0085h\u009Bi\u2028j`} {
				if n := strings.Count(log, escape); n < 7 {
					t.Errorf("%s shows %d times, want 7 (one for each way of writing):\n%s", escape, n, log)
				}
			}
		})
	}
}

// TestSecretSplitByEscapedControlsMasked: a token with colour codes or NUL
// between its characters, as a hostile server answers it, written to the
// log, an annotation and the summary: the log's escapes (\u001B) and the
// summary's (\\u001B) are read by the scrub as the controls they stand
// for, so that the token is masked whole, and nothing of it is left
// beside the mask.
func TestSecretSplitByEscapedControlsMasked(t *testing.T) {
	t.Parallel()
	for name, sep := range map[string]string{"reset": "\x1b[0m", "NUL": "\x00", "title": "\x1b]0;t\a", "override": "\u202e"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r, out := onGitHub(t, filepath.Join(dir, "out"), filepath.Join(dir, "sum"))
			split := strings.Join(strings.Split(ghToken, ""), sep)
			r.Infof("answer: %s end", split)
			r.Annotate(report.Error, "answer: "+split+" end", report.Where{File: "api/" + split + ".yaml"})
			r.Summary("answer: " + report.EscapeMarkdown(split) + " end\n")
			for where, got := range map[string]string{"log": withoutMasks(out.String()), "summary": fileOf("sum")(out.String(), dir)} {
				if strings.Count(got, "answer: *** end") != map[string]int{"log": 2, "summary": 1}[where] {
					t.Errorf("%s: the token is not masked whole:\n%s", where, got)
				}
			}
		})
	}
}
