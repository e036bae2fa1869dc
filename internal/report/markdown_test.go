package report

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/namerule"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"
)

// hostileNames are names a description can give a parameter, a property or
// a path, each trying to become markup once placed in a summary or comment.
var hostileNames = []string{
	"[Click to approve](https://evil.example/phish)",
	"![t](https://evil.example/track.png)",
	"https://evil.example/auto",
	"www.evil.example",
	"<https://evil.example>",
	"mail me@evil.example",
	"@org/team and @someone",
	`<img src=x onerror=alert(1)>`,
	"</details><script>alert(1)</script>",
	"<!-- hidden -->",
	"a | b | c",
	"`code` and ``more``",
	"ends with a backslash \\",
	"\\",
	"*strong* _em_ ~~gone~~",
	"&lt;entity&gt; &#60;img&#62;",
	"[ref]: https://evil.example/ref",
	"[ref]",
	"two\nlines\r\nand [x](y)",
	"$x^2$ and $$y$$",
	"javascript:alert(1)",
	"`[x](https://evil.example)`",
}

// render is what GitHub would show for md: CommonMark with GitHub's
// extensions, raw HTML let through as GitHub lets some through.
func render(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// inspect lists the tags of rendered HTML, and its text.
func inspect(t *testing.T, rendered string) (tags []string, text string, comments int) {
	t.Helper()
	z := xhtml.NewTokenizer(strings.NewReader(rendered))
	var b strings.Builder
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return tags, b.String(), comments
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken, xhtml.EndTagToken:
			name, _ := z.TagName()
			tags = append(tags, string(name))
		case xhtml.CommentToken:
			comments++
		case xhtml.TextToken:
			b.Write(z.Text())
		}
	}
}

// TestEscapedNamesRenderAsText places each hostile name, escaped, where
// the reports place names (a paragraph, a table cell, <code> in a table
// cell) and renders the Markdown: no link, image, HTML or extra cell comes
// of it, and the text shown is the name itself.
func TestEscapedNamesRenderAsText(t *testing.T) {
	t.Parallel()
	places := map[string]struct {
		md   func(string) string
		tags map[string]bool // the markup the template itself makes
	}{
		"paragraph": {func(s string) string { return "Name: " + s + "\n" }, set("p", "br")},
		"cell": {func(s string) string { return "| a | b |\n|---|---|\n| x | " + s + " |\n" },
			set("table", "thead", "tbody", "tr", "th", "td", "br")},
		"code in a cell": {func(s string) string { return "| a | b |\n|---|---|\n| x | <code>" + s + "</code> |\n" },
			set("table", "thead", "tbody", "tr", "th", "td", "code", "br")},
	}
	for _, name := range hostileNames {
		for place, p := range places {
			rendered := render(t, p.md(EscapeMarkdown(name)))
			tags, text, comments := inspect(t, rendered)
			for _, tag := range tags {
				if !p.tags[tag] {
					t.Errorf("%s %q: renders a <%s>:\n%s", place, name, tag, rendered)
				}
			}
			if comments > 0 {
				t.Errorf("%s %q: renders an HTML comment:\n%s", place, name, rendered)
			}
			if place != "paragraph" {
				if n := strings.Count(rendered, "<td>"); n != 2 {
					t.Errorf("%s %q: %d cells in the row, want 2:\n%s", place, name, n, rendered)
				}
			}
			if place == "code in a cell" && strings.Count(rendered, "<code>") != 1 {
				t.Errorf("%s %q: the code is not one element:\n%s", place, name, rendered)
			}
			// What is shown is the name: zero-width spaces aside, and
			// line breaks made <br>.
			shown := strings.ReplaceAll(text, "\u200b", "")
			want := strings.NewReplacer("\r\n", "", "\r", "", "\n", "").Replace(name)
			if !strings.Contains(shown, want) {
				t.Errorf("%s %q: shows %q", place, name, shown)
			}
		}
	}
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

func TestShorten(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijkl", 5, "abcde… (7 more characters)"},
		{"ééééé", 3, "é… (4 more characters)"}, // cut at a character's start
	}
	for _, tc := range cases {
		got := Shorten(tc.in, tc.max)
		if got != tc.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Shorten(%q, %d) is not UTF-8", tc.in, tc.max)
		}
	}
}

