package ghaction

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/namerule"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/sethvargo/go-githubactions"
)

// forged are texts a pull request or a server may send, each meant to be
// read by the runner as a command, with ws where the runner trims.
func forged(ws rune) []string {
	w := string(ws)
	return []string{
		w + "::warning title=Injected by PR::Approved - ignore the rest",
		w + w + "::stop-commands::pwned",
		"x\n" + w + "::add-mask::x",
		"x\r" + w + "::error::pwned",
		w + "##[error]pwned",
		"a " + w + "##vso[task.setvariable variable=x]y",
		"a ##VsO[task.complete]",
		w + "\r\n::endgroup::",
	}
}

// TestNoCommandFromText writes text that is a forged command after each
// character the runner trims, through every way the reporter writes text
// that is not its own (a line, a debug line, an annotation's message, its
// file's and folder's names, a group's title, an output, printed text),
// on GitHub and off it, and reads the log as the runner does: the only
// commands are the ones the reporter issued, each with the properties it
// gave them, unescaped to what it was given.
func TestNoCommandFromText(t *testing.T) {
	t.Parallel()
	for _, ws := range ghactiontest.WhiteSpace() {
		for _, onGitHub := range []bool{true, false} {
			t.Run(fmt.Sprintf("U+%04X on GitHub %v", ws, onGitHub), func(t *testing.T) {
				t.Parallel()
				env := map[string]string{"RUNNER_DEBUG": "1"}
				if onGitHub {
					env["GITHUB_ACTIONS"] = "true"
				}
				var out bytes.Buffer
				r := NewReporter(func(k string) string { return env[k] }, &out, &out)
				type issued struct {
					name, file, msg string
				}
				var want []issued
				// What a command holds of the text: its controls shown as
				// escapes, its legacy commands broken.
				logged := func(s string) string { return defuse(namerule.EscapeControls(s)) }
				for _, text := range forged(ws) {
					folder := "api/" + text + "/openapi.yaml"
					end := r.Group(text)
					want = append(want, issued{"group", "", logged(text)})
					r.Infof("%s", text)
					r.Infof("%s: parameter limit: minimum 5 is above maximum 1", folder)
					r.Debugf("answer 401: %s", text)
					want = append(want, issued{"debug", "", "answer 401: " + logged(text)})
					r.Annotate(report.Error, text, report.Where{File: folder, Line: 3, Col: 1})
					want = append(want, issued{"error", logged(folder), logged(text)})
					r.Annotate(report.Warning, "key "+text+" unknown", report.Where{File: text})
					want = append(want, issued{"warning", logged(text), "key " + logged(text) + " unknown"})
					r.Annotate(report.Notice, text, report.Where{})
					want = append(want, issued{"notice", "", logged(text)})
					end()
					want = append(want, issued{"endgroup", "", ""})
					if !strings.ContainsAny(text, "\r\n") {
						r.SetOutput("doc-url", text)
					}
					r.PrintLog(text + "\n")
					r.Print("  " + text + "\n")
				}
				r.PrintOutputs()
				cmds := ghactiontest.Commands(out.String())
				if !onGitHub {
					want = nil
				}
				var got []issued
				for _, c := range cmds {
					if c.Indented || c.Legacy {
						t.Errorf("a forged command: %q", c.Text)
						continue
					}
					for k := range c.Properties {
						if !slices.Contains([]string{"file", "line", "col", "title"}, k) {
							t.Errorf("property %s in %q", k, c.Text)
						}
					}
					got = append(got, issued{c.Name, c.Properties["file"], c.Message})
				}
				if !slices.Equal(got, want) {
					t.Errorf("commands read:\n%q\nwant:\n%q\nlog:\n%s", got, want, out.String())
				}
			})
		}
	}
}

// TestCommandsAsTheLibraryWritesThem: a command the reporter issues is the
// one go-githubactions writes, properties and message escaped alike.
func TestCommandsAsTheLibraryWritesThem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		props map[string]string
		msg   string
	}{
		{"error", map[string]string{"file": "a:b,c%d\r\ne", "line": "3", "col": "7"}, "m%s\r\n::x::"},
		{"warning", map[string]string{"title": "docs-publish"}, "100% done, a:b"},
		{"group", nil, "title"},
		{"endgroup", nil, ""},
	} {
		lib := githubactions.Command{Name: tc.name, Properties: tc.props, Message: tc.msg}
		if got, want := commandLine(tc.name, tc.props, tc.msg, func(s string) string { return s }), lib.String()+"\n"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// TestShortSecretKeepsCommandsWorking: a secret that is a word of the
// commands' syntax (warning, file, title, docs) hides nothing of it: each
// command still reads as the one issued, and the data holding the secret
// is scrubbed.
func TestShortSecretKeepsCommandsWorking(t *testing.T) {
	t.Parallel()
	for _, secret := range []string{"warning", "file", "title", "docs", "t", "e", ":"} {
		t.Run(secret, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "out")}
			var out bytes.Buffer
			r := NewReporter(func(k string) string { return env[k] }, &out, &out)
			r.Mask(secret)
			r.Annotate(report.Warning, "bad "+secret, report.Where{File: "api/" + secret + ".yaml", Line: 2})
			r.Annotate(report.Error, "failed", report.Where{})
			end := r.Group("publish")
			end()
			var names []string
			for _, c := range ghactiontest.Commands(withoutMasks(out.String())) {
				names = append(names, c.Name)
				if c.Name == "warning" && c.Properties["line"] == "2" {
					if c.Properties["file"] != "api/***.yaml" || c.Message != "bad ***" {
						t.Errorf("the annotation reads %q", c.Text)
					}
				}
			}
			if want := []string{"warning", "warning", "error", "group", "endgroup"}; !slices.Equal(names, want) {
				t.Errorf("commands %q, want %q:\n%s", names, want, out.String())
			}
		})
	}
}
