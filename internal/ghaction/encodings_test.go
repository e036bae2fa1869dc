package ghaction

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/report"
)

// encodedTokens are tokens of letters, digits and each ASCII punctuation
// character a token may hold.
func encodedTokens() []string {
	out := []string{ghToken}
	const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	for i := 0; i < len(punctuation); i += 4 {
		out = append(out, "Tk9"+punctuation[i:min(i+4, len(punctuation))]+"zQ81xW"+punctuation[i:i+1]+"b")
	}
	return out
}

// tokenEncodings write a token as servers and pages do; mixed picks an
// encoding for each character.
var tokenEncodings = map[string]func(tok string, rnd *rand.Rand) string{
	"JSON \\u": func(tok string, _ *rand.Rand) string {
		return eachChar(tok, func(c byte) string { return fmt.Sprintf(`\u%04X`, c) })
	},
	"HTML decimal": func(tok string, _ *rand.Rand) string {
		return eachChar(tok, func(c byte) string { return fmt.Sprintf("&#%d;", c) })
	},
	"HTML hex": func(tok string, _ *rand.Rand) string {
		return eachChar(tok, func(c byte) string { return fmt.Sprintf("&#x%x;", c) })
	},
	"percent": func(tok string, _ *rand.Rand) string {
		return eachChar(tok, func(c byte) string { return fmt.Sprintf("%%%02x", c) })
	},
	"HTML-escaped": func(tok string, _ *rand.Rand) string { return html.EscapeString(tok) },
	"base64":       func(tok string, _ *rand.Rand) string { return base64.StdEncoding.EncodeToString([]byte("user:" + tok)) },
	"mixed": func(tok string, rnd *rand.Rand) string {
		return eachChar(tok, func(c byte) string {
			return []string{string(c), fmt.Sprintf(`\u%04x`, c), fmt.Sprintf("&#%d;", c), fmt.Sprintf("%%%02X", c), fmt.Sprintf("&#X%X;", c)}[rnd.IntN(5)]
		})
	},
}

func eachChar(s string, enc func(c byte) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(enc(s[i]))
	}
	return b.String()
}

