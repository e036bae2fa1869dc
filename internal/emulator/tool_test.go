package emulator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The emulator as a tool: a seed file, builds that fail, the request log,
// the sites of the live builds, any listen address.

const twoProjectsYAML = `
token: seed-token
build-delay: 2s
projects:
  - id: 4711
    docs:
      - {id: 17, file: openapi.yml, branch: main}
      - {id: 18, branch: develop, fail: the theme does not build}
  - id: "4712"
    branches: [main, release]
    docs:
      - id: "21"
        domain: docs.other.example
        file: api.yml
`

const twoProjectsJSON = `{"token": "seed-token", "build-delay": "2s", "projects": [
  {"id": "4711", "docs": [{"id": "17", "file": "openapi.yml", "branch": "main"}, {"id": "18", "branch": "develop", "fail": "the theme does not build"}]},
  {"id": "4712", "branches": ["main", "release"], "docs": [{"id": "21", "domain": "docs.other.example", "file": "api.yml"}]}]}`

var twoProjects = []Project{
	{ID: "4711", Branches: []string{"main", "develop"}, Docs: []Doc{
		{ID: "17", File: "openapi.yml", Branch: "main"},
		{ID: "18", File: "openapi.yml", Branch: "develop", Fail: "the theme does not build"},
	}},
	{ID: "4712", Branches: []string{"main", "release"}, Docs: []Doc{
		{ID: "21", Domain: "docs.other.example", File: "api.yml", Branch: "main"},
	}},
}

