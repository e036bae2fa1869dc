package emulator

import (
	"archive/zip"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const token = "test-token"

func start(t *testing.T, cfg Config) *Server {
	t.Helper()
	if cfg.Token == "" {
		cfg.Token = token
	}
	if cfg.Projects == nil {
		cfg.Projects = Default().Projects
	}
	s, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// call sends one request the way a client of the interface would.
func call(t *testing.T, method, url, body string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// sampleJSON is the Swagger 2.0 sample as the JSON a client uploads.
func sampleJSON(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/specs/bookstore.swagger2.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	json.Compact(&buf, b)
	return buf.String()
}

func upload(t *testing.T, s *Server, content string) {
	t.Helper()
	code, _, b := call(t, "PUT", s.URL()+"/projects/4711/files/openapi.yml",
		`{"content":`+content+`,"branch":"main","commit_message":"test"}`)
	if code != 200 {
		t.Fatalf("update: %d %s", code, b)
	}
}

func release(t *testing.T, s *Server, setLive bool) string {
	t.Helper()
	code, _, b := call(t, "POST", s.URL()+"/docs.release?id=17", `{"setLive":`+map[bool]string{true: "true", false: "false"}[setLive]+`}`)
	if code != 200 {
		t.Fatalf("release: %d %s", code, b)
	}
	var out struct {
		Build struct {
			ID json.Number `json:"id"`
		} `json:"build"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.Decode(&out)
	return out.Build.ID.String()
}

// waitBuilt polls the emulator's state until the build has finished.
func waitBuilt(t *testing.T, s *Server, id string) BuildInfo {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, b := range s.Builds() {
			if b.ID == id && b.State != statePending {
				return b
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("build %s did not finish", id)
	return BuildInfo{}
}

func TestSeedCurlRequests(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"sh", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	s := start(t, Config{BuildDelay: 50 * time.Millisecond})
	out := filepath.Join(t.TempDir(), "build.zip")
	cmd := exec.Command("sh", "../../testdata/seed/curl-flow.sh")
	cmd.Env = append(os.Environ(), "BASE_URL="+s.URL(), "TOKEN="+token, "PROJECT_ID=4711",
		"SPEC_JSON=../../testdata/specs/bookstore.swagger2.json", "OUT="+out)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the seed's curl flow failed: %v\n%s", err, msg)
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatalf("downloaded build is not a zip: %v", err)
	}
	defer zr.Close()
	if len(zr.File) == 0 || zr.File[0].Name != "index.html" {
		t.Errorf("zip holds %v", zr.File)
	}
	vs := s.Versions("4711", "main", "openapi.yml")
	if len(vs) != 1 || vs[0].CommitMessage != "Update from curl" {
		t.Errorf("stored versions: %+v", vs)
	}
}

func TestBuildsFinishAsynchronously(t *testing.T) {
	t.Parallel()
	s := start(t, Config{BuildDelay: 100 * time.Millisecond})
	upload(t, s, sampleJSON(t))
	id := release(t, s, true)
	code, h, _ := call(t, "GET", s.URL()+"/docs.builds.download?id="+id, "")
	if code != http.StatusAccepted || h.Get("Retry-After") == "" {
		t.Errorf("download before the build finished: %d, Retry-After %q; want 202 with Retry-After", code, h.Get("Retry-After"))
	}
	waitBuilt(t, s, id)
	code, h, body := call(t, "GET", s.URL()+"/docs.builds.download?id="+id, "")
	if code != 200 || h.Get("Content-Type") != "application/zip" || !bytes.HasPrefix(body, []byte("PK")) {
		t.Errorf("download after the build: %d %s", code, h.Get("Content-Type"))
	}
	if code, _, _ := call(t, "GET", s.URL()+"/docs.builds.download?id=1", ""); code != 404 {
		t.Errorf("unknown build: %d", code)
	}
}

func TestBuildIDsNeedExactReading(t *testing.T) {
	t.Parallel()
	s := start(t, Config{FirstBuildID: 1<<53 + 1})
	upload(t, s, sampleJSON(t))
	id := release(t, s, true)
	if id != "9007199254740993" {
		t.Fatalf("first build id %s, want 2^53+1", id)
	}
	var f float64
	json.Unmarshal([]byte(id), &f)
	if strconv.FormatFloat(f, 'f', -1, 64) == id {
		t.Fatalf("a float64 keeps %s exactly; the id does not test exact reading", id)
	}
	waitBuilt(t, s, id)
	if code, _, _ := call(t, "GET", s.URL()+"/docs.builds.download?id="+strconv.FormatFloat(f, 'f', -1, 64), ""); code != 404 {
		t.Errorf("the rounded id found a build: %d", code)
	}
}

func TestLiveAndNotLiveBuildsKeptApart(t *testing.T) {
	t.Parallel()
	s := start(t, Config{})
	upload(t, s, sampleJSON(t))
	live := release(t, s, true)
	waitBuilt(t, s, live)
	preview := release(t, s, false)
	waitBuilt(t, s, preview)
	for _, b := range s.Builds() {
		switch b.ID {
		case live:
			if !b.Live || !b.SetLive {
				t.Errorf("set-live build %+v is not live", b.ID)
			}
		case preview:
			if b.Live || b.SetLive {
				t.Errorf("preview build %s became live", b.ID)
			}
		}
	}
}

func TestRequestsTheServiceRefuses(t *testing.T) {
	t.Parallel()
	s := start(t, Config{})
	u := s.URL()
	spec := sampleJSON(t)
	cases := []struct {
		name, method, url, body string
		header                  []string
		want                    int
	}{
		{"no token", "GET", u + "/docs.list?projectId=4711", "", []string{"Authorization", ""}, 401},
		{"wrong token", "GET", u + "/docs.list?projectId=4711", "", []string{"Authorization", "Bearer nope"}, 401},
		{"unknown project on list", "GET", u + "/docs.list?projectId=99", "", nil, 404},
		{"unknown project on update", "PUT", u + "/projects/99/files/openapi.yml", `{"content":` + spec + `,"branch":"main","commit_message":"m"}`, nil, 404},
		{"unknown branch", "PUT", u + "/projects/4711/files/openapi.yml", `{"content":` + spec + `,"branch":"dev","commit_message":"m"}`, nil, 404},
		{"content as a string", "PUT", u + "/projects/4711/files/openapi.yml", `{"content":"{}","branch":"main","commit_message":"m"}`, nil, 400},
		{"no content type", "PUT", u + "/projects/4711/files/openapi.yml", `{"content":{},"branch":"main"}`, []string{"Content-Type", ""}, 415},
		{"unknown doc", "POST", u + "/docs.release?id=99", `{"setLive":true}`, nil, 404},
		{"unknown endpoint", "GET", u + "/docs.nothing", "", nil, 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, _, body := call(t, tc.method, tc.url, tc.body, tc.header...)
			if code != tc.want {
				t.Errorf("status %d, want %d (%s)", code, tc.want, body)
			}
			var e struct {
				Message    string `json:"error_message"`
				Code       int    `json:"error_code"`
				TrackingID string `json:"tracking_id"`
			}
			if json.Unmarshal(body, &e) != nil || e.Message == "" || e.Code == 0 || e.TrackingID == "" {
				t.Errorf("error body is not the service's error shape: %s", body)
			}
		})
	}
}

func TestPrefixEscapedNamesAndCompression(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Prefix: "/api/v1", Projects: []Project{{ID: "team a/1"}}})
	code, _, body := call(t, "PUT", s.URL()+"/projects/team%20a%2F1/files/specs%2Fopen%20api%231.yml",
		`{"content":{"openapi":"3.0.0"},"branch":"any","commit_message":"m"}`)
	if code != 200 {
		t.Fatalf("update with escaped names: %d %s", code, body)
	}
	if vs := s.Versions("team a/1", "any", "specs/open api#1.yml"); len(vs) != 1 {
		t.Errorf("file not stored under its unescaped name")
	}
	code, h, body := call(t, "GET", s.URL()+"/docs.list?projectId=team+a%2F1", "", "Accept-Encoding", "gzip")
	if code != 200 || h.Get("Content-Encoding") != "gzip" {
		t.Errorf("list asked for gzip: %d, Content-Encoding %q", code, h.Get("Content-Encoding"))
	}
	if !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		t.Errorf("body is not gzip")
	}
}

// TestRenderedSite checks the static site shows what the description holds:
// every operation with its parameters and responses, and the shared
// parameters and responses as components the operations link to.
func TestRenderedSite(t *testing.T) {
	t.Parallel()
	for _, sample := range []string{"bookstore.swagger2.json", "bookstore.openapi3.json"} {
		t.Run(sample, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile("../../testdata/specs/" + sample)
			if err != nil {
				t.Fatal(err)
			}
			z, err := renderSite(raw)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			for _, f := range zr.File {
				rc, _ := f.Open()
				b, _ := io.ReadAll(rc)
				rc.Close()
				files[f.Name] = string(b)
			}
			for _, name := range []string{"index.html", "assets/style.css", "assets/app.js"} {
				if files[name] == "" {
					t.Errorf("site has no %s", name)
				}
			}
			page := files["index.html"]
			for _, want := range []string{
				"<title>Bookstore API", "Version ", `href="assets/style.css"`, `src="assets/app.js"`,
				`id="op-get-books"`, `id="op-get-authors"`, `id="op-get-books-bookid"`,
				`id="param-limit"`, `id="param-offset"`, `id="response-error"`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("index.html lacks %s", want)
				}
			}
			// Operations come in the order the paths were written.
			if strings.Index(page, `id="op-get-books"`) > strings.Index(page, `id="op-get-authors"`) {
				t.Error("operations are not in source order")
			}
			// Shared parameters are linked from the operations that use them, not copied.
			if n := strings.Count(page, `class="shared" href="#param-limit"`); n != 2 {
				t.Errorf("limit is linked from %d operations, want 2 (listBooks, listAuthors)", n)
			}
			// The shared error response is used under several endpoints, and twice under GET /books.
			books := section(page, `id="op-get-books"`)
			if n := strings.Count(books, `href="#response-error"`); n != 2 {
				t.Errorf("GET /books links the shared error response %d times, want 2", n)
			}
			usedBy := section(page, `id="response-error"`)
			if !regexp.MustCompile(`Used by: .*GET /books.*GET /books/\{bookId\}`).MatchString(usedBy) {
				t.Errorf("the shared response does not list its users: %s", usedBy)
			}
		})
	}
}

// section returns the article that starts at marker.
func section(page, marker string) string {
	i := strings.Index(page, marker)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</article>")
	return page[i : i+j]
}

func TestTLSWithItsCertificate(t *testing.T) {
	t.Parallel()
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	s, err := StartTLS(Config{Token: token, Projects: Default().Projects}, "127.0.0.1:0", certFile)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pemBytes, _ := os.ReadFile(certFile)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatal("certificate file holds no certificate")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest("GET", s.URL()+"/docs.list?projectId=4711", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("https with the written certificate: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(s.URL(), "https://") {
		t.Errorf("status %d, URL %s", resp.StatusCode, s.URL())
	}
}
