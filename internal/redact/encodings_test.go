package redact

import (
	"encoding/base64"
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"testing"
)

// punctuation is every ASCII punctuation character: a token may hold any
// of them (base64's +/=, JWT's dots, GitHub's _, URL-safe -~).
const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// tokens are secrets of letters, digits and, between them, each
// punctuation character, at the start, inside and at the end.
func tokens() []string {
	out := []string{"ghs_16C7e42F292c6912E7710c838347Ae178B4a", "sK9+abcDEF/ghi=JKL0"}
	for i, p := range punctuation {
		c := string(p)
		switch i % 3 {
		case 0:
			out = append(out, c+"Ab3dE5gH7j"+c+"k")
		case 1:
			out = append(out, "Zy9"+c+c+"xW8vU7tS6")
		default:
			out = append(out, "q1W2e3R4t5"+c)
		}
	}
	return out
}

// namedEntity are HTML's names for ASCII punctuation, as browsers decode
// them; checked against html.UnescapeString below.
var namedEntity = map[byte][]string{
	'!': {"&excl;"}, '"': {"&quot;", "&QUOT;", "&quot"}, '#': {"&num;"}, '$': {"&dollar;"}, '%': {"&percnt;"},
	'&': {"&amp;", "&AMP;", "&amp"}, '\'': {"&apos;"}, '(': {"&lpar;"}, ')': {"&rpar;"}, '*': {"&ast;", "&midast;"},
	'+': {"&plus;"}, ',': {"&comma;"}, '.': {"&period;"}, '/': {"&sol;"}, ':': {"&colon;"}, ';': {"&semi;"},
	'<': {"&lt;", "&LT;", "&lt"}, '=': {"&equals;"}, '>': {"&gt;", "&GT;", "&gt"}, '?': {"&quest;"}, '@': {"&commat;"},
	'[': {"&lsqb;", "&lbrack;"}, '\\': {"&bsol;"}, ']': {"&rsqb;", "&rbrack;"}, '^': {"&Hat;"}, '_': {"&lowbar;", "&UnderBar;"},
	'`': {"&grave;"}, '{': {"&lcub;", "&lbrace;"}, '|': {"&verbar;", "&vert;"}, '}': {"&rcub;", "&rbrace;"},
}

