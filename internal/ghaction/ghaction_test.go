package ghaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
)

const meta = `
name: t
inputs:
  project-id:
    required: true
  branch:
    default: ${{ github.ref_name }}
  pr-branch:
    default: ${{ github.head_ref || github.ref_name }}
  quoted:
    default: ${{ github.head_ref || 'it''s none' }}
  odd:
    default: ${{ github.ref_name && 'x' }}
  set-live:
    default: "true"
  label:
    default: pre-${{ github.sha }}-post
outputs:
  build-id:
    description: b
`

func TestLookuper(t *testing.T) {
	t.Parallel()
	m, err := ParseMetadata([]byte(meta))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		key   string
		flags map[string]string
		env   map[string]string
		want  string
		found bool
	}{
		{"runner variable with its hyphen", "PROJECT_ID", nil, map[string]string{"INPUT_PROJECT-ID": "42"}, "42", true},
		{"empty runner variable is unset", "PROJECT_ID", nil, map[string]string{"INPUT_PROJECT-ID": ""}, "", false},
		{"blank runner variable is unset", "PROJECT_ID", nil, map[string]string{"INPUT_PROJECT-ID": "  "}, "", false},
		{"underscore form is not the runner's", "PROJECT_ID", nil, map[string]string{"INPUT_PROJECT_ID": "42"}, "", false},
		{"CLI variable", "PROJECT_ID", nil, map[string]string{"DOCS_PUBLISH_PROJECT_ID": "7"}, "7", true},
		{"flag wins over variables", "PROJECT_ID", map[string]string{"project-id": "1"}, map[string]string{"INPUT_PROJECT-ID": "2", "DOCS_PUBLISH_PROJECT_ID": "3"}, "1", true},
		{"runner variable wins over CLI variable", "PROJECT_ID", nil, map[string]string{"INPUT_PROJECT-ID": "2", "DOCS_PUBLISH_PROJECT_ID": "3"}, "2", true},
		{"default from action.yml", "SET_LIVE", nil, nil, "true", true},
		{"runner's empty value falls back to the default", "SET_LIVE", nil, map[string]string{"INPUT_SET-LIVE": ""}, "true", true},
		{"expression default", "BRANCH", nil, map[string]string{"GITHUB_REF_NAME": "release/1.2"}, "release/1.2", true},
		{"expression default with nothing to evaluate", "BRANCH", nil, nil, "", false},
		{"or: the head ref on a pull request", "PR_BRANCH", nil, map[string]string{"GITHUB_HEAD_REF": "feature/x", "GITHUB_REF_NAME": "42/merge"}, "feature/x", true},
		{"or: the ref name on a push", "PR_BRANCH", nil, map[string]string{"GITHUB_HEAD_REF": "", "GITHUB_REF_NAME": "main"}, "main", true},
		{"or: nothing to evaluate", "PR_BRANCH", nil, nil, "", false},
		{"or: a literal with a quote", "QUOTED", nil, nil, "it's none", true},
		{"an expression of another form is left alone", "ODD", nil, map[string]string{"GITHUB_REF_NAME": "main"}, "${{ github.ref_name && 'x' }}", true},
		{"expression inside text", "LABEL", nil, map[string]string{"GITHUB_SHA": "abc"}, "pre-abc-post", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := &Lookuper{Meta: m, Flags: tc.flags, Getenv: func(k string) string { return tc.env[k] }}
			got, found := l.Lookup(tc.key)
			if got != tc.want || found != tc.found {
				t.Errorf("Lookup(%s) = %q, %v; want %q, %v", tc.key, got, found, tc.want, tc.found)
			}
		})
	}
}

func TestDescribeDefault(t *testing.T) {
	t.Parallel()
	cases := []struct{ def, want string }{
		{"10m", "10m"},
		{"${{ github.ref_name }}", "on GitHub: the run's ref name"},
		{"${{ github.head_ref || github.ref_name }}", "on GitHub: the pull request's branch on pull_request and pull_request_target events, else the run's ref name"},
		{"${{ github.token }}", "on GitHub: the run's GITHUB_TOKEN"},
	}
	for _, tc := range cases {
		if got := DescribeDefault(tc.def); got != tc.want {
			t.Errorf("DescribeDefault(%q) = %q, want %q", tc.def, got, tc.want)
		}
	}
}

