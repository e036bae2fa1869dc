package redact

import (
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/report"
)

// controlForms write text holding controls as the encodings the package
// reads do: each control escaped (and, where the encoding needs it, each
// backslash), everything else as it is.
var controlForms = map[string]func(s string) string{
	"raw":          func(s string) string { return s },
	"JSON":         escapeControlsAs(`\u%04x`, `\\`),
	"JSON upper":   escapeControlsAs(`\u%04X`, `\\`),
	"JS hex":       escapeControlsAs(`\x%02x`, `\\`),
	"octal":        escapeControlsAs(`\%03o`, `\\`),
	"HTML decimal": escapeControlsAs("&#%d;", `\`),
	"HTML hex":     escapeControlsAs("&#x%X;", `\`),
	"percent":      url.QueryEscape,
	"caret":        caret,
	"shell":        func(s string) string { return strings.NewReplacer("\\", `\\`, "\x1b", `\e`, "\a", `\a`).Replace(s) },
	// As the job summary writes it: \u001B, its backslash and the
	// punctuation after it escaped for Markdown (\\u001B\[0m).
	"summary":      report.EscapeMarkdown,
	"JSON of JSON": func(s string) string { return escapeControlsAs(`\u%04X`, `\\`)(escapeControlsAs(`\u%04X`, `\\`)(s)) },
}

// escapeControlsAs writes each control of s in format, and each
// backslash as backslash.
func escapeControlsAs(format, backslash string) func(string) string {
	return func(s string) string {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r == '\\':
				b.WriteString(backslash)
			case control(r) && (r < 0x80 || format != `\%03o`):
				fmt.Fprintf(&b, format, r)
			case control(r): // as C writes bytes: UTF-8, a byte at a time
				for _, c := range []byte(string(r)) {
					fmt.Fprintf(&b, format, c)
				}
			default:
				b.WriteRune(r)
			}
		}
		return b.String()
	}
}

// caret writes the C0 controls and DEL of s as cat -v does: ^[ for ESC.
func caret(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			b.WriteString("^" + string(rune(r^0x40)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// controlChars are controls from each range: C0 (NUL, its edges, and
// those that are no blank), DEL, C1 (NEL, which is white space, and its
// edges).
var controlChars = []rune{0x00, 0x01, 0x07, 0x08, 0x1b, 0x1f, 0x7f, 0x80, 0x81, 0x85, 0x9b, 0x9f}

// shownInHTML reports whether an HTML reference to a control shows a
// character: a browser shows NUL as U+FFFD, and most C1 controls as the
// Windows-1252 characters of their bytes (&#x80; is €).
func shownInHTML(s string) bool {
	return strings.ContainsFunc(html.UnescapeString(escapeControlsAs("&#%d;", `\`)(s)), func(r rune) bool {
		return r >= 0x80 && !control(r)
	})
}

// escapeSequences are a terminal's escape sequences, as a hostile server
// puts them inside a secret: each shows as nothing, or restyles what
// follows, and GitHub's log viewer renders them.
var escapeSequences = map[string]string{
	"reset":                 "\x1b[0m",
	"colour":                "\x1b[1;31m",
	"256 colours":           "\x1b[38;5;196m",
	"private mode":          "\x1b[?25l",
	"CSI with intermediate": "\x1b[1 q",
	"C1 CSI":                "\u009b0m",
	"title, BEL":            "\x1b]0;a title\a",
	"link, ST":              "\x1b]8;;https://example.com/x\x1b\\",
	"DCS":                   "\x1bP1$r\x1b\\",
	"APC":                   "\x1b_hidden text\x1b\\",
	"C1 OSC, C1 ST":         "\u009d0;title\u009c",
	"charset":               "\x1b(B",
	"save cursor":           "\x1b7",
	"reset terminal":        "\x1bc",
	"two in a row":          "\x1b[0m\x1b[1m",
}

// TestControlsInsideASecret: a control character, or a terminal's escape
// sequence, in any encoding the package reads, between each two
// characters of a secret or once inside it, hides nothing: the whole
// secret, and whatever stands inside it, is masked.
func TestControlsInsideASecret(t *testing.T) {
	t.Parallel()
	const before, after = "bad: ", " end"
	splits := map[string]string{}
	for _, c := range controlChars {
		splits[fmt.Sprintf("%U", c)] = string(c)
	}
	for name, seq := range escapeSequences {
		splits[name] = seq
	}
	for form, write := range controlForms {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			// A secret too short to be looked for in part is found by the
			// whole-secret match alone.
			for _, tok := range []string{"sk_live_4eC39HqLyjWDarjtT1zdp7dc", gh, "k3y-9fQ2zw"} {
				r := New(tok)
				for name, split := range splits {
					if strings.HasPrefix(form, "HTML") && shownInHTML(split) {
						continue
					}
					for where, text := range map[string]string{
						"between": strings.Join(strings.Split(tok, ""), split),
						"inside":  tok[:5] + split + tok[5:],
					} {
						in := before + write(text) + after
						if got := r.Redact(in); got != before+Mask+after {
							t.Errorf("%s %s: %q scrubbed to %q", name, where, in, got)
						}
					}
				}
			}
		})
	}
}

// TestControlsInsideAPart: a part of a secret long enough to be masked
// (see partial.go) is masked with controls and escape sequences inside it
// too.
func TestControlsInsideAPart(t *testing.T) {
	t.Parallel()
	r := New(emu)
	part := emu[:15] // emutoken-SECRET
	for name, split := range map[string]string{"NUL": "\x00", "reset": "\x1b[0m", "reset, JSON": `\u001b[0m`, "link": "\x1b]8;;x\a"} {
		in := "bad: " + strings.Join(strings.Split(part, ""), split) + " end"
		if got := r.Redact(in); got != "bad: "+Mask+" end" {
			t.Errorf("%s: %q scrubbed to %q", name, in, got)
		}
	}
}

// TestTextAroundSequencesKept: escape sequences, and controls, in text
// with no secret are left as they are, and so is the text beside a
// masked secret.
func TestTextAroundSequencesKept(t *testing.T) {
	t.Parallel()
	r := New(gh)
	for _, in := range []string{
		"\x1b[1;31merror\x1b[0m: \x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ \x00 \x7f \u009b0m",
		`\u001b[0mplain\u001b[1m \e[0m \033[0m ^[[0m %1B%5B0m &#27;[0m`,
		"\x1b]0;" + gh[:7] + "\a", // a part too short to be masked
	} {
		if got := r.Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
	in := "\x1b[31m" + gh[:20] + "\x1b[0m" + gh[20:] + "\x1b[0m done"
	if got, want := r.Redact(in), "\x1b[31m"+Mask+"\x1b[0m done"; got != want {
		t.Errorf("Redact(%q) = %q, want %q", in, got, want)
	}
}

// TestSequenceEnds: where a sequence ends, as a terminal reads it; one
// left unfinished ends where the next control starts another.
func TestSequenceEnds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, seq string }{
		{"\x1b[0mx", "\x1b[0m"},
		{"\x1b[0\x00mx", "\x1b[0\x00m"}, // a control inside acts, the sequence goes on
		{"\x1b[0\x1b[1mx", "\x1b[0"},    // ESC cancels it
		{"\x1b[0éx", "\x1b[0"},
		{"\x1b]0;title\ax", "\x1b]0;title\a"},
		{"\x1b]0;title\x1b\\x", "\x1b]0;title\x1b\\"},
		{"\x1b]0;title\x1b[0mx", "\x1b]0;title"},
		// A C0 control inside a control string is ignored by a terminal:
		// the string goes on to its end; CAN and SUB cancel it.
		{"\x1b]0;ti\ntle\ax", "\x1b]0;ti\ntle\a"},
		{"\x1b]0;\x01x\ay", "\x1b]0;\x01x\a"},
		{"\x1bPq\x01x\x1b\\y", "\x1bPq\x01x\x1b\\"},
		{"\x1b]0;x\x18y", "\x1b]0;x\x18"},
		{"\x1b]0;x\u0085y", "\x1b]0;x"}, // a C1 control ends it
		{`\u001b]0;\u0001x\u0007y`, `\u001b]0;\u0001x\u0007`},
		{"&#27;&#93;0;&#1;x&#7;y", "&#27;&#93;0;&#1;x&#7;"},
		{"\x1b]0;title", "\x1b]0;title"},
		{"\x1b(Bx", "\x1b(B"},
		{"\x1b7x", "\x1b7"},
		// A C0 control after ESC is carried out, and the sequence read
		// on; ESC, CAN and SUB end the look.
		{"\x1b\x01[0mx", "\x1b\x01[0m"},
		{"\x1b\x01\x02(Bx", "\x1b\x01\x02(B"},
		{"\x1b(\x01Bx", "\x1b(\x01B"},
		{`\e\x01[0mx`, `\e\x01[0m`},
		{"\x1b\x01x", "\x1b\x01x"},
		{"\x1b\x18[0mx", ""},
		{`\E[0mx`, `\E[0m`},
		// A C1 control written as one byte, as Python's \233 reads.
		{`\2330mx`, `\2330m`},
		{"\x1b", ""},
		{`\u001b\[0mx`, `\u001b\[0m`},
		{`\\u001B\[0mx`, `\\u001B\[0m`},
		{`%1B%5B0%3B1mx`, `%1B%5B0%3B1m`},
		{`\u001b]0;t\u0007x`, `\u001b]0;t\u0007`},
		{`\e]0;t\e\\x`, `\e]0;t\e\\`},
	} {
		var q seqScan
		var got string
		if end := q.at(tc.in, 0, units(tc.in, 0, nil)); end > 0 {
			got = tc.in[:end]
		}
		if got != tc.seq {
			t.Errorf("sequence of %q = %q, want %q", tc.in, got, tc.seq)
		}
	}
}

// TestSequencesReadEachCharacterOnce: however many sequences start before
// it, each character is read once for each kind of body, so that finding
// them costs time linear in the text. Escapes of escapes start several
// sequences whose bodies are the same text (%25251B is ESC at three
// places), and a body is long.
func TestSequencesReadEachCharacterOnce(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("a", 10000)
	for name, s := range map[string]string{
		"OSC":          strings.Repeat(`%25251B]`+body+`%07`, 10),
		"CSI":          strings.Repeat(`&amp;amp;#27;[`+strings.Repeat("1;", 5000)+`m`, 10),
		"nF":           strings.Repeat(`\\\\u001b(`+strings.Repeat(" ", 10000)+"B", 10),
		"unterminated": `%25251B]` + body,
	} {
		// As the match may: asked at every position.
		var q seqScan
		found := 0
		for i := range len(s) {
			if q.at(s, i, units(s, i, nil)) > 0 {
				found++
			}
		}
		if found == 0 {
			t.Errorf("%s: no sequence found", name)
		}
		for kind, n := range q.reads {
			if n > len(s)+1 {
				t.Errorf("%s: %d characters read for bodies of kind %d in a text of %d bytes", name, n, kind, len(s))
			}
		}
	}
}

// TestEachStateSearchedOnce: a title that is not ended runs over the
// text after it, later starts of a secret included, so that a search from
// each start could read on to the end of the text; each reads on only to
// the states an earlier one found leads to no match, so that the states
// searched from are fewer than the bytes of the text, not their square.
func TestEachStateSearchedOnce(t *testing.T) {
	t.Parallel()
	r := New(gh, secret)
	for name, unit := range map[string]string{
		"titles":           gh[:5] + `%25251B]&amp;amp;#27;]\\u001b]`,
		"links and blanks": gh[:9] + "\x1b]8;;x " + gh[:3] + "  ",
	} {
		text := strings.Repeat(unit, 1000)
		m := matcher{s: text, seqs: &seqScan{}}
		if spans := m.find(r); len(spans) > 0 {
			t.Errorf("%s: %d spans found in text with no secret", name, len(spans))
		}
		if m.pushes > len(text) {
			t.Errorf("%s: %d states searched from in %d bytes", name, m.pushes, len(text))
		}
	}
}

// BenchmarkRedactSequences scrubs log text coloured as a test runner
// colours it, a reset code after every few characters, with escaped
// resets and starts of the secret among them; and text of escapes of
// escapes of ESC, each starting a title that runs to the end of the text
// (none ends): the sequences are read once, and each is a separator to
// the match. The time a byte stays the same at 1 and 4 MB.
func BenchmarkRedactSequences(b *testing.B) {
	chunk := "\x1b[32mok\x1b[0m " + gh[:6] + "\x1b[0m" + `\u001b[1;31mFAIL\u001b[0m ` + "\x1b]8;;https://example.com\x1b\\x\x1b]8;;\x1b\\ "
	for name, unit := range map[string]string{"coloured": chunk, "unended titles": gh[:5] + `%25251B]&amp;amp;#27;]\\u001b]`} {
		for _, size := range []int{1 << 20, 4 << 20} {
			text := strings.Repeat(unit, size/len(unit))
			b.Run(fmt.Sprintf("%s/%dMB", name, size>>20), func(b *testing.B) {
				r := New(gh, secret)
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					r.Redact(text)
				}
			})
		}
	}
}

// TestSecretSplitAsTerminalsReadSequences: a secret cut in three by
// sequences whose controls a terminal carries out or ignores (a control
// inside a title, after an ESC, among a short form's bytes), written or
// escaped, reads whole in a terminal, and is masked whole.
func TestSecretSplitAsTerminalsReadSequences(t *testing.T) {
	t.Parallel()
	const sec = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	r := New(sec)
	a, b, c := sec[:11], sec[11:22], sec[22:]
	for name, sep := range map[string]string{
		"a control in a title":          "\x1b]0;\x01x\x07",
		"a control in a title, escaped": `\u001b]0;\u0001x\u0007`,
		"a line feed in a title":        "\x1b]0;\nx\x07",
		"a control in a DCS":            "\x1bPq\x01x\x1b\\",
		"a control after ESC":           "\x1b\x01[0m",
		"a control after ESC, escaped":  `\e\x01[0m`,
		"a control in a short form":     "\x1b(\x01B",
		"HTML entities":                 "&#27;&#93;0;&#1;x&#7;",
		"a C1 CSI written in octal":     `\2330m`,
		"vertical tabs, escaped":        `\v\v`,
		"a title cancelled by CAN":      "\x1b]0;x\x18",
	} {
		text := a + sep + b + sep + c
		if got := r.Redact(text); strings.Contains(got, a) || strings.Contains(got, b) || strings.Contains(got, c) {
			t.Errorf("%s: %q scrubbed to %q", name, text, got)
		}
	}
}