// encodings of one character: each returns c as an encoder writes it,
// given whether the next character is one a bare reference would swallow.
var encodings = map[string]func(c byte, rnd *rand.Rand) string{
	"plain":            func(c byte, _ *rand.Rand) string { return string(c) },
	"JSON lower hex":   func(c byte, _ *rand.Rand) string { return fmt.Sprintf(`\u%04x`, c) },
	"JSON upper hex":   func(c byte, _ *rand.Rand) string { return fmt.Sprintf(`\u%04X`, c) },
	"JSON short":       jsonShort,
	"JS \\x":           func(c byte, _ *rand.Rand) string { return fmt.Sprintf(`\x%02x`, c) },
	"HTML decimal":     func(c byte, _ *rand.Rand) string { return fmt.Sprintf("&#%d;", c) },
	"HTML zeros":       func(c byte, _ *rand.Rand) string { return fmt.Sprintf("&#%07d;", c) },
	"HTML hex":         func(c byte, _ *rand.Rand) string { return fmt.Sprintf("&#x%x;", c) },
	"HTML HEX":         func(c byte, _ *rand.Rand) string { return fmt.Sprintf("&#X%04X;", c) },
	"HTML named":       htmlNamed,
	"percent":          func(c byte, _ *rand.Rand) string { return fmt.Sprintf("%%%02X", c) },
	"percent lower":    func(c byte, _ *rand.Rand) string { return fmt.Sprintf("%%%02x", c) },
	"percent twice":    func(c byte, _ *rand.Rand) string { return fmt.Sprintf("%%25%02X", c) },
	"HTML of an HTML":  func(c byte, _ *rand.Rand) string { return fmt.Sprintf("&amp;#%d;", c) },
	"JSON of a JSON":   func(c byte, _ *rand.Rand) string { return fmt.Sprintf(`\\u%04x`, c) },
	"markdown escaped": func(c byte, _ *rand.Rand) string { return `\` + string(c) },
}

// bare are the encodings that end with no delimiter: a browser reads
// digits on after them, so the next character must not be one.
var bare = map[string]func(c byte) string{
	"HTML decimal, bare": func(c byte) string { return fmt.Sprintf("&#%d", c) },
	"HTML hex, bare":     func(c byte) string { return fmt.Sprintf("&#x%X", c) },
}

func jsonShort(c byte, _ *rand.Rand) string {
	switch c {
	case '/', '"', '\\':
		return `\` + string(c)
	}
	return string(c)
}

func htmlNamed(c byte, rnd *rand.Rand) string {
	names := namedEntity[c]
	if len(names) == 0 {
		return string(c)
	}
	return names[rnd.IntN(len(names))]
}

// encode writes tok with each character in an encoding picked by pick.
func encode(tok string, rnd *rand.Rand, pick func(i int) string) string {
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		name := pick(i)
		if f, ok := bare[name]; ok {
			next := byte('z')
			if i+1 < len(tok) {
				next = tok[i+1]
			}
			if !isAlnum(next) && next != ';' {
				b.WriteString(f(tok[i]))
				continue
			}
			name = "HTML decimal"
		}
		b.WriteString(encodings[name](tok[i], rnd))
	}
	return b.String()
}

func TestNamedEntitiesAreHTMLs(t *testing.T) {
	t.Parallel()
	for c, names := range namedEntity {
		for _, n := range names {
			if got := html.UnescapeString(n); got != string(c) {
				t.Errorf("%s decodes to %q, not %q", n, got, c)
			}
		}
	}
}

// TestEveryEncodingOfEveryToken encodes each token with every character in
// one encoding, then in random mixes of all of them, and in base64 at every
// alignment; each is masked whole, and nothing around it is touched.
func TestEveryEncodingOfEveryToken(t *testing.T) {
	t.Parallel()
	var names []string
	for name := range encodings {
		names = append(names, name)
	}
	for name := range bare {
		names = append(names, name)
	}
	const before, after = `{"error":"bad token `, `", "hint":"check it"}`
	for _, tok := range tokens() {
		t.Run(tok, func(t *testing.T) {
			t.Parallel()
			r := New(tok)
			rnd := rand.New(rand.NewPCG(uint64(len(tok)), uint64(tok[len(tok)-1])))
			check := func(how, enc string) {
				t.Helper()
				// The backslash that escapes the first character may stay.
				if got, want := r.Redact(before+enc+after), before+Mask+after; got != want && got != before+`\`+Mask+after {
					t.Errorf("%s: %q\nscrubbed to %q", how, enc, got)
				}
			}
			for _, name := range names {
				check(name, encode(tok, rnd, func(int) string { return name }))
			}
			for range 200 {
				check("mixed", encode(tok, rnd, func(int) string { return names[rnd.IntN(len(names))] }))
			}
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
				for _, pad := range []string{"", "x", "xy"} {
					got := r.Redact(enc.EncodeToString([]byte(pad + tok + "\n")))
					if !strings.Contains(got, Mask) {
						t.Errorf("base64 after %q: %q", pad, got)
					}
				}
			}
		})
	}
}

// TestEncodedTextThatIsNoSecret: another token, encoded the same ways, and
// text full of escapes, are left as they are.
func TestEncodedTextThatIsNoSecret(t *testing.T) {
	t.Parallel()
	r := New("q1W2e3R4t5+")
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, s := range []string{
		encode("q1W2e3R4t6+", rnd, func(int) string { return "JSON lower hex" }),
		encode("q1W2e3R4t", rnd, func(int) string { return "HTML decimal" }) + "&#53",
		`{"a":"\u0071\u0031 \\ &amp; &lt;b&gt; %2B %25"}`, "q1W2e3R4", "&#xq1W2e3R4t5", "%zz%4",
	} {
		if got := r.Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
}

// TestEscapesAsBrowsersRead covers the edges of what a browser and a JSON
// reader decode: a bare reference swallows the digits after it, so the
// secret is not there; a surrogate pair is one character.
func TestEscapesAsBrowsersRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		secret, in string
		masked     bool
	}{
		{"abcd1234", "&#97bcd1234", true},
		{"abcd1234", "&#971bcd1234", false}, // &#971 is ϋ
		{"abcd1234", "&#x61;&#X62&#0000099;d1234", true},
		{"abcd1234", "&ampbcd1234", false}, // &amp is &
		{"p&ss1234", "p&ampss1234", true},
		{"p&ss1234", "p&amp;ss1234", true},
		{"p&ss1234", "p%26ss1234", true},
		{"key😀1234", `key\ud83d\ude001234`, true},
		{"key😀1234", `key\u{1F600}1234`, true},
		{"key😀1234", `key%F0%9F%98%801234`, true},
		{"ab/cd+ef=", `ab\/cd\u002Bef\u003d`, true},
		{"ab cd efgh", "ab+cd%20efgh", true},
		{"abcd1234", "abcd&#8203;1234", true}, // as Markdown escaping writes it
		{"abcd1234", "ab<BR/>cd\\n12%0a34", true},
	} {
		got := New(tc.secret).Redact(tc.in)
		if masked := got != tc.in; masked != tc.masked {
			t.Errorf("secret %q in %q: got %q, want masked %v", tc.secret, tc.in, got, tc.masked)
		}
	}
}

// BenchmarkRedactEscapes scrubs text that is all escapes and near-misses,
// the slowest kind for a scrub that decodes as it matches.
func BenchmarkRedactEscapes(b *testing.B) {
	r := New(gh, secret)
	text := strings.Repeat(`\u0067\u0068s_16C7e42F292c6912E7710c838347Ae178B4b &#103;hs_ %67hs_16 ghs_\\\\ `, (1<<20)/80)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Redact(text)
	}
}

