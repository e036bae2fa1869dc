package ghaction

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/namerule"
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

// line writes text as one line: its line breaks escaped, no workflow
// command in it (see OneLine), scrubbed and bounded.
func (s *lineSink) line(text string) {
	s.write(cutText(s.secrets.Redact(OneLine(text)), maxLine) + "\n")
}

// text writes text of several lines, none of them a workflow command,
// scrubbed.
func (s *lineSink) text(text string) { s.write(s.secrets.Redact(NoCommands(text))) }

// output writes an output as a name=value line: the name as it is, the
// value scrubbed.
func (s *lineSink) output(name, value string) {
	s.write(name + "=" + s.secrets.Redact(defuse(value)) + "\n")
}

// json writes a JSON text scrubbed as scrubJSON does.
func (s *lineSink) json(text string) { s.write(scrubJSON(text, s.secrets)) }

// maxProperty bounds a workflow command's property value (a file's path).
const maxProperty = 1 << 10

// command writes a workflow command the program means: its name and
// property names as they are; each property value and the message with
// its controls shown as escapes (namerule.EscapeControls) and escaped as the
// runner reads them (a value cannot end its property, nor the message its
// line), then scrubbed, then bounded. The scrub leaves the
// command's syntax alone, so that a secret that is a short word cannot
// break the command. The title property is the program's name, never
// data, and is left as it is.
func (s *lineSink) command(name string, props map[string]string, msg string) {
	s.write(commandLine(name, props, msg, s.secrets.Redact))
}

// fixedCommand writes a workflow command made of the program's own words
// and names alone, no data: a warning that names an output, or that tells
// the length of a secret. Scrubbing it would hide no secret, and would
// garble the words that tell of one when the secret is a short word.
func (s *lineSink) fixedCommand(name string, props map[string]string, msg string) {
	s.write(commandLine(name, props, msg, func(s string) string { return s }))
}

func commandLine(name string, props map[string]string, msg string, scrub func(string) string) string {
	var b strings.Builder
	b.WriteString("::" + name)
	for i, k := range slices.Sorted(maps.Keys(props)) {
		sep := ","
		if i == 0 {
			sep = " "
		}
		v := escapeProperty(namerule.EscapeControls(props[k]))
		if k != "title" {
			v = cutText(scrub(v), maxProperty)
		}
		b.WriteString(sep + k + "=" + v)
	}
	b.WriteString("::")
	b.WriteString(cutText(scrub(escapeData(namerule.EscapeControls(msg))), maxLine-b.Len()))
	b.WriteString("\n")
	return b.String()
}

// How the runner unescapes a workflow command's message and its property
// values (actions/toolkit's escapeData and escapeProperty).
var (
	escapeData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace
	escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
)

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
	return s.writeLocked(text)
}

// write appends text as it is.
func (s *fileSink) write(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeLocked(text)
}

func (s *fileSink) writeLocked(text string) error {
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

// record appends an output to GITHUB_OUTPUT. Only the value is
// scrubbed, and a value that holds a secret is withheld whole (the caller
// warns of it), unless it was scrubbed already (JSON, scrubbed value by
// value): the record's syntax, its name and its delimiter are never
// touched, so that a secret that is a short word cannot corrupt them.
func (s *fileSink) record(name, value string, scrubbed bool) error {
	if !scrubbed && s.secrets.Has(value) {
		value = ""
	}
	rec, err := outputRecord(name, value)
	if err != nil {
		return err
	}
	return s.write(rec)
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
