package redact

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// formatClasses are the characters that show as nothing, a class each:
// Unicode's format characters (category Cf) and the other default
// ignorable code points. Each class has characters from its start, its
// end and its middle.
var formatClasses = map[string][]rune{
	"bidi marks":              {'\u200e', '\u200f', '\u061c'},
	"bidi embeds, overrides":  {'\u202a', '\u202b', '\u202c', '\u202d', '\u202e'},
	"bidi isolates":           {'\u2066', '\u2067', '\u2068', '\u2069'},
	"zero width, joiners":     {'\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'},
	"invisible operators":     {'\u2061', '\u2062', '\u2063', '\u2064'},
	"deprecated format":       {'\u206a', '\u206f'},
	"soft hyphen, Mongolian":  {'\u00ad', '\u180e'},
	"other format, astral":    {'\U0001bca0', '\U0001d173', '\U0001d17a', '\U000110bd'},
	"tags":                    {'\U000e0001', '\U000e0020', '\U000e0041', '\U000e007f'},
	"variation selectors":     {'\ufe00', '\ufe0f', '\U000e0100', '\U000e01ef', '\u180b'},
	"other ignorable":         {'\u034f', '\u115f', '\u1160', '\u17b4', '\u3164', '\uffa0', '\U000e0000', '\U000e0080', '\U000e0fff'},
	"noncharacter ignorables": {'\ufff0', '\ufff8'},
}

// formatForms write a character as the encodings the package reads do.
var formatForms = map[string]func(r rune) string{
	"raw":            func(r rune) string { return string(r) },
	"JSON":           jsonRune,
	"JS braces":      func(r rune) string { return fmt.Sprintf(`\u{%x}`, r) },
	"HTML hex":       func(r rune) string { return fmt.Sprintf("&#x%X;", r) },
	"HTML decimal":   func(r rune) string { return fmt.Sprintf("&#%d;", r) },
	"percent UTF-8":  func(r rune) string { return url.QueryEscape(string(r)) },
	"JSON of a JSON": func(r rune) string { return strings.ReplaceAll(jsonRune(r), `\`, `\\`) },
}

// jsonRune is r as a JSON encoder escapes it: a surrogate pair beyond the
// Basic Multilingual Plane.
func jsonRune(r rune) string {
	if r < 0x10000 {
		return fmt.Sprintf(`\u%04X`, r)
	}
	r -= 0x10000
	return fmt.Sprintf(`\u%04x\u%04x`, 0xd800+r>>10, 0xdc00+r&0x3ff)
}

// TestFormatCharactersInsideASecret: a character that shows as nothing,
// written in any encoding the package reads, inside a secret (as a
// hostile server puts one to hide it from a scrub), at either edge, or
// between every two of its characters, hides nothing.
func TestFormatCharactersInsideASecret(t *testing.T) {
	t.Parallel()
	const before, after = "bad: ", " end"
	for class, runes := range formatClasses {
		for form, write := range formatForms {
			t.Run(class+"/"+form, func(t *testing.T) {
				t.Parallel()
				for _, tok := range []string{"emutoken-SECRET-123456", gh} {
					r := New(tok)
					for _, c := range runes {
						inv := write(c)
						for where, text := range map[string]string{
							"inside":  tok[:8] + inv + tok[8:],
							"between": strings.Join(strings.Split(tok, ""), inv),
							"before":  inv + tok,
							"after":   tok + inv,
							"escaped": jsonEscaped(tok[:12]) + inv + jsonEscaped(tok[12:]),
						} {
							got := r.Redact(before + text + after)
							// An edge character may stay beside the mask.
							if strings.ReplaceAll(got, inv, "") != before+Mask+after {
								t.Errorf("%U %s: %q scrubbed to %q", c, where, before+text+after, got)
							}
						}
					}
				}
			})
		}
	}
}

func jsonEscaped(s string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteString(jsonRune(c))
	}
	return b.String()
}

// TestInvisibleIsARule: every format character and default ignorable code
// point counts, and no character that shows: letters, marks that combine
// visibly, blanks (a separator of their own), controls (escaped where
// shown).
func TestInvisibleIsARule(t *testing.T) {
	t.Parallel()
	for _, runes := range formatClasses {
		for _, c := range runes {
			if !invisible(c) {
				t.Errorf("%U is not counted invisible", c)
			}
		}
	}
	for _, c := range []rune{'a', ' ', '\t', '\n', '\u00a0', '\u0301', '\u2028', '\u3000', 'é', '😀', utf8.RuneError, '\u0000'} {
		if invisible(c) {
			t.Errorf("%U is counted invisible", c)
		}
	}
}

// TestSecretWithAFormatCharacter: a secret pasted with a character that
// shows as nothing is found as written, and as a reader sees it.
func TestSecretWithAFormatCharacter(t *testing.T) {
	t.Parallel()
	for _, c := range []rune{'\u200e', '\ufeff', '\u00ad', '\U000e0041'} {
		for _, sec := range []string{string(c) + emu, emu[:9] + string(c) + emu[9:], emu + string(c), "ab" + string(c) + "cd"} {
			shown := strings.ReplaceAll(sec, string(c), "")
			for _, text := range []string{sec, shown, jsonEscaped(sec)} {
				// The character may stay beside the mask.
				got := New(sec).Redact("x " + text + " y")
				if strings.NewReplacer(string(c), "", jsonRune(c), "").Replace(got) != "x "+Mask+" y" {
					t.Errorf("secret %q in %q: got %q", sec, text, got)
				}
			}
			if !slices.Contains(Forms(sec), shown) {
				t.Errorf("Forms(%q) lacks %q", sec, shown)
			}
		}
	}
}

// TestWhiteSpaceInsideASecret: every character Unicode counts as white
// space (U+00A0, U+2028, U+3000…), not only ASCII blanks, splits a secret
// as text folded or made one line does, in any encoding the package reads:
// it is a separator, so runs each shorter than half of a secret hide
// nothing, whole or in part.
func TestWhiteSpaceInsideASecret(t *testing.T) {
	t.Parallel()
	const before, after = "bad: ", " end"
	var spaces []rune
	for _, rg := range unicode.White_Space.R16 {
		for c := rg.Lo; c <= rg.Hi; c += rg.Stride {
			spaces = append(spaces, rune(c))
		}
	}
	if len(spaces) < 25 {
		t.Fatalf("%d white space characters, want Unicode's 25", len(spaces))
	}
	r := gh[4:] // 36 characters: 18 in a row are masked
	for form, write := range formatForms {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			for _, c := range spaces {
				if c == '\u0085' && strings.HasPrefix(form, "HTML") {
					continue // a browser reads &#133; as U+2026, as Windows-1252 has it
				}
				sp := write(c)
				cases := map[string]struct{ tok, in string }{
					"twice, runs of 12": {gh, gh[:16] + sp + r[12:24] + sp + r[24:]},
					"between every two": {gh, strings.Join(strings.Split(gh, ""), sp)},
					// Under 12 characters, found only whole.
					"a short secret": {"abcd12345x", "abcd1" + sp + "2345x"},
				}
				// Parts are looked for in one reading of the text, where
				// + is itself: a secret may hold one.
				if sp != "+" {
					cases["in a part, 11 of 22"] = struct{ tok, in string }{emu, emu[:6] + sp + emu[6:11]}
				}
				for where, tc := range cases {
					if got := New(tc.tok).Redact(before + tc.in + after); got != before+Mask+after {
						t.Errorf("%U %s: %q scrubbed to %q", c, where, before+tc.in+after, got)
					}
				}
			}
		})
	}
}