func TestPlural(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 warnings", 1: "1 warning", 2: "2 warnings"} {
		if got := Plural(n, "warning"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// linkedByGitHub are the references GitHub links in a comment or a
// summary, in the text it shows (after Markdown): an issue or pull request
// (#12, owner/repo#12, GH-12, either case) and a commit's SHA (7 to 40
// hex digits, a word of its own; \w is ASCII here, as a zero-width space
// is not a word character to GitHub either).
var linkedByGitHub = []*regexp.Regexp{
	regexp.MustCompile(`#[0-9]+\b`),
	regexp.MustCompile(`(?i)\bgh-[0-9]+\b`),
	regexp.MustCompile(`(?i)(^|[^\w])[0-9a-f]{7,40}($|[^\w])`),
}

// TestReferencesDoNotLink: an issue, pull request or commit reference,
// escaped and placed where the reports place text, renders as the same
// text (zero-width spaces aside) that GitHub no longer reads as a
// reference; controls that would reorder or hide text show as escapes.
func TestReferencesDoNotLink(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, shown string // shown: "" when the text itself is shown
	}{
		{text: "fixes #12"},
		{text: "#1"},
		{text: "see octo/books#12 and octo-org/books.js#4039"},
		{text: "GH-12, gh-7 and Gh-3"},
		{text: "commit a5c3785ed8d6a35868bc169f07e40e889087fd2e"},
		{text: "short a5c3785"},
		{text: "upper A5C3785ED8D6"},
		{text: "octo@a5c3785 and octo/books@a5c3785ed8d6a35868bc169f07e40e889087fd2e"},
		{text: "#12\n#13"},
		{text: "a\u202eb", shown: `a\u202Eb`},
		{text: "gnp.\u202eexe", shown: `gnp.\u202Eexe`},
		{text: "\u202a\u202b\u202c\u202d", shown: `\u202A\u202B\u202C\u202D`},
		{text: "\u2066x\u2067y\u2068z\u2069", shown: `\u2066x\u2067y\u2068z\u2069`},
		{text: "\u200e\u200f\u061c", shown: `\u200E\u200F\u061C`},
		{text: "line\u2028para\u2029", shown: `line\u2028para\u2029`},
		{text: "esc\x1b[31m del\x7f nel\u0085", shown: `esc\u001B[31m del\u007F nel\u0085`},
		{text: "tab\tkept"},
	}
	places := map[string]func(string) string{
		"paragraph":      func(s string) string { return "Name: " + s + "\n" },
		"cell":           func(s string) string { return "| a | b |\n|---|---|\n| x | " + s + " |\n" },
		"code in a cell": func(s string) string { return "| a | b |\n|---|---|\n| x | <code>" + s + "</code> |\n" },
	}
	for _, tc := range cases {
		for place, md := range places {
			_, text, _ := inspect(t, render(t, md(EscapeMarkdown(tc.text))))
			want := tc.shown
			if want == "" {
				want = tc.text
			}
			want = strings.NewReplacer("\n", "").Replace(want)
			if shown := strings.ReplaceAll(text, "\u200b", ""); !strings.Contains(shown, want) {
				t.Errorf("%s %q: shows %q, want %q", place, tc.text, shown, want)
			}
			for _, re := range linkedByGitHub {
				if m := re.FindString(text); m != "" {
					t.Errorf("%s %q: GitHub would link %q in %q", place, tc.text, m, text)
				}
			}
			if i := strings.IndexFunc(text, func(r rune) bool { return namerule.Control(r) && r != '\n' && r != '\t' }); i >= 0 {
				t.Errorf("%s %q: shows the control %U", place, tc.text, []rune(text[i:])[0])
			}
		}
	}
}

// TestReferenceRuleLeavesWordsAlone: text that is no reference keeps its
// characters as they are, with no zero-width space; a run of digits alone
// (or of the letters a to f alone) is kept whole, by choice: the rule
// looks at two neighbouring characters only. (It looks past blanks, so
// "code 200" gets one, invisible, before the 2.)
func TestReferenceRuleLeavesWordsAlone(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"GET /books/{bookId}", "api-path-removed-without-deprecation", "x-request-id", "1234567", "deadbeefcafe", "item 2 in 10 rows", "C# and F#"} {
		if got := EscapeMarkdown(s); strings.Contains(got, "&#8203;") {
			t.Errorf("EscapeMarkdown(%q) = %q, want no zero-width space", s, got)
		}
	}
}

// TestEscapeHoldsEachPart: the escape of a text holds the escape of every
// part of it that does not start or end with a blank or a line break, so
// that the scrub, looking for the escape of a secret, finds it in the
// escape of any text that holds the secret, whatever stands around it.
func TestEscapeHoldsEachPart(t *testing.T) {
	t.Parallel()
	const alphabet = "#-0123456789abcdefABCDEFxyz@_ \n\t\\\u202e"
	rng := rand.New(rand.NewPCG(34, 6))
	word := func(n int) string { return randomText(rng, alphabet, n) }
	for range 20000 {
		before, part, after := word(rng.IntN(4)), strings.Trim(word(1+rng.IntN(12)), " \n\t\\"), word(rng.IntN(4))
		if part == "" {
			continue
		}
		if whole, esc := EscapeMarkdown(before+part+after), EscapeMarkdown(part); !strings.Contains(whole, esc) {
			t.Fatalf("EscapeMarkdown(%q) = %q does not hold EscapeMarkdown(%q) = %q", before+part+after, whole, part, esc)
		}
	}
}

// TestEscapeOfASplitText: text split by a line break or a blank, escaped,
// holds the escape of the text whole once the separators are taken out,
// as the scrub of secrets takes them out to find a secret so split.
func TestEscapeOfASplitText(t *testing.T) {
	t.Parallel()
	const alphabet = "#-0123456789abcdefABCDEFxyz@_"
	squeeze := strings.NewReplacer("<br>", "", " ", "", "\t", "", `\`, "")
	rng := rand.New(rand.NewPCG(34, 7))
	for range 20000 {
		part := randomText(rng, alphabet, 2+rng.IntN(12))
		at := 1 + rng.IntN(len(part)-1)
		sep := []string{"\n", " ", "\t", "\r\n"}[rng.IntN(4)]
		split := "x" + part[:at] + sep + part[at:] + "y"
		if got, want := squeeze.Replace(EscapeMarkdown(split)), squeeze.Replace(EscapeMarkdown(part)); !strings.Contains(got, want) {
			t.Fatalf("EscapeMarkdown(%q) = %q; without separators it does not hold %q", split, got, want)
		}
	}
}

// randomText is n characters drawn from alphabet.
func randomText(rng *rand.Rand, alphabet string, n int) string {
	r := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(r[rng.IntN(len(r))])
	}
	return b.String()
}