// TestMarkdownBackslashEscapedAgain: a Markdown escape (\_ \-) whose
// backslash is escaped once more, as a URL, HTML, JSON or JavaScript write
// it, hides no secret, whole or in part: a decoded backslash is read as
// the escaping one it is, a separator, in the whole-secret match and in
// the text the parts are looked for in.
func TestMarkdownBackslashEscapedAgain(t *testing.T) {
	t.Parallel()
	const dp = "dp_live_5ecr3t-d0cs-t0ken-7q"
	const before, after = "bad: ", " end"
	escaped := func(s, backslash string) string {
		return strings.NewReplacer("_", backslash+"_", "-", backslash+"-").Replace(s)
	}
	for _, tc := range []struct {
		name, part, backslash string
	}{
		{"whole, %5C", dp, `%5C`},
		{"whole, %5c", dp, `%5c`},
		{"whole, &#92;", dp, `&#92;`},
		{"whole, &#x5C;", dp, `&#x5C;`},
		{"whole, &bsol;", dp, `&bsol;`},
		{`whole, \u005c`, dp, `\u005c`},
		{`whole, \x5C`, dp, `\x5C`},
		{`whole, \\`, dp, `\\`},
		{"whole, %255C", dp, `%255C`},
		{"whole, &amp;#92;", dp, `&amp;#92;`},
		{`27 of 28, \\`, dp[:27], `\\`},
		{"27 of 28, %5C", dp[:27], `%5C`},
		{"27 of 28, &#92;", dp[:27], `&#92;`},
		{`the last 27, \u005c`, dp[1:], `\u005c`},
		{"half, %5C", dp[:14], `%5C`},
		{`half, \\`, dp[14:], `\\`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := escaped(tc.part, tc.backslash)
			got := New(dp).Redact(before + in + after)
			// The escape of a first character that is punctuation may
			// stay beside the mask.
			if got != before+Mask+after && got != before+tc.backslash+Mask+after {
				t.Errorf("%q scrubbed to %q", in, got)
			}
		})
	}
}
