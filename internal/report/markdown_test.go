package report

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/namerule"
	"github.com/docs-publish/docs-publish/internal/report/reporttest"

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
			rendered := reporttest.RenderGFM(t, p.md(EscapeMarkdown(name)))
			text := onlyTags(t, place, name, rendered, p.tags)
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
		// Cut already: cut again from its text, the count carried on.
		{"abcde… (7 more characters)", 30, "abcde… (7 more characters)"},
		{"abcde… (7 more characters)", 5, "abcde… (7 more characters)"},
		{"abcde… (7 more characters)", 2, "ab… (10 more characters)"},
		{"abc… (x more characters)", 2, "ab… (22 more characters)"}, // not Shorten's count: text
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
// is not a word character to GitHub either). A word of digits only is
// left out: GitHub links one only where a commit starts so, and the
// reports leave ids and numbers whole.
var linkedByGitHub = []*regexp.Regexp{
	regexp.MustCompile(`#[0-9]+\b`),
	regexp.MustCompile(`(?i)\bgh-[0-9]+\b`),
}

// shaWord is a word GitHub would read as a commit's SHA.
var shaWord = regexp.MustCompile(`(?i)^[0-9a-f]{7,40}$`)

// linkedIn is the first reference GitHub would link in text, "" for none.
func linkedIn(text string) string {
	for _, re := range linkedByGitHub {
		if m := re.FindString(text); m != "" {
			return m
		}
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'))
	})
	for _, w := range words {
		if shaWord.MatchString(w) && strings.ContainsAny(strings.ToLower(w), "abcdef") {
			return w
		}
	}
	return ""
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
		{text: "1234567a and deadbeefcafe"},
		{text: "(#12), [GH-3]: gh-4; x/y#5."},
		{text: "range a5c3785...b0e1c2d, 13 digits 1234567890abc"},
		{text: "é123456a after a letter GitHub counts as no word character"},
		{text: "\u202e1234567\u202e", shown: `\u202E1234567\u202E`},
		{text: "build 9007199254740993, commit 9864129"},
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
			_, text, _ := inspect(t, reporttest.RenderGFM(t, md(EscapeMarkdown(tc.text))))
			want := tc.shown
			if want == "" {
				want = tc.text
			}
			want = strings.NewReplacer("\n", "").Replace(want)
			if shown := strings.ReplaceAll(text, "\u200b", ""); !strings.Contains(shown, want) {
				t.Errorf("%s %q: shows %q, want %q", place, tc.text, shown, want)
			}
			if m := linkedIn(text); m != "" {
				t.Errorf("%s %q: GitHub would link %q in %q", place, tc.text, m, text)
			}
			if i := strings.IndexFunc(text, func(r rune) bool { return namerule.Control(r) && r != '\n' && r != '\t' }); i >= 0 {
				t.Errorf("%s %q: shows the control %U", place, tc.text, []rune(text[i:])[0])
			}
		}
	}
}

