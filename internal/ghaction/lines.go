package ghaction

import (
	"strings"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// What the runner reads as a command in a line of a step's log: it splits
// the output at line feeds, trims each line's start of every character
// .NET's char.IsWhiteSpace accepts, and takes a line that then starts with
// "::" for a workflow command. It also acts on "##[command]" (and Azure
// Pipelines on "##vso[command]"). The log sink makes every line it writes
// safe from both, unless the program means the line as a command.

// OneLine makes text safe as one line of the log: line breaks escaped as
// the runner escapes them in workflow commands, other controls shown as
// escapes (namerule.EscapeControls: the sink scrubs the text after, and
// reads these escapes as the controls they stand for, so that a secret
// split by them is masked whole), and no command of the runner's (or
// another CI system's) left in it, so that text from a description, a
// file name or the service can never issue one.
func OneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r", "%0D", "\n", "%0A").Replace(s)
	}
	return noCommand(s)
}

// NoCommands makes text of any number of lines safe as the log: each
// line one the runner reads as no command (see noCommand).
func NoCommands(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		// The runner reads a lone carriage return as a line break too (its
		// stream reader's ReadLine): what follows one starts a line.
		parts := strings.Split(l, "\r")
		for j, p := range parts {
			parts[j] = noCommand(p)
		}
		lines[i] = strings.Join(parts, "\r")
	}
	return strings.Join(lines, "\n")
}

// noCommand makes a line, without line feeds, one the runner reads as no
// command: its controls shown as escapes (namerule.EscapeControls), legacy
// commands broken wherever they are, and a line that would start with ::
// once trimmed as the runner trims it put after "> ".
func noCommand(line string) string {
	line = defuse(namerule.EscapeControls(line))
	if strings.HasPrefix(strings.TrimLeftFunc(line, runnerTrims), "::") {
		line = "> " + line
	}
	return line
}

// runnerTrims reports whether the runner trims r from the start of a line
// before it looks for "::": .NET's char.IsWhiteSpace (U+0009–U+000D,
// U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
// U+205F, U+3000). U+FEFF (a byte order mark, which a stream reader may
// drop) and U+180E (white space in Unicode before 6.3, and so in older
// .NET) are counted too: a line put after "> " by mistake costs nothing, a
// command let through costs the run.
func runnerTrims(r rune) bool {
	switch {
	case '\t' <= r && r <= '\r', r == ' ', r == '\u0085', r == '\u00a0', r == '\u1680',
		'\u2000' <= r && r <= '\u200a', r == '\u2028', r == '\u2029', r == '\u202f', r == '\u205f', r == '\u3000',
		r == '\ufeff', r == '\u180e':
		return true
	}
	return false
}

// defuse breaks the commands the runner (and Azure Pipelines) act on
// anywhere in a line, "##[command]" and "##vso[command]" in any letter
// case, by putting a blank after the ##.
func defuse(s string) string {
	if !strings.Contains(s, "##") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if commandAt(s, i) {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// defuseJSON breaks ##[ and ##vso[ inside the text of a JSON string as
// defuse does in a line, with an escape that decodes to the same text
// (#\u0023[), so that the value a reader decodes is unchanged.
func defuseJSON(s string) string {
	if !strings.Contains(s, "##") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if commandAt(s, i) {
			b.WriteString(`\u0023`)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// commandAt reports whether s[i] is the second # of a ##[ or ##vso[.
func commandAt(s string, i int) bool {
	if i == 0 || s[i] != '#' || s[i-1] != '#' {
		return false
	}
	rest := s[i+1:]
	return strings.HasPrefix(rest, "[") || len(rest) >= 4 && strings.EqualFold(rest[:4], "vso[")
}
