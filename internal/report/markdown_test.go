package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

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