// TestOrdinaryTextIsLeftAlone: text that GitHub does not read as a
// reference comes out of unlinkReferences byte for byte as it went in: a
// word with a letter past f, a hex word shorter than 7 or longer than 40
// characters, or one inside a longer word, a number after # or GH- that
// goes on as a word, dates, versions and counts.
func TestOrdinaryTextIsLeftAlone(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"v2alpha1", "00ff", "color #00ff00", "abc123",
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"a5c3785ed8d6a35868bc169f07e40e889087fd2e0", // 41
		"1 breaking change", "1 error and 1 warning", "service answered 404 Not Found: project 4711",
		"deadbee5ing", "xdeadbee5", "deadbee5_x", "_deadbee5", "0x1234567", "id_a5c3785ed8d6",
		"2026-11-27", "2026-11-27T01:39:58Z", "v1.2.3", "1.10.0-rc.1", "go1.24.5",
		"GET /books/{bookId}", "api-path-removed-without-deprecation", "x-request-id",
		"item 2 in 10 rows", "C# and F#", "#define", "#12abc", "#12_3", "gh-12a", "xgh-12", "ugh-12", "gh-", "gh-x1",
		"tab\tkept", "ünïcödé 12345 text",
		"1234567", "build 9007199254740993", "docs-build-9007199254740993.zip", "20261127",
	} {
		if got := unlinkReferences(s); got != s {
			t.Errorf("unlinkReferences(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestReferenceBreaks: the zero-width spaces go where they are needed and
// nowhere else: one between # or GH- and the number, and in a commit SHA
// one after every 6th digit.
func TestReferenceBreaks(t *testing.T) {
	t.Parallel()
	const z = zwsp
	cases := map[string]string{
		"fixes #12.":         "fixes #" + z + "12.",
		"octo/books#4039":    "octo/books#" + z + "4039",
		"(GH-7) and gh-12":   "(GH-" + z + "7) and gh-" + z + "12",
		"a5c3785":            "a5c378" + z + "5",
		"123456a":            "123456" + z + "a",
		"DEADBEEFCAFE1":      "DEADBE" + z + "EFCAFE" + z + "1",
		"octo@a5c3785ed8d6,": "octo@a5c378" + z + "5ed8d6,",
		"a5c3785...b0e1c2d":  "a5c378" + z + "5...b0e1c2" + z + "d",
		"é123456a":           "é123456" + z + "a",
		"#0000000A":          "#" + z + "000000" + z + "0A",
		"gh-123456ab":        "gh-" + z + "123456" + z + "ab",
		"a5c3785ed8d6a35868bc169f07e40e889087fd2e": "a5c378" + z + "5ed8d6" + z + "a35868" + z + "bc169f" + z + "07e40e" + z + "889087" + z + "fd2e",
		"x\u202e#1": "x\\u202E#" + z + "1",
	}
	for in, want := range cases {
		if got := unlinkReferences(in); got != want {
			t.Errorf("unlinkReferences(%q) = %q, want %q", in, got, want)
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

// BenchmarkUnlinkReferences: the time per byte stays flat as the text
// grows, for each shape a description could choose (go test -bench
// UnlinkReferences ./internal/report, and compare ns/op at the two sizes).
func BenchmarkUnlinkReferences(b *testing.B) {
	shapes := map[string]string{
		"hex run":     "a",
		"hex words":   "a5c3785 ",
		"issues":      "#1",
		"hashes":      "#",
		"gh":          "gh-1 ",
		"long number": "1",
		"controls":    "\u202e1",
		"prose":       "1 breaking change in v2alpha1, ",
	}
	for name, unit := range shapes {
		for _, size := range []int{1 << 16, 1 << 20} {
			s := strings.Repeat(unit, size/len(unit))
			b.Run(fmt.Sprintf("%s/%d", name, size), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					unlinkReferences(s)
				}
			})
		}
	}
}

// FuzzUnlinkReferences: whatever the text, unlinkReferences only adds
// zero-width spaces to it (its controls written as escapes), and leaves
// nothing GitHub's patterns would link.
func FuzzUnlinkReferences(f *testing.F) {
	for _, s := range []string{"fixes #12", "GH-12 gh-7", "a5c3785ed8d6a35868bc169f07e40e889087fd2e", "octo@a5c3785", "v2alpha1 00ff", "\u202e#1", "é1234567", "#12abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := unlinkReferences(s)
		if strings.ReplaceAll(got, zwsp, "") != strings.ReplaceAll(namerule.EscapeControls(s), zwsp, "") {
			t.Fatalf("unlinkReferences(%q) = %q: more than zero-width spaces added", s, got)
		}
		if m := linkedIn(got); m != "" {
			t.Fatalf("unlinkReferences(%q) = %q: GitHub would link %q", s, got, m)
		}
	})
}

// TestCodeSpanCopiesAsItIs: a value written with CodeSpan, in a paragraph
// or a table cell, renders as one code element that shows it byte for byte
// (a SHA copied from it is the SHA), and hostile text written so opens no
// link, HTML or cell of its own and shows as itself.
func TestCodeSpanCopiesAsItIs(t *testing.T) {
	t.Parallel()
	places := map[string]struct {
		md   func(string) string
		tags map[string]bool
	}{
		"paragraph": {func(s string) string { return "against commit " + s + ".\n" }, set("p", "code", "br")},
		"cell": {func(s string) string { return "| a | b |\n|---|---|\n| x | " + s + " |\n" },
			set("table", "thead", "tbody", "tr", "th", "td", "code", "br")},
	}
	whole := []string{"61a4a26", "acme/pets@9ad33cd", " a ", "a5c3785ed8d6a35868bc169f07e40e889087fd2e",
		"Update api.yml from acme/pets@0123456 (https://github.com/acme/pets/actions/runs/42)",
		"fixes #12 for @someone", "`code` and ``more``", "<b>&amp;</b>"}
	for place, p := range places {
		for _, v := range whole {
			rendered := reporttest.RenderGFM(t, p.md(CodeSpan(v)))
			if want := "<code>" + xhtmlEscape(v) + "</code>"; !strings.Contains(rendered, want) {
				t.Errorf("%s %q: renders\n%s\nwant %s in it", place, v, rendered, want)
			}
		}
		for _, name := range hostileNames {
			rendered := reporttest.RenderGFM(t, p.md(CodeSpan(name)))
			text := onlyTags(t, place, name, rendered, p.tags)
			if place == "cell" && strings.Count(rendered, "<td>") != 2 {
				t.Errorf("%s %q: not 2 cells in the row:\n%s", place, name, rendered)
			}
			shown := strings.ReplaceAll(text, "\u200b", "")
			if want := strings.NewReplacer("\r\n", "", "\r", "", "\n", "").Replace(name); !strings.Contains(shown, want) {
				t.Errorf("%s %q: shows %q", place, name, shown)
			}
		}
	}
	// GitHub's tables end a cell at a pipe even inside a code span (the
	// GFM spec's tables extension), which the renderer here does not do.
	if got := CodeSpan("a | b"); strings.Contains(got, "`") {
		t.Errorf("a pipe in a code span: %q", got)
	}
	if got := CodeSpan("a\u202eb"); got != "`a\\u202Eb`" {
		t.Errorf("a control in a code span: %q", got)
	}
}

// xhtmlEscape is s as the renderer writes text in HTML.
func xhtmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// onlyTags fails t if rendered, the Markdown of name at place, holds a
// tag other than those allowed, or an HTML comment; it returns its text.
func onlyTags(t *testing.T, place, name, rendered string, allowed map[string]bool) string {
	t.Helper()
	tags, text, comments := inspect(t, rendered)
	for _, tag := range tags {
		if !allowed[tag] {
			t.Errorf("%s %q: renders a <%s>:\n%s", place, name, tag, rendered)
		}
	}
	if comments > 0 {
		t.Errorf("%s %q: renders an HTML comment:\n%s", place, name, rendered)
	}
	return text
}
