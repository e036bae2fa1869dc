package configfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var inputs = []string{"file", "project-id", "doc-id", "file-name", "branch", "set-live", "token", "api-url", "github-token", "timeout", "dry-run", "fail-on-breaking"}

func TestParseReadsEachEntryAsWritten(t *testing.T) {
	t.Parallel()
	data := "descriptions:\n  - file: services/users/openapi.yaml\n    project-id: \"4711\"\n    doc-id: 017\n  - file: services/orders/openapi.yaml\n    file-name: orders.yml\n    set-live: false\n"
	got, err := Parse([]byte(data), Keys{Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Index: 0, Line: 2, Inputs: map[string]string{"file": "services/users/openapi.yaml", "project-id": "4711", "doc-id": "017"}},
		{Index: 1, Line: 5, Inputs: map[string]string{"file": "services/orders/openapi.yaml", "file-name": "orders.yml", "set-live": "false"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
}

// TestParseRefuses: each fault is an *Error naming the entry by its index
// and file, and the line, with what to do.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	near := func(name string) string {
		if name == "projct-id" {
			return "project-id"
		}
		if name == "tokn" {
			return "token"
		}
		return ""
	}
	cases := []struct {
		name, data string
		want       string
	}{
		{"unknown key", "descriptions:\n  - file: a.yaml\n    projct-id: 1\n", "line 3: descriptions[0] (a.yaml): unknown key \"projct-id\": did you mean project-id?"},
		{"unknown key near a step-only one", "descriptions:\n  - file: a.yaml\n    tokn: x\n", "descriptions[0] (a.yaml): unknown key \"tokn\": an entry takes"},
		{"token", "descriptions:\n  - file: a.yaml\n  - file: b.yaml\n    token: abc\n", "line 4: descriptions[1] (b.yaml): token cannot be set in the config file"},
		{"api-url", "descriptions:\n  - api-url: https://evil.example\n    file: a.yaml\n", "descriptions[0] (a.yaml): api-url cannot be set in the config file (where the token is sent"},
		{"github-token", "descriptions:\n  - file: a.yaml\n    github-token: x\n", "github-token cannot be set"},
		{"timeout", "descriptions:\n  - file: a.yaml\n    timeout: 10h\n", "timeout cannot be set"},
		{"missing file", "descriptions:\n  - file: a.yaml\n  - project-id: \"1\"\n", "line 3: descriptions[1]: has no file"},
		{"empty file", "descriptions:\n  - file: ''\n", "descriptions[0]: has no file"},
		{"key twice", "descriptions:\n  - file: a.yaml\n    branch: main\n    branch: dev\n", "line 4: descriptions[0] (a.yaml): sets branch twice (first at line 3)"},
		{"alias", "descriptions:\n  - file: &f a.yaml\n  - file: *f\n", "anchor or alias"},
		{"nested value", "descriptions:\n  - file: a.yaml\n    branch: [main]\n", "branch is not a single value"},
		{"null", "descriptions:\n  - file: a.yaml\n    branch:\n", "branch has no value"},
		{"entry not a mapping", "descriptions:\n  - a.yaml\n", "descriptions[0]: is not a mapping"},
		{"no list", "descriptions: a.yaml\n", "descriptions must be a list"},
		{"empty list", "descriptions: []\n", "descriptions must be a list"},
		{"other top key", "apis:\n  - file: a.yaml\n", "unknown key \"apis\""},
		{"list twice", "descriptions:\n  - file: a.yaml\ndescriptions:\n  - file: b.yaml\n", "descriptions is given twice"},
		{"not YAML", "descriptions: [\n", "is not YAML"},
		{"empty", "", "is empty"},
		{"second document", "descriptions:\n  - file: a.yaml\n---\ndescriptions:\n  - file: b.yaml\n", "second YAML document"},
		{"too large", "descriptions:\n" + strings.Repeat("  - file: a.yaml\n", MaxSize/16), "more than the 1048576"},
		{"too many", "descriptions:\n" + strings.Repeat("  - file: a.yaml\n", MaxEntries+1), "more than the 1000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.data), Keys{Inputs: inputs, Nearest: near})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T): want an *Error", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want %q", err, tc.want)
			}
		})
	}
}

// TestParseSaysEveryFault: every fault of every entry is said at once,
// each at its line, so that one run shows all there is to fix; past
// mostFaults, the others are counted.
func TestParseSaysEveryFault(t *testing.T) {
	t.Parallel()
	data := "descriptions:\n  - file: a.yaml\n    projct-id: 1\n    branch: main\n    dowload: true\n  - file: b.yaml\n    token: x\n  - branch: dev\n"
	_, err := Parse([]byte(data), Keys{Inputs: inputs})
	for _, want := range []string{
		`line 3: descriptions[0] (a.yaml): unknown key "projct-id"`,
		`line 5: descriptions[0] (a.yaml): unknown key "dowload"`,
		"line 7: descriptions[1] (b.yaml): token cannot be set",
		"line 8: descriptions[2]: has no file",
	} {
		if err == nil || !strings.Contains(err.Error(), want+"") {
			t.Errorf("error %v: want it to say %q", err, want)
		}
	}
	if err == nil || !strings.HasPrefix(err.Error(), "line 3: ") || strings.Contains(err.Error(), "more faults") {
		t.Errorf("error %v: want the first fault first, and no count of more", err)
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Line != 3 {
		t.Errorf("error %v: want the first fault's *Error, at line 3", err)
	}
	many := "descriptions:\n" + strings.Repeat("  - file: a.yaml\n    nope: 1\n", mostFaults+5)
	_, err = Parse([]byte(many), Keys{Inputs: inputs})
	if err == nil || strings.Count(err.Error(), `unknown key "nope"`) != mostFaults || !strings.Contains(err.Error(), "and 5 more faults") {
		t.Errorf("error %v: want %d faults said and 5 counted", err, mostFaults)
	}
}

// TestEveryStepOnlyInputSaysWhy: the security-relevant inputs are among
// the step-only ones, each with its reason.
func TestEveryStepOnlyInputSaysWhy(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"token", "github-token", "api-url", "fail-on-missing-token", "timeout", "request-timeout", "max-download-size", "comment", "config", "parallel", "report"} {
		if StepOnly[name] == "" {
			t.Errorf("%s can be set in a config file", name)
		}
	}
}