func TestReporterOffGitHubPrintsOutputs(t *testing.T) {
	t.Parallel()
	var out, log bytes.Buffer
	r := NewReporter(func(string) string { return "" }, &out, &log)
	r.Mask("hunter2")
	r.Infof("using hunter2 now")
	r.SetOutput("build-id", "12")
	r.SetOutput("zip-path", "a b.zip")
	r.Annotate(report.Warning, "odd name", report.Where{File: "api/x.yaml", Line: 3, Col: 5})
	r.PrintOutputs()
	if out.String() != "build-id=12\nzip-path=a b.zip\n" {
		t.Errorf("stdout = %q", out.String())
	}
	if strings.Contains(log.String(), "hunter2") || !strings.Contains(log.String(), "using *** now") {
		t.Errorf("log = %q", log.String())
	}
	if !strings.Contains(log.String(), "api/x.yaml:3:5: warning: odd name") {
		t.Errorf("warning not in file:line:col form: %q", log.String())
	}
}

func TestReporterOnGitHub(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "sum"),
	}
	var out bytes.Buffer
	r := NewReporter(func(k string) string { return env[k] }, &out, &out)
	r.Mask("hunter2")
	r.SetOutput("doc-id", "17")
	r.Annotate(report.Error, "two\nlines with hunter2", report.Where{File: "a.yaml", Line: 2})
	r.Summary("| doc | 17 |")
	r.PrintOutputs() // a no-op: the file has them
	if !strings.Contains(out.String(), "::add-mask::hunter2\n") {
		t.Errorf("no mask command: %q", out.String())
	}
	if !strings.Contains(out.String(), "::error file=a.yaml,line=2::two%0Alines with ***\n") {
		t.Errorf("error annotation = %q", out.String())
	}
	if strings.Contains(out.String(), "doc-id=17") {
		t.Error("outputs printed on stdout although GITHUB_OUTPUT is set")
	}
	b, _ := os.ReadFile(env["GITHUB_OUTPUT"])
	if !strings.HasPrefix(string(b), "doc-id<<") || !strings.Contains(string(b), "\n17\n") {
		t.Errorf("GITHUB_OUTPUT = %q", b)
	}
	s, _ := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	if !strings.Contains(string(s), "| doc | 17 |") {
		t.Errorf("summary = %q", s)
	}
}

// TestReporterWithoutFileCommands: GITHUB_ACTIONS set but no GITHUB_OUTPUT
// (a container started by hand) must not panic in go-githubactions.
func TestReporterWithoutFileCommands(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	r := NewReporter(func(k string) string { return map[string]string{"GITHUB_ACTIONS": "true"}[k] }, &out, &out)
	r.SetOutput("doc-id", "17")
	r.Summary("x")
	r.PrintOutputs()
	if !strings.Contains(out.String(), "doc-id=17") {
		t.Errorf("outputs not printed: %q", out.String())
	}
}

func TestOutputValuesThatWouldCorruptTheFile(t *testing.T) {
	t.Parallel()
	r := NewReporter(func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{})
	for _, v := range []string{"a\nb", "x_GitHubActionsFileCommandDelimeter_y", "a\rb"} {
		if err := r.SetOutput("o", v); err == nil {
			t.Errorf("SetOutput accepted %q", v)
		}
	}
	if len(r.Outputs()) != 0 {
		t.Error("a refused value was recorded")
	}
}

