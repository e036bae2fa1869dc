package ghaction

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
)

// The sinks: every byte the program writes where a person or another
// program reads it leaves through one of them. Each scrubs every secret
// from the text once, after all formatting and escaping, and only then
// bounds it, so that no escape hides a secret from the scrub and no cut
// leaves part of one. A sink returns its write errors; none panics.

// Bounds of what GitHub takes, with room to spare.
const (
	// maxLine bounds a line of the log, an annotation included: GitHub
	// takes 64 KiB per annotation, and a line longer than this helps no
	// reader, so that the log of a run stays proportionate to its
	// description.
	maxLine = 8 << 10
	// maxSummary bounds the job summary: GitHub refuses more than 1 MiB
	// from a step.
	maxSummary = 1<<20 - 4<<10
)

// lineSink writes lines to a stream: the log (stdout on GitHub, stderr
// elsewhere) or stdout.
type lineSink struct {
	mu      sync.Mutex
	w       io.Writer
	secrets *redact.Redactor
}

// line writes s, which is one formatted line, scrubbed and bounded.
func (s *lineSink) line(text string) {
	s.write(cutText(s.secrets.Redact(text), maxLine) + "\n")
}

// text writes text of several lines, scrubbed.
func (s *lineSink) text(text string) { s.write(s.secrets.Redact(text)) }

// raw writes a line as it is: only for the command that tells the runner
// which secret to hide.
func (s *lineSink) raw(text string) { s.write(text + "\n") }

// write ignores errors: a log that cannot be written has nowhere to say so.
func (s *lineSink) write(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	io.WriteString(s.w, text)
}

// cutText cuts s to at most max bytes, saying how much was left out.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return report.Shorten(s, max-40) // room for the count
}

// FileError is a runner's file command (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY)
// that could not be written.
type FileError struct {
	Var  string // the variable that names the file
	Path string
	Err  error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("cannot write %s: %v", e.Var, e.Err) // Err names the path
}

func (e *FileError) Unwrap() error { return e.Err }

// fileSink appends to one of the runner's files.
type fileSink struct {
	mu      sync.Mutex
	env     string // GITHUB_OUTPUT or GITHUB_STEP_SUMMARY
	path    string // "" when the runner gave none
	secrets *redact.Redactor
	size    int // bytes written so far
	max     int // 0 for no bound
	cut     bool
}

// set reports whether the runner gave the file.
func (s *fileSink) set() bool { return s.path != "" }

// append writes text, already formatted, scrubbed; once max would be
// passed, it writes only what fits, cut at a line's end, and then tail.
func (s *fileSink) append(text, tail string) error {
	text = s.secrets.Redact(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cut {
		return nil
	}
	if s.max > 0 && s.size+len(text) > s.max {
		room := max(s.max-s.size-len(tail), 0)
		text = text[:room]
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			text = text[:i+1]
		} else {
			text = ""
		}
		text += tail
		s.cut = true
	}
	f, err := os.OpenFile(s.path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return &FileError{Var: s.env, Path: s.path, Err: err}
	}
	n, err := io.WriteString(f, text)
	s.size += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &FileError{Var: s.env, Path: s.path, Err: err}
	}
	return nil
}

// outputRecord is one output as GITHUB_OUTPUT holds it: a heredoc with a
// delimiter no value can hold.
func outputRecord(name, value string) (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	delim := "ghadelimiter_" + hex.EncodeToString(b)
	if strings.Contains(value, delim) || strings.Contains(name, delim) {
		return "", errors.New("the value holds the delimiter")
	}
	return name + "<<" + delim + "\n" + value + "\n" + delim + "\n", nil
}
