package publish

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsReport: what a run wrote at the report's path (or nothing) may be
// written over; any other file may not, whatever JSON it holds.
func TestIsReport(t *testing.T) {
	t.Parallel()
	written, err := json.Marshal(ReportOf([]*Result{{File: "openapi.yaml", ProjectID: "4711"}, {File: "b.yaml", Held: true}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"empty", "", true},
		{"a report a run wrote", string(written), true},
		{"a report of one member", `{"version": 1}`, true},
		{"an object without a version", `{"counts": {}}`, false},
		{"an object with other members", `{"version": 1, "name": "x"}`, false},
		{"an array", `[1, 2]`, false},
		{"a package.json", `{"name": "x", "version": "1.0.0"}`, false},
		{"YAML", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n", false},
		{"a report and more", `{"version": 1} {}`, false},
		{"a report cut short", string(written[:len(written)/2]), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := isReport(json.NewDecoder(strings.NewReader(tc.text))); got != tc.want {
				t.Errorf("isReport(%.60q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

// TestWriteReportKeepsAnotherFile: the report is not written over a file
// that is not a report, and its error is report's, said once.
func TestWriteReportKeepsAnotherFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteReport(Config{Workspace: dir, Report: "notes.txt"}, []byte("{}\n"))
	var ie *InputError
	if !errors.As(err, &ie) || ie.Input != "report" || !errors.Is(err, ErrReportInTheWay) || strings.Count(err.Error(), "input report") != 1 {
		t.Errorf("error %v, want report's, said once, caused by ErrReportInTheWay", err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(got) != "hello\n" {
		t.Errorf("notes.txt is now %q (%v)", got, err)
	}
}
