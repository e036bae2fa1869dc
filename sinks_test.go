//go:build unix

package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/docs-publish/docs-publish/internal/cli"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// Secrets shaped as they come: Markdown escapes their _.
const (
	docsToken = "dp_live_5ecr3t-d0cs-t0ken-7q"
	hubToken  = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"
)

// hostileGitHub is GitHub's API as a compromised or broken endpoint
// answers: the base description's files with a 500 whose message holds the
// token it was sent, a sticky comment from an earlier run, every body sent
// to it recorded. silent makes it never answer at all.
type hostileGitHub struct {
	silent bool
	mu     sync.Mutex
	bodies []string
	// held is how long a silent GitHub held each request before the
	// client went away; a request still held when the test ended counts
	// as the test's whole time.
	held []time.Duration
}

func (g *hostileGitHub) start(t *testing.T) string {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		g.mu.Lock()
		g.bodies = append(g.bodies, string(body))
		g.mu.Unlock()
		if g.silent {
			start := time.Now()
			select {
			case <-r.Context().Done():
			case <-done:
			}
			g.mu.Lock()
			g.held = append(g.held, time.Since(start))
			g.mu.Unlock()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/user":
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"message":"Resource not accessible by integration"}`)
		case strings.HasSuffix(r.URL.Path, "/issues/12/comments") && r.Method == http.MethodGet:
			json.NewEncoder(w).Encode([]map[string]any{{"id": 5, "body": "<!-- docs-publish api-changes api%2Fopenapi.yaml -->\nold report",
				"html_url": "https://github.com/octo/bookstore/pull/12#issuecomment-5", "user": map[string]string{"login": "github-actions[bot]", "type": "Bot"}}})
		case strings.Contains(r.URL.Path, "/issues/"):
			io.WriteString(w, `{"id":5,"html_url":"https://github.com/octo/bookstore/pull/12#issuecomment-5"}`)
		default:
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `{"message":"upstream refused %s"}`, r.Header.Get("Authorization"))
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL
}

func (g *hostileGitHub) sent() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return strings.Join(g.bodies, "\n")
}

// inProcess is a run of the whole action in this process, as the runner
// starts it: what it wrote, and where.
type inProcess struct {
	err                     error
	stdout, stderr, summary string
	outputFile              string
	outputs                 map[string]string
	workspace               string
}

// runInProcess runs the action with inputs (every other declared input at
// its default) and env added to the runner's, on a workspace holding files.
func runInProcess(t *testing.T, inputs, env, files map[string]string) inProcess {
	t.Helper()
	meta, err := ghaction.ParseMetadata(actionYAML)
	if err != nil {
		t.Fatal(err)
	}
	ws, dir := t.TempDir(), t.TempDir()
	for name, content := range files {
		p := filepath.Join(ws, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	all := map[string]string{"GITHUB_WORKSPACE": ws, "GITHUB_OUTPUT": filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"), "GITHUB_EVENT_NAME": "push"}
	for k, v := range runnerEnv {
		all[k] = v
	}
	for k, v := range env {
		all[k] = v
	}
	for _, in := range meta.Inputs {
		v, given := inputs[in.Name]
		if !given {
			v = ghaction.EvalDefault(in.Default, func(k string) string { return all[k] })
		}
		all["INPUT_"+strings.ToUpper(in.Name)] = v
	}
	var stdout, stderr bytes.Buffer
	err = cli.Run(context.Background(), cli.Env{Getenv: func(k string) string { return all[k] }, Stdout: &stdout, Stderr: &stderr,
		Action: actionYAML, Sample: sample, Version: "test"})
	run := inProcess{err: err, stdout: stdout.String(), stderr: stderr.String(), workspace: ws}
	out, _ := os.ReadFile(all["GITHUB_OUTPUT"])
	run.outputFile = string(out)
	run.outputs, _ = parseOutputFile(t, run.outputFile)
	sum, _ := os.ReadFile(all["GITHUB_STEP_SUMMARY"])
	run.summary = string(sum)
	return run
}

// escapeEach writes every nth character of s with format, the others as
// they are.
func escapeEach(s, format string, nth int) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i%nth == 0 {
			fmt.Fprintf(&b, format, s[i])
		} else {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// bareRefs writes each character of s as a hexadecimal reference, without
// its semicolon where a browser reads it so: before a character that is no
// letter or digit.
func bareRefs(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "&#x%X", s[i])
		if i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1]|0x20 >= 'a' && s[i+1]|0x20 <= 'z') {
			b.WriteByte(';')
		}
	}
	return b.String()
}

// decoded undoes, a few layers deep, the escapes a reader could undo:
// JSON's, HTML's, a URL's.
func decoded(s string) string {
	for range 3 {
		s = ghactiontest.Unescape(s)
	}
	return s
}

// shown finds a secret in text in any form a sink writes it, whole, split
// by line breaks or blanks, or cut short, or escaped; "" when it is not
// there.
func shown(text, secret string) string {
	if d := decoded(text); d != text {
		if f := shown(d, secret); f != "" {
			return "decoded " + f
		}
	}
	for _, f := range redact.Forms(secret) {
		if strings.Contains(text, f) {
			return f
		}
	}
	// Split by separators (controls and a terminal's escape sequences
	// too), cut short, or in another letter case.
	squeezed := strings.ToLower(strings.NewReplacer("\r", "", "\n", "", "%0A", "", "%0D", "", " ", "", "<br>", "", `\`, "").Replace(text))
	squeezed = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, terminalEscapes.ReplaceAllString(squeezed, ""))
	for _, part := range []string{secret[:8], secret[len(secret)-8:]} {
		if strings.Contains(squeezed, strings.ToLower(part)) {
			return part
		}
	}
	return ""
}

// terminalEscapes are a terminal's escape sequences: CSI (a colour), OSC
// (a title, a link) and the short ones.
var terminalEscapes = regexp.MustCompile("\x1b(\\[[\x20-\x3f]*[\x40-\x7e]|\\][^\x07\x1b]*(\x07|\x1b)?|[\x20-\x2f]*[\x30-\x7e])")

// withoutMasks is stdout without the ::add-mask:: commands, the one place
// the secrets must be.
func withoutMasks(log string) string { return maskLines.ReplaceAllString(log, "") }

var maskLines = regexp.MustCompile(`(?m)^::add-mask::.*\n`)

// TestNoSecretThroughAnySink runs the whole action against a hostile docs
// service and a hostile GitHub API, each way in that once showed a token:
// neither token shows, in any form, in stdout, stderr, the job summary,
// GITHUB_OUTPUT, a file name in the workspace, or a body sent to GitHub;
// and zip-path names the file that exists.
func TestNoSecretThroughAnySink(t *testing.T) {
	t.Parallel()
	site := zipOf(t, 0)
	serveZip := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Write(site)
	}
	errorBody := func(status int, contentType, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
	}
	long := strings.Repeat("x", 64<<10+1-len(docsToken))
	serveEntries := func(names ...string) http.HandlerFunc {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, name := range names {
			w, err := zw.Create(name)
			must(t, err)
			io.WriteString(w, "site")
		}
		must(t, zw.Close())
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/zip")
			w.Write(buf.Bytes())
		}
	}
	extract := map[string]string{"extract-to": "site"}
	const secretName = "zip entry 2 of 3: its name holds a secret"
	cases := []struct {
		name    string
		h       *hostile
		inputs  map[string]string
		compare bool // a pull request whose base is read through GitHub's API
		ok      bool
		says    string // in the error, when the run fails
	}{
		{name: "the release answers the token it was sent as build.id", ok: true, inputs: map[string]string{"download": "true"},
			h: &hostile{release: func(w http.ResponseWriter, r *http.Request) {
				json.NewEncoder(w).Encode(map[string]any{"build": map[string]any{"id": strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}})
			}, download: serveZip}},
		{name: "a redirect to a host named by the token",
			h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://"+docsToken+".invalid/x", http.StatusFound)
			}}},
		{name: "GitHub's API answers the base lookup with its token", ok: true, compare: true, h: &hostile{}},
		{name: "an error body whose last bytes are the token, cut where it is read",
			h: &hostile{list: errorBody(400, "text/plain", long+docsToken)}},
		{name: "an error body with the token where it is cut to be shown",
			h: &hostile{list: errorBody(400, "text/plain", strings.Repeat("y", 290)+docsToken+" and more")}},
		{name: "a token split by a line break where it is cut to be shown",
			h: &hostile{list: errorBody(400, "text/plain", strings.Repeat("y", 285)+docsToken[:1]+"\n"+docsToken[1:]+" and more")}},
		{name: "a redirect to a host named by the token in upper case",
			h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://"+strings.ToUpper(docsToken)+".invalid/x", http.StatusFound)
			}}},
		{name: "a token split by a line break",
			h: &hostile{list: errorBody(400, "application/json", `{"error_message":"bad `+docsToken[:10]+`\n`+docsToken[10:]+`"}`)}},
		{name: "a token split by an escaped line break",
			h: &hostile{list: errorBody(400, "text/plain", "bad "+docsToken[:12]+"%0A"+docsToken[12:])}},
		{name: "a download answered with a page, not a zip, that quotes the token", inputs: map[string]string{"download": "true"},
			h: &hostile{download: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/zip")
				io.WriteString(w, "<html><body>signed in as "+r.Header.Get("Authorization")+"</body></html>")
			}}},
		{name: "a site zip with the token in an entry's file name", inputs: extract, says: secretName,
			h: &hostile{download: serveEntries("index.html", "assets/"+docsToken+".js", "404.html")}},
		{name: "a site zip with the token base64-encoded as a folder name", inputs: extract, says: secretName,
			h: &hostile{download: serveEntries("index.html", base64.RawURLEncoding.EncodeToString([]byte(docsToken))+"/index.html", "404.html")}},
		{name: "a token Markdown-escaped by the service",
			h: &hostile{list: errorBody(400, "application/json", `{"error_message":"bad `+strings.ReplaceAll(docsToken, "_", `\\_`)+`"}`)}},
		// As servers escape text: System.Text.Json's \u escapes, upper or
		// lower hex, mixed with plain characters; HTML's numeric and named
		// references; percent-encoding.
		{name: "a token JSON-escaped whole, lower-case hex",
			h: &hostile{list: errorBody(401, "application/json", `{"unexpected":"bad token `+escapeEach(docsToken, `\u%04x`, 1)+`"}`)}},
		{name: "a token JSON-escaped in part, upper-case hex",
			h: &hostile{list: errorBody(401, "application/json", `{"error":{"detail":"`+escapeEach(docsToken, `\u%04X`, 2)+`"}}`)}},
		{name: "a token as an HTML page's numeric references, some without a semicolon",
			h: &hostile{list: errorBody(401, "text/html", `<html><body><p>bad token `+escapeEach(docsToken, "&#%d;", 1)+` and `+bareRefs(docsToken)+`!</p></body></html>`)}},
		{name: "a token with HTML named references and percent-encoding mixed",
			h: &hostile{list: errorBody(403, "text/plain", "token "+strings.NewReplacer("_", "&lowbar;", "-", "%2d", "5", `\u0035`).Replace(docsToken)+" refused")}},
		// A character that shows as nothing inside the token, and a part
		// of it without a cut mark: each once went through every sink.
		{name: "a token with a left-to-right mark inside",
			h: &hostile{list: errorBody(401, "text/plain", "bad: "+docsToken[:12]+"\u200e"+docsToken[12:]+" end")}},
		{name: "a token with a right-to-left override inside",
			h: &hostile{list: errorBody(401, "text/plain", "bad: "+docsToken[:12]+"\u202e"+docsToken[12:]+" end")}},
		// A Markdown escape whose backslash is escaped again, and white
		// space that is not ASCII between the token's characters (an error
		// body's white space is made blanks; a debug log keeps it): each
		// once went through every sink.
		{name: "a token Markdown-escaped, its backslashes percent-encoded",
			h: &hostile{list: errorBody(400, "text/plain", "bad: "+strings.NewReplacer("_", `%5C_`, "-", `%5C-`).Replace(docsToken))}},
		{name: "a token Markdown-escaped, its backslashes HTML references",
			h: &hostile{list: errorBody(400, "text/html", "<p>bad: "+strings.NewReplacer("_", `&#92;_`, "-", `&bsol;-`).Replace(docsToken)+"</p>")}},
		{name: "a success answer that echoes the token split by no-break spaces, printed by the debug log", ok: true,
			h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"docs":[{"id":17}],"echo":"`+docsToken[:12]+"\u00a0"+docsToken[12:20]+`\u3000`+docsToken[20:]+`"}`)
			}}},
		{name: "the token's first 19 of 28 characters",
			h: &hostile{list: errorBody(401, "text/plain", "bad: "+docsToken[:19]+" end")}},
		{name: "the token's last 19 of 28 characters",
			h: &hostile{list: errorBody(401, "text/plain", "bad: "+docsToken[9:]+" end")}},
		// Colour codes and NUL between the token's characters, raw or as
		// JSON escapes: GitHub's log viewer renders the codes, so that a
		// reader sees the token whole. Each once went through every sink.
		{name: "a token with a reset code after each character, JSON-escaped",
			h: &hostile{list: errorBody(400, "application/json", `{"message":"`+strings.Join(strings.Split(docsToken, ""), `\u001b[0m`)+`"}`)}},
		{name: "a token with a reset code after each character, raw",
			h: &hostile{list: errorBody(400, "text/plain", "bad: "+strings.Join(strings.Split(docsToken, ""), "\x1b[0m")+" end")}},
		{name: "a token with a colour, a title and a link inside",
			h: &hostile{list: errorBody(400, "text/plain", "bad: "+docsToken[:8]+"\x1b[1;31m"+docsToken[8:14]+"\x1b]0;title\a"+docsToken[14:20]+"\x1b]8;;https://x.invalid\x1b\\"+docsToken[20:]+" end")}},
		{name: "a token with NUL after each character, JSON-escaped",
			h: &hostile{list: errorBody(400, "application/json", `{"message":"`+strings.Join(strings.Split(docsToken, ""), `\u0000`)+`"}`)}},
		{name: "a token with NUL after each character, raw",
			h: &hostile{list: errorBody(400, "text/plain", "bad: "+strings.Join(strings.Split(docsToken, ""), "\x00")+" end")}},
		{name: "a success answer that echoes the token escaped, printed by the debug log", ok: true,
			h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"docs":[{"id":17}],"echo":"`+escapeEach(docsToken, `\u%04X`, 1)+`"}`)
			}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gh := &hostileGitHub{}
			in := map[string]string{"token": docsToken, "github-token": hubToken, "api-url": tc.h.start(t), "project-id": "4711",
				"file": "api/openapi.yaml", "timeout": "30s", "wait-for-build": "false"}
			for k, v := range tc.inputs {
				in[k] = v
			}
			env := map[string]string{"GITHUB_API_URL": gh.start(t), "RUNNER_DEBUG": "1"}
			if tc.compare {
				p := filepath.Join(t.TempDir(), "event.json")
				must(t, os.WriteFile(p, []byte(`{"pull_request":{"number":12,"base":{"sha":"2222222222222222222222222222222222222222","repo":{"full_name":"octo/bookstore"}},"head":{"repo":{"full_name":"octo/bookstore"}}}}`), 0o644))
				env["GITHUB_EVENT_PATH"], env["GITHUB_EVENT_NAME"] = p, "pull_request"
			}
			run := runInProcess(t, in, env, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
			if (run.err == nil) != tc.ok {
				t.Errorf("error %v, want success %v\n%s", run.err, tc.ok, run.stdout)
			}
			if tc.says != "" && !strings.Contains(fmt.Sprint(run.err), tc.says) {
				t.Errorf("error %v, want it to say %q", run.err, tc.says)
			}
			if _, err := os.Stat(filepath.Join(run.workspace, tc.inputs["extract-to"])); tc.inputs["extract-to"] != "" && !tc.ok && err == nil {
				t.Errorf("%s exists after a failed unpack", tc.inputs["extract-to"])
			}
			var names []string // folders too: an empty one shows its name as well
			filepath.WalkDir(run.workspace, func(p string, d os.DirEntry, err error) error {
				names = append(names, p)
				return nil
			})
			sinks := map[string]string{"stdout": withoutMasks(run.stdout), "stderr": run.stderr, "summary": run.summary,
				"outputs": run.outputFile, "file names": strings.Join(names, "\n"), "GitHub": gh.sent()}
			for where, text := range sinks {
				for _, secret := range []string{docsToken, hubToken} {
					if form := shown(text, secret); form != "" {
						t.Errorf("%s shows %q:\n%s", where, form, text)
					}
				}
			}
			if zp := run.outputs["zip-path"]; tc.ok && tc.inputs["download"] == "true" {
				if _, err := os.Stat(filepath.Join(run.workspace, zp)); zp == "" || err != nil {
					t.Errorf("zip-path %q names no file: %v", zp, err)
				}
			}
			if tc.compare && !strings.Contains(gh.sent(), "Nothing compared") {
				t.Errorf("the comment was not rewritten; GitHub got:\n%s", gh.sent())
			}
		})
	}
}