// FuzzReporterLines feeds text from the service (ids, messages) through
// every way the reporter writes, on GitHub and off it: no line it writes
// ever starts a workflow command (or another CI system's) that the program
// did not issue, and the token never shows, in any form.
func FuzzReporterLines(f *testing.F) {
	f.Add("17", "service answered 404", "tok-secret-value")
	f.Add("17\n::warning::pwned", "x\r\n::stop-commands::abc\n::set-output name=a::b", "tok/secret+value")
	f.Add("\n##vso[task.setvariable variable=a]b", "%0A::error::x", "tok")
	f.Add("::group::x", "\r::endgroup::", "abcdefgh")
	f.Add("x", "busy ##[set-output name=pwned;]yes \n  ::warning::x", "tok-12345678")
	f.Add("  ::error::x", "\t::debug::y ##vso[task.complete]", "tok-12345678")
	f.Add("a##vso[task.setvariable variable=x]y", "m", "tok-12345678")
	f.Fuzz(func(t *testing.T, id, msg, token string) {
		// A token has no blanks around it (an input is trimmed); one that
		// does could be spelled by the reporter's own words and spaces.
		if len(token) < 8 || strings.ContainsAny(token, "\r\n") || strings.TrimSpace(token) != token {
			return
		}
		for _, onGitHub := range []bool{true, false} {
			dir := t.TempDir()
			env := map[string]string{"RUNNER_DEBUG": "1"}
			if onGitHub {
				env["GITHUB_ACTIONS"] = "true"
				env["GITHUB_OUTPUT"] = filepath.Join(dir, "out")
				env["GITHUB_STEP_SUMMARY"] = filepath.Join(dir, "sum")
			}
			var out bytes.Buffer
			r := NewReporter(func(k string) string { return env[k] }, &out, &out)
			r.Mask(token)
			// The commands the program issues, each one line.
			issued := 0
			if onGitHub {
				issued = len(redactForms(token)) // ::add-mask:: lines
			}
			split := token[:len(token)/2] + "\n" + token[len(token)/2:] // as a service may fold it
			end := r.Group("release build " + id)
			r.Infof("doc %s, read at %s", id, msg)
			r.Infof("answer: %s", split)
			r.Debugf("answer: %s %s", msg, token)
			r.Annotate(report.Error, msg+" "+token, report.Where{File: id, Line: 3})
			r.Annotate(report.Warning, msg, report.Where{})
			r.Annotate(report.Notice, id, report.Where{})
			r.Annotate(report.Warning, msg, report.Where{File: id, Line: 1, Col: 2})
			end()
			r.SetOutput("build-id", id) // refused when it has a line break
			r.SetOutput("doc-id", id+token)
			r.Summary("| build | " + report.EscapeMarkdown(id+" "+msg+" "+token) + " |\n" + report.EscapeMarkdown(split) + "\n")
			r.PrintOutputs()
			if onGitHub {
				issued += 7 // group, debug, error, warning, notice, warning, endgroup
				if outs := r.Outputs(); len(outs) > 0 && outs[len(outs)-1].Name == "doc-id" {
					issued++ // the warning that doc-id, which holds the token, is withheld
				}
				for _, name := range []string{"out", "sum"} {
					b, _ := os.ReadFile(filepath.Join(dir, name))
					if f := shownForm(string(b), token); f != "" {
						t.Fatalf("the token shows (as %q) in %s: %q", f, name, b)
					}
				}
			}
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(line, "::add-mask::") {
					continue
				}
				if f := shownForm(line, token); f != "" {
					t.Fatalf("the token shows (as %q) in %q", f, line)
				}
			}
			// As the runner reads the log: only the commands the program
			// issued, each at a line's start.
			commands := 0
			for _, c := range ghactiontest.Commands(out.String()) {
				if c.Indented || c.Legacy {
					t.Fatalf("on GitHub %v: the runner reads a command the program did not issue: %q", onGitHub, c.Text)
				}
				commands++
			}
			if commands != issued {
				t.Fatalf("on GitHub %v: %d command lines for %d issued:\n%s", onGitHub, commands, issued, out.String())
			}
		}
	})
}

func redactForms(secret string) []string { return redact.Forms(secret) }

// shownForm is the form in which text shows secret, whole or split by a
// line break, or "".
func shownForm(text, secret string) string {
	for _, form := range redactForms(secret) {
		if strings.Contains(text, form) {
			return form
		}
	}
	joined := strings.NewReplacer("\n", "", "%0A", "", "<br>", "").Replace(text)
	if strings.Contains(joined, secret) {
		return "split " + secret
	}
	return ""
}

// TestJSONOutputScrubsValueByValue: a JSON output whose values hold a
// secret, in plain and in escaped forms, keeps its shape in GITHUB_OUTPUT,
// each such value scrubbed and every other value as it was; the same
// value through SetOutput is withheld whole.
func TestJSONOutputScrubsValueByValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		value string
	}{
		{"plain", `[{"build-id":"1001","error":{"step":"list docs","message":"echoed hunter2 back"}}]`},
		{"escaped", `[{"build-id":"1001","error":{"step":"list docs","message":"echoed hunter\u0032 back"}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "out")}
			var log bytes.Buffer
			r := NewReporter(func(k string) string { return env[k] }, &log, &log)
			r.Mask("hunter2")
			if err := r.SetJSONOutput("results", tc.value); err != nil {
				t.Fatal(err)
			}
			if err := r.SetOutput("plain", tc.value); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(env["GITHUB_OUTPUT"])
			recs := strings.Split(string(b), "\n")
			if len(recs) < 6 {
				t.Fatalf("GITHUB_OUTPUT = %q", b)
			}
			var got []map[string]any
			if err := json.Unmarshal([]byte(recs[1]), &got); err != nil {
				t.Fatalf("results = %q: %v", recs[1], err)
			}
			if len(got) != 1 || got[0]["build-id"] != "1001" || strings.Contains(fmt.Sprint(got), "hunter") || !strings.Contains(fmt.Sprint(got), "echoed *** back") {
				t.Errorf("results = %q, want the message scrubbed and the rest kept", recs[1])
			}
			if recs[4] != "" {
				t.Errorf("plain = %q, want it withheld", recs[4])
			}
		})
	}
}
