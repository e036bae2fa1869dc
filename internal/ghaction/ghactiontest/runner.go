// Package ghactiontest reads a step's log as the GitHub runner reads it,
// for tests that check which lines the runner takes for workflow commands.
// It follows the runner's own rule (actions/runner, ActionCommand), written
// apart from the code under test, so that a mistake in one does not hide
// in the other.
package ghactiontest

import (
	"strings"
)

// Command is a line the runner takes for a command.
type Command struct {
	Line int // its index among the log's lines
	// Indented: the runner trimmed characters before the :: that the
	// line does not start with. A program means no command that way.
	Indented bool
	// Legacy: a ##[…] or ##vso[…] command, found anywhere in the line.
	Legacy     bool
	Name       string
	Properties map[string]string // unescaped
	Message    string            // unescaped
	Text       string            // the line as written
}

// IsWhiteSpace is .NET's char.IsWhiteSpace, which the runner's TrimStart
// uses: U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000.
func IsWhiteSpace(r rune) bool {
	if r >= 0x2000 && r <= 0x200a || r >= 0x09 && r <= 0x0d {
		return true
	}
	return strings.ContainsRune("\u0020\u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000", r)
}

// WhiteSpace lists every character IsWhiteSpace accepts, and U+FEFF, which
// a reader of a stream may drop as a byte order mark.
func WhiteSpace() []rune {
	var out []rune
	for r := rune(0); r <= 0x3000; r++ {
		if IsWhiteSpace(r) {
			out = append(out, r)
		}
	}
	return append(out, '\ufeff')
}

// Commands are the lines of log the runner takes for commands: it splits
// the log at line feeds and carriage returns, trims each line's start of white space (and, to
// be strict, of U+FEFF), and reads "::name props::message"; a legacy
// command anywhere in a line counts too.
func Commands(log string) []Command {
	var out []Command
	// The runner reads lines as .NET's StreamReader.ReadLine does: a line
	// ends at a line feed, a carriage return, or both.
	for i, line := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(log, "\r\n", "\n"), "\r", "\n"), "\n") {
		lower := strings.ToLower(line)
		if strings.Contains(line, "##[") || strings.Contains(lower, "##vso[") {
			out = append(out, Command{Line: i, Legacy: true, Text: line})
		}
		trimmed := strings.TrimLeftFunc(line, func(r rune) bool { return IsWhiteSpace(r) || r == '\ufeff' })
		if !strings.HasPrefix(trimmed, "::") {
			continue
		}
		end := strings.Index(trimmed[2:], "::")
		if end < 0 {
			continue
		}
		head, msg := trimmed[2:2+end], trimmed[2+end+2:]
		name, props, _ := strings.Cut(head, " ")
		c := Command{Line: i, Indented: trimmed != line, Name: name, Message: unescapeData(msg), Text: line, Properties: map[string]string{}}
		for _, p := range strings.Split(props, ",") {
			if k, v, ok := strings.Cut(p, "="); ok && k != "" {
				c.Properties[k] = unescapeProperty(v)
			}
		}
		out = append(out, c)
	}
	return out
}

var (
	unescapeData     = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace
	unescapeProperty = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace
)