// TestSilentGitHubCostsAWarning: GitHub's API takes connections and never
// answers. The comparison is a report: the run gives up on it within its
// bound (a quarter of timeout here), says why in a warning, and publishes;
// with fail-on-breaking, it fails saying why, having published nothing.
func TestSilentGitHubCostsAWarning(t *testing.T) {
	t.Parallel()
	for _, failOnBreaking := range []bool{false, true} {
		t.Run(fmt.Sprint("fail-on-breaking ", failOnBreaking), func(t *testing.T) {
			t.Parallel()
			gh := &hostileGitHub{silent: true}
			p := filepath.Join(t.TempDir(), "event.json")
			must(t, os.WriteFile(p, []byte(`{"pull_request":{"number":12,"base":{"sha":"2222222222222222222222222222222222222222","repo":{"full_name":"octo/bookstore"}},"head":{"repo":{"full_name":"octo/bookstore"}}}}`), 0o644))
			emu := startEmulator(t, nil)
			in := baseInputs(emu)
			in["github-token"], in["timeout"], in["fail-on-breaking"] = hubToken, "8s", fmt.Sprint(failOnBreaking)
			run := runInProcess(t, in, map[string]string{"GITHUB_API_URL": gh.start(t), "GITHUB_EVENT_PATH": p, "GITHUB_EVENT_NAME": "pull_request"},
				map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
			want := "::warning title=docs-publish::API changes not reported: GitHub's API did not answer within 2s"
			if failOnBreaking {
				want = "::error title=docs-publish::cannot compare with the base, and fail-on-breaking is true: GitHub's API did not answer within 2s"
				if run.err == nil || len(emu.Builds()) != 0 {
					t.Errorf("error %v with %d builds, want a failure before publishing", run.err, len(emu.Builds()))
				}
			} else if run.err != nil || run.outputs["build-id"] == "" {
				t.Errorf("error %v, outputs %v, want a publish", run.err, run.outputs)
			}
			if !strings.Contains(run.stdout, want) {
				t.Errorf("the log does not say %q:\n%s", want, run.stdout)
			}
			if !strings.Contains(run.summary, "did not answer within 2s") {
				t.Errorf("the summary does not say why the report is missing:\n%s", run.summary)
			}
			// The requests the run left, not the whole run, which a loaded
			// machine stretches: a run that waited GitHub out would hold
			// them to its timeout of 8s.
			// The server learns that a client went away a moment after.
			var held []time.Duration
			var sent int
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				gh.mu.Lock()
				held, sent = slices.Clone(gh.held), len(gh.bodies)
				gh.mu.Unlock()
				if len(held) == sent || time.Now().After(deadline) {
					break
				}
			}
			if sent == 0 || len(held) < sent || slices.Max(held) > 6*time.Second {
				t.Errorf("GitHub held the run's requests for %v, and %d requests still: want each given up within the report's bound of 2s", held, sent-len(held))
			}
		})
	}
}