// decodeAll undoes, a few layers deep, every escape a reader could undo,
// and leaves out backslashes.
func decodeAll(s string) string {
	for range 3 {
		s = strings.ReplaceAll(ghactiontest.Unescape(s), `\`, "")
	}
	return s
}

// revealed says how text shows tok to a reader who decodes it, or "".
func revealed(text, tok string) string {
	decoded := strings.ToLower(decodeAll(text))
	for _, part := range []string{tok, tok[:8], tok[len(tok)-8:]} {
		if strings.Contains(decoded, strings.ToLower(strings.ReplaceAll(part, `\`, ""))) {
			return "decoded: " + part
		}
	}
	for align := range 3 {
		full := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", align) + tok))
		if mid := full[4 : len(full)-4]; strings.Contains(text, mid) {
			return "base64: " + mid
		}
	}
	return ""
}

// TestEachSinkScrubsEveryEncoding writes each token, in each encoding a
// server or a page uses (and random mixes of them), through each of the
// reporter's sinks, and finds it in none of what they write, however
// decoded.
func TestEachSinkScrubsEveryEncoding(t *testing.T) {
	t.Parallel()
	sinks := []struct {
		name  string
		write func(r *Reporter, text string)
		read  func(out string, dir string) string
	}{
		{"log line", func(r *Reporter, s string) { r.Infof("service answered 401: %s", s) }, logOf},
		{"debug line", func(r *Reporter, s string) { r.debug = true; r.Debugf("answer 401: %s", s) }, logOf},
		{"annotation", func(r *Reporter, s string) {
			r.Annotate(report.Error, `{"unexpected":"bad token `+s+`"}`, report.Where{})
		}, logOf},
		{"annotation's file", func(r *Reporter, s string) {
			r.Annotate(report.Warning, "x", report.Where{File: "api/" + s + "/a.yaml"})
		}, logOf},
		{"group title", func(r *Reporter, s string) { r.Group("build " + s)() }, logOf},
		{"summary", func(r *Reporter, s string) { r.Summary("| error | " + report.EscapeMarkdown(s) + " |\n") }, fileOf("sum")},
		{"output", func(r *Reporter, s string) { r.SetOutput("doc-url", "https://x/"+s) }, fileOf("out")},
		{"printed JSON", func(r *Reporter, s string) {
			r.PrintJSON(`{"doc-url":"https://x/` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"}` + "\n")
		}, logOf},
		{"printed text", func(r *Reporter, s string) { r.PrintLog("error: " + s + "\n") }, logOf},
	}
	for _, tok := range encodedTokens() {
		for encName, enc := range tokenEncodings {
			t.Run(tok+" "+encName, func(t *testing.T) {
				t.Parallel()
				rnd := rand.New(rand.NewPCG(uint64(len(tok)), 7))
				// The mixes are drawn three times a sink; the other
				// encodings write the same text each time.
				times := 1
				if encName == "mixed" {
					times = 3
				}
				for _, sink := range sinks {
					for range times {
						encoded := enc(tok, rnd)
						dir := t.TempDir()
						env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "sum")}
						var out bytes.Buffer
						r := NewReporter(func(k string) string { return env[k] }, &out, &out)
						r.Mask(tok)
						sink.write(r, encoded)
						got := sink.read(out.String(), dir)
						if how := revealed(got, tok); how != "" {
							t.Errorf("%s shows the token (%s) written as %q:\n%s", sink.name, how, encoded, got)
						}
						if got == "" {
							t.Errorf("%s wrote nothing", sink.name)
						}
					}
				}
			})
		}
	}
}

// TestPrintedJSONKeepsItsShape: the JSON the CLI prints keeps its names,
// its syntax and its types whatever the secret; a string value holding
// the secret is scrubbed within, a number or literal that is one becomes
// null.
func TestPrintedJSONKeepsItsShape(t *testing.T) {
	t.Parallel()
	doc := `{"docs-url":"https://docs.example/t?a=\u0074ok","live":true,"build-id":"1001","zip-size":1001,"error":{"message":"token t\\u0074 refused","exit_code":1}}`
	// Strings come out as JSON writes them, escapes of plain characters
	// undone.
	for _, tc := range []struct{ secret, want string }{
		{"docs", `{"docs-url":"https://***.example/t?a=tok","live":true,"build-id":"1001","zip-size":1001,"error":{"message":"token t\\u0074 refused","exit_code":1}}`},
		{"t", `{"docs-url":"h******ps://docs.example/***?a=***ok","live":null,"build-id":"1001","zip-size":1001,"error":{"message":"***oken ****** refused","exit_code":1}}`},
		{"1001", `{"docs-url":"https://docs.example/t?a=tok","live":true,"build-id":"***","zip-size":null,"error":{"message":"token t\\u0074 refused","exit_code":1}}`},
		// A mask inside an escape would leave it invalid: the string is
		// masked whole.
		{"u0074", `{"docs-url":"***","live":true,"build-id":"1001","zip-size":1001,"error":{"message":"token t\\*** refused","exit_code":1}}`},
	} {
		var out bytes.Buffer
		r := NewReporter(func(string) string { return "" }, &out, &bytes.Buffer{})
		r.Mask(tc.secret)
		r.PrintJSON(doc + "\n")
		if got := strings.TrimSuffix(out.String(), "\n"); got != tc.want {
			t.Errorf("secret %q:\n got %s\nwant %s", tc.secret, got, tc.want)
		}
	}
}

// A server's message in --output json cannot issue an Azure Pipelines or
// runner command (##vso[, ##[), and decodes to the text the server sent.
func TestPrintedJSONHasNoCommand(t *testing.T) {
	t.Parallel()
	doc := `{"error":{"message":"##vso[task.setvariable variable=x]1 and ###[error]2 and ##VSO[x]"}}`
	var out bytes.Buffer
	r := NewReporter(func(string) string { return "" }, &out, &bytes.Buffer{})
	r.PrintJSON(doc + "\n")
	got := out.String()
	if strings.Contains(got, "##[") || strings.Contains(strings.ToLower(got), "##vso[") {
		t.Errorf("a command is left in %s", got)
	}
	var v, want map[string]map[string]string
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	json.Unmarshal([]byte(doc), &want)
	if v["error"]["message"] != want["error"]["message"] {
		t.Errorf("the message decodes to %q, want %q", v["error"]["message"], want["error"]["message"])
	}
}
