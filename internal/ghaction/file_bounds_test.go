package ghaction

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/docs-publish/docs-publish/internal/redact"
)

// TestFileSinkBound: a runner's file bounded to max bytes takes text that
// fills it exactly as it is; past that, the whole lines that fit, then the
// cut's tail, never more than max in all.
func TestFileSinkBound(t *testing.T) {
	t.Parallel()
	const tail = "CUT\n"
	line := func(c string, n int) string { return strings.Repeat(c, n-1) + "\n" }
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"exactly full", []string{line("a", 50), line("b", 50)}, line("a", 50) + line("b", 50)},
		{"past full, whole lines kept", []string{line("a", 50), strings.Repeat(line("b", 10), 8)}, line("a", 50) + strings.Repeat(line("b", 10), 4) + tail},
		{"past full, only a line break fits", []string{line("a", 50), "\n" + strings.Repeat("x", 60)}, line("a", 50) + "\n" + tail},
		{"past full, no line break fits", []string{line("a", 50), strings.Repeat("x", 60)}, line("a", 50) + tail},
		{"nothing after the cut", []string{line("a", 50), strings.Repeat("x", 60), "more\n"}, line("a", 50) + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &fileSink{env: "GITHUB_STEP_SUMMARY", path: filepath.Join(t.TempDir(), "summary"), secrets: redact.New(), max: 100}
			for _, w := range tc.writes {
				if err := s.append(w, tail); err != nil {
					t.Fatal(err)
				}
			}
			b, err := os.ReadFile(s.path)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want || len(b) > s.max {
				t.Errorf("file holds %q (%d bytes), want %q", b, len(b), tc.want)
			}
		})
	}
}

// TestSummaryWithinGitHubsLimit: a job summary written in many small
// pieces stays under the 1 MiB GitHub takes from a step.
func TestSummaryWithinGitHubsLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, _ := onGitHub(t, filepath.Join(dir, "out"), filepath.Join(dir, "sum"))
	row := "| " + strings.Repeat("x", 1000) + " |\n"
	for range 1200 {
		r.Summary(row)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sum"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 1<<20 || !strings.HasSuffix(string(b), summaryCut) {
		t.Errorf("the summary is %d bytes, ending %q", len(b), b[max(0, len(b)-80):])
	}
}

// TestLineOfTheLargestSize: a log line of exactly maxLine bytes is written
// whole; one byte more is cut.
func TestLineOfTheLargestSize(t *testing.T) {
	t.Parallel()
	full := strings.Repeat("a", maxLine)
	if got := cutText(full, maxLine); got != full {
		t.Errorf("a line of %d bytes cut to %d", maxLine, len(got))
	}
	if got := cutText(full+"a", maxLine); len(got) > maxLine || got == full+"a" {
		t.Errorf("a line of %d bytes left at %d", maxLine+1, len(got))
	}
}

// TestFileSinkWriteError: a runner's file whose disk is full gives the
// write's error, naming the variable.
func TestFileSinkWriteError(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	s := &fileSink{env: "GITHUB_OUTPUT", path: "/dev/full", secrets: redact.New()}
	err := s.append("build-id=1001\n", "")
	var fe *FileError
	if !errors.As(err, &fe) || fe.Var != "GITHUB_OUTPUT" || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error %v, want a *FileError for GITHUB_OUTPUT with ENOSPC", err)
	}
}