// TestReportsStayBounded: a description whose parameters have names of
// 30,000 characters, all removed in the change: the job summary stays
// under GitHub's 1 MiB, each line of the log and annotation under 8 KiB,
// the names are shortened saying by how much, and the log stays a
// fraction of the description.
func TestReportsStayBounded(t *testing.T) {
	testenv.Long(t) // compares a description of 3 MB
	t.Parallel()
	var params strings.Builder
	for i := range 100 {
		fmt.Fprintf(&params, "        - {name: p%d%s, in: query, type: string, required: true}\n", i, strings.Repeat("n", 30_000))
	}
	op := "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths:\n  /books:\n    get:\n      parameters:\n%s      responses:\n        200: {description: ok}\n"
	base := fmt.Sprintf(op, "")
	head := fmt.Sprintf(op, params.String())
	emu := startEmulator(t, nil)
	in := baseInputs(emu)
	in["base-file"] = "api/base.yaml"
	run := runInProcess(t, in, nil, map[string]string{"api/openapi.yaml": head, "api/base.yaml": base})
	if run.err != nil {
		t.Fatalf("%v\n%.2000s", run.err, run.stdout)
	}
	if run.outputs["breaking-changes"] != "100" {
		t.Errorf("breaking-changes = %q", run.outputs["breaking-changes"])
	}
	// What was left out: of the name, 29,803 characters, and of the
	// change's text after it, which the comparison cut to its bound.
	left := regexp.MustCompile(`n… \\\((\d+) more characters\\\)`).FindStringSubmatch(run.summary)
	if len(run.summary) >= 1<<20 || left == nil {
		t.Fatalf("the summary is %d bytes, names not shortened: %.300s", len(run.summary), run.summary)
	}
	if n, _ := strconv.Atoi(left[1]); n < 29803 || n > 29803+100 {
		t.Errorf("the summary says %d more characters, want the name's 29803 and the few after it", n)
	}
	for _, l := range strings.Split(run.stdout, "\n") {
		if len(l) > 8<<10 {
			t.Errorf("a line of %d bytes: %.200s", len(l), l)
		}
	}
	if log := len(run.stdout) + len(run.stderr); log > len(head)/4 {
		t.Errorf("a log of %d bytes for a description of %d", log, len(head))
	}
}