func TestParseSeed(t *testing.T) {
	t.Parallel()
	base := Default() // one random token for every case
	cases := []struct {
		name, seed string
		want       Config
		errField   string // "-": no error
	}{
		{"yaml", twoProjectsYAML, Config{Token: "seed-token", BuildDelay: 2 * time.Second, Projects: twoProjects}, "-"},
		{"json", twoProjectsJSON, Config{Token: "seed-token", BuildDelay: 2 * time.Second, Projects: twoProjects}, "-"},
		{"empty keeps the defaults", "", base, "-"},
		{"only a delay", "build-delay: 0s", Config{Token: base.Token, Projects: base.Projects}, "-"},
		{"a typo", "projets: []", Config{}, ""},
		{"a doc's typo", "projects: [{id: 1, docs: [{id: 2, branche: dev}]}]", Config{}, ""},
		{"no project id", "projects: [{docs: [{id: 1}]}]", Config{}, "projects[0].id"},
		{"a project twice", "projects: [{id: 1}, {id: 1}]", Config{}, "projects[1].id"},
		{"a doc id twice", "projects: [{id: 1, docs: [{id: 9}]}, {id: 2, docs: [{id: 9}]}]", Config{}, "projects[1].docs[0]"},
		{"a doc without id", "projects: [{id: 1, docs: [{file: a.yml}]}]", Config{}, "projects[0].docs[0]"},
		{"a bad delay", "build-delay: soon", Config{}, "build-delay"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseSeed([]byte(tc.seed), base)
			if tc.errField != "-" {
				var se *SeedError
				if !errors.As(err, &se) {
					t.Fatalf("err = %v, want a *SeedError", err)
				}
				if se.Field != tc.errField {
					t.Errorf("error at %q, want %q: %v", se.Field, tc.errField, err)
				}
				if strings.Contains(err.Error(), "emulator.") {
					t.Errorf("the error names Go types: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeededProjects: each project lists its own docs, and a doc seeded to
// fail fails every build, told as a failed build.
func TestSeededProjects(t *testing.T) {
	t.Parallel()
	cfg, err := ParseSeed([]byte(twoProjectsYAML), Default())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Token, cfg.BuildDelay = token, time.Hour
	s := start(t, cfg)
	for _, p := range []struct{ project, has, hasNot string }{
		{"4711", `"id":18,`, `"id":21,`},
		{"4712", `"id":21,`, `"id":17,`},
	} {
		code, _, body := call(t, "GET", s.URL()+"/docs.list?projectId="+p.project, "")
		if code != 200 || !strings.Contains(string(body), p.has) || strings.Contains(string(body), p.hasNot) {
			t.Errorf("docs of project %s: %d %s", p.project, code, body)
		}
	}
	put := func(branch string) int {
		code, _, _ := call(t, "PUT", s.URL()+"/projects/4711/files/openapi.yml", `{"content":`+sampleJSON(t)+`,"branch":"`+branch+`","commit_message":"m"}`)
		return code
	}
	if put("develop") != 200 || put("release") != 404 {
		t.Error("project 4711 has the branches its docs render, and no other")
	}
	code, _, body := call(t, "POST", s.URL()+"/docs.release?id=18", `{"setLive":true}`)
	if code != 200 {
		t.Fatalf("release: %d %s", code, body)
	}
	id := s.Builds()[0].ID
	finishNow(t, s, id)
	if b := waitBuilt(t, s, id); b.State != stateFailed || !strings.Contains(b.Failure, "the theme does not build") {
		t.Errorf("build of the failing doc: %+v", b)
	}
	code, _, body = call(t, "GET", s.URL()+"/docs.builds.download?id="+id, "")
	if code != 422 || !strings.Contains(string(body), "the theme does not build") {
		t.Errorf("download of a failed build: %d %s", code, body)
	}
}

// syncBuffer is a log the emulator writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// lines waits until the log holds n lines and returns them.
func (s *syncBuffer) lines(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		lines := strings.Split(strings.TrimSuffix(s.String(), "\n"), "\n")
		if len(lines) >= n && lines[0] != "" {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log has %d lines, want %d:\n%s", len(lines), n, s.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	s := start(t, Config{Log: &log})
	requests := []struct {
		method, target, body string
		header               []string
		want                 string
	}{
		{"GET", "/docs.list?projectId=4711", "", nil, "GET /docs.list?projectId=4711 200 "},
		{"PUT", "/projects/4711/files/openapi.yml", `{"content":{},"branch":"main"}`, nil, "PUT /projects/4711/files/openapi.yml 200 "},
		{"GET", "/docs.list?projectId=4711&access_token=" + token + "&apiKey=k1", "", nil, "GET /docs.list?projectId=4711&access_token=REDACTED&apiKey=REDACTED 200 "},
		{"GET", "/docs.list?projectId=4711&q=" + token, "", nil, "GET /docs.list?projectId=4711&q=REDACTED 200 "},
		{"GET", "/docs.list?projectId=4711", "", []string{"Authorization", "Bearer wrong-" + token}, "GET /docs.list?projectId=4711 401 "},
		{"GET", "/sites/17/", "", []string{"Authorization", ""}, "GET /sites/17/ 404 "},
	}
	for _, r := range requests {
		call(t, r.method, s.URL()+r.target, r.body, r.header...)
	}
	lines := log.lines(t, len(requests))
	shape := regexp.MustCompile(`^(GET|PUT|POST) /\S* (\d{3}|no-answer) [0-9.]+(µs|ms|s)$`)
	for i, line := range lines {
		if !shape.MatchString(line) {
			t.Errorf("log line %q is not METHOD PATH STATUS DURATION", line)
		}
		if strings.Contains(line, token) || strings.Contains(line, "k1") {
			t.Errorf("log line %q shows a secret", line)
		}
		if i < len(requests) && !strings.HasPrefix(line, requests[i].want) {
			t.Errorf("log line %d: %q, want %q…", i, line, requests[i].want)
		}
	}
}

// TestBrowsableSites: the live build of each doc is served from its zip,
// to anyone, and nothing but the zip's entries.
func TestBrowsableSites(t *testing.T) {
	t.Parallel()
	s := start(t, Config{BuildDelay: time.Hour, Projects: []Project{{ID: "4711", Docs: []Doc{
		{ID: "17", File: "openapi.yml", Branch: "main"},
		{ID: "18", File: "openapi.yml", Branch: "main", Fail: "the theme does not build"},
	}}}})
	upload(t, s, sampleJSON(t))
	id := release(t, s, true)
	finishNow(t, s, id)
	built := waitBuilt(t, s, id)
	code, _, _ := call(t, "POST", s.URL()+"/docs.release?id=18", `{"setLive":true}`)
	if code != 200 {
		t.Fatal("release of doc 18")
	}
	failed := s.Builds()[1].ID
	finishNow(t, s, failed)
	waitBuilt(t, s, failed)
	index, ok := zipEntry(built.Zip, "index.html")
	if !ok {
		t.Fatal("the build has no index.html")
	}
	cases := []struct {
		name, target string
		status       int
		ctype, want  string
	}{
		{"index", "/sites/17/", 200, "text/html", string(index)},
		{"index by name", "/sites/17/index.html", 200, "text/html", string(index)},
		{"stylesheet", "/sites/17/assets/style.css", 200, "text/css", styleCSS},
		{"script", "/sites/17/assets/app.js", 200, "text/javascript", appJS},
		{"no slash", "/sites/17", 301, "", ""},
		{"not in the zip", "/sites/17/nothing.html", 404, "text/html", "has no nothing.html"},
		{"dot dot", "/sites/17/assets/../index.html", 404, "text/html", "Not in this build"},
		{"escaped dot dot", "/sites/17/%2e%2e/%2e%2e/etc/passwd", 404, "text/html", "Not in this build"},
		{"absolute", "/sites/17//etc/passwd", 404, "text/html", "Not in this build"},
		{"failed builds only", "/sites/18/", 404, "text/html", "Its last build, " + failed + ", failed: doc 18: the theme does not build"},
		{"no such doc", "/sites/99/", 404, "text/html", "There is no doc 99."},
		{"the list", "/sites/", 200, "text/html", `<a href="/sites/17/">17</a>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp := rawGet(t, s.Addr(), tc.target)
			if resp.status != tc.status || !strings.HasPrefix(resp.header.Get("Content-Type"), tc.ctype) || !strings.Contains(resp.body, tc.want) {
				t.Errorf("GET %s: %d %q, want %d %q with %.80q\n%.300s", tc.target, resp.status, resp.header.Get("Content-Type"), tc.status, tc.ctype, tc.want, resp.body)
			}
			if tc.status != 301 && !strings.Contains(resp.header.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("GET %s: no Content-Security-Policy", tc.target)
			}
		})
	}
}

type rawResponse struct {
	status int
	header http.Header
	body   string
}

// rawGet sends the target as written, without a token: a client would
// clean the dot segments out of it.
func rawGet(t *testing.T, addr, target string) rawResponse {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return rawResponse{resp.StatusCode, resp.Header, string(b)}
}

// TestListenAddress: ":0" listens on every interface, as in Go; the
// emulator says so, and its URL stays one this machine reaches.
func TestListenAddress(t *testing.T) {
	t.Parallel()
	cases := []struct {
		addr     string
		loopback bool
	}{
		{"127.0.0.1:0", true},
		{"localhost:0", true},
		{":0", false},
	}
	for _, tc := range cases {
		t.Run(tc.addr, func(t *testing.T) {
			t.Parallel()
			s, err := StartOn(Config{Token: token, Projects: Default().Projects}, tc.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Loopback() != tc.loopback {
				t.Errorf("Loopback() = %v", s.Loopback())
			}
			if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") && !strings.HasPrefix(s.URL(), "http://[::1]:") {
				t.Errorf("URL() = %s", s.URL())
			}
			if code, _, _ := call(t, "GET", s.URL()+"/docs.list?projectId=4711", ""); code != 200 {
				t.Errorf("docs list through %s: %d", s.URL(), code)
			}
			if want := s.URL() + "/sites/17/"; s.SiteURL("17") != want {
				t.Errorf("SiteURL = %s, want %s", s.SiteURL("17"), want)
			}
		})
	}
	if _, err := StartOn(Config{}, "127.0.0.1:notaport"); err == nil {
		t.Error("a bad address listens")
	}
}
