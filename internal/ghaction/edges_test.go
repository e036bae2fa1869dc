package ghaction

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/report"
)

// TestCommitIDDigits: a commit id is 40 lower-case hex digits: each edge
// of the digits is one, the characters just past them are not.
func TestCommitIDDigits(t *testing.T) {
	t.Parallel()
	base := strings.Repeat("1", 39)
	for c, ok := range map[string]bool{"0": true, "9": true, "a": true, "f": true, "/": false, ":": false, "`": false, "g": false, "A": false} {
		want := ""
		if ok {
			want = base + c
		}
		if got := commitID(base + c); got != want {
			t.Errorf("commitID(...%s) = %q, want %q", c, got, want)
		}
	}
}

// TestActionOutputsRead: the outputs action.yml declares are read, so that
// the program sets only those.
func TestActionOutputsRead(t *testing.T) {
	t.Parallel()
	m, err := ParseMetadata([]byte("name: x\noutputs:\n  build-id:\n    description: the build\n  zip-path:\n    description: the zip\n"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range m.Outputs {
		names = append(names, o.Name)
	}
	if strings.Join(names, ",") != "build-id,zip-path" {
		t.Errorf("outputs %q", names)
	}
}

// TestDebugAndPlaces: debug lines show only when the runner's debug is on
// (either of its two variables); an annotation on a file without a line
// names no line, on GitHub and off it.
func TestDebugAndPlaces(t *testing.T) {
	t.Parallel()
	for vars, want := range map[string]bool{"": false, "ACTIONS_STEP_DEBUG=true": true, "RUNNER_DEBUG=1": true, "ACTIONS_STEP_DEBUG=false": false} {
		k, v, _ := strings.Cut(vars, "=")
		var out bytes.Buffer
		r := NewReporter(func(name string) string {
			if name == k {
				return v
			}
			return ""
		}, &out, &out)
		r.Debugf("a detail")
		if got := strings.Contains(out.String(), "a detail"); got != want {
			t.Errorf("%q: debug shown %v, want %v", vars, got, want)
		}
	}
	var gh, plain bytes.Buffer
	on := NewReporter(func(k string) string { return map[string]string{"GITHUB_ACTIONS": "true"}[k] }, &gh, &gh)
	off := NewReporter(func(string) string { return "" }, &plain, &plain)
	for _, r := range []*Reporter{on, off} {
		r.Annotate(report.Warning, "no servers", report.Where{File: "api/openapi.yaml"})
	}
	if got := gh.String(); got != "::warning file=api/openapi.yaml::no servers\n" {
		t.Errorf("on GitHub: %q", got)
	}
	if got := plain.String(); got != "api/openapi.yaml: warning: no servers\n" {
		t.Errorf("off GitHub: %q", got)
	}
}
