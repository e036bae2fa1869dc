package emulator

import (
	"archive/zip"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
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
// finishNow ends the delay of a build under way, so that it renders at once.
func finishNow(t *testing.T, s *Server, id string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.builds[id]
	if b == nil || b.state != statePending {
		t.Fatalf("build %s is not under way", id)
	}
	b.timer.Reset(0)
}

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
	// A build that takes an hour, finished by the test when it has seen it
	// under way: no race with a loaded machine.
	s := start(t, Config{BuildDelay: time.Hour})
	upload(t, s, sampleJSON(t))
	id := release(t, s, true)
	code, h, _ := call(t, "GET", s.URL()+"/docs.builds.download?id="+id, "")
	if code != http.StatusAccepted || h.Get("Retry-After") == "" {
		t.Errorf("download before the build finished: %d, Retry-After %q; want 202 with Retry-After", code, h.Get("Retry-After"))
	}
	finishNow(t, s, id)
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

// TestUnknownRouteIsABarePage: a route the service does not have (a wrong
// path prefix in a client's address) gets a web server's plain 404, not the
// service's JSON error, as a real deployment would answer.
func TestUnknownRouteIsABarePage(t *testing.T) {
	t.Parallel()
	for _, style := range []RouteStyle{RouteText, RouteJSON} {
		s := start(t, Config{Prefix: "/v1", Variant: Variant{UnknownRoute: style}})
		for _, u := range []string{s.URL() + "/docs.nothing", strings.TrimSuffix(s.URL(), "/v1") + "/v2/docs.list?projectId=4711"} {
			code, h, body := call(t, "GET", u, "")
			isJSON := strings.Contains(h.Get("Content-Type"), "json") && json.Valid(body)
			if code != http.StatusNotFound || isJSON != (style == RouteJSON) || bytes.Contains(body, []byte("error_message")) {
				t.Errorf("%s: GET %s: %d %s %q, want a 404 that is not the service's error", style, u, code, h.Get("Content-Type"), body)
			}
		}
	}
}

// TestFailedBuildsToldManyWays: a failed build's download is answered in the
// failure style, never with a zip.
func TestFailedBuildsToldManyWays(t *testing.T) {
	t.Parallel()
	for _, style := range []FailureStyle{Failure422, Failure200, FailureOpaque} {
		s := start(t, Config{Variant: Variant{Failure: style}})
		id := release(t, s, true) // no file uploaded: the build fails
		waitBuilt(t, s, id)
		code, _, body := call(t, "GET", s.URL()+"/docs.builds.download?id="+id, "")
		want := map[FailureStyle]int{Failure422: 422, Failure200: 200, FailureOpaque: 200}[style]
		if code != want || bytes.HasPrefix(body, []byte("PK")) || !bytes.Contains(body, []byte("build failed")) {
			t.Errorf("%s: %d %s", style, code, body)
		}
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

// decodeAny reads JSON keeping numbers as json.Number.
func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("answer is not JSON: %v: %q", err, b)
	}
	return v
}

// TestVariants: each named variant answers the interface's four calls the
// way it says, and keeps the promised fields (docs[].id, build.id) usable.
func TestVariants(t *testing.T) {
	t.Parallel()
	for _, name := range VariantNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v, err := ParseVariant(name)
			if err != nil {
				t.Fatal(err)
			}
			// The build is finished by the test once it has been seen under way.
			s := start(t, Config{Variant: v, BuildDelay: time.Hour})
			v = v.withDefaults()
			docID := s.Config().Projects[0].Docs[0].ID

			code, h, b := call(t, "PUT", s.URL()+"/projects/4711/files/openapi.yml", `{"content":`+sampleJSON(t)+`,"branch":"main","commit_message":"m"}`)
			wantUpdate := map[UpdateStyle]int{UpdateBody: 200, UpdateEmpty: 200, UpdateNoContent: 204}[v.Update]
			if code != wantUpdate || (v.Update == UpdateBody) != (len(b) > 0) {
				t.Errorf("update: %d with %d bytes, want %d (%s)", code, len(b), wantUpdate, v.Update)
			}
			if len(b) > 0 && h.Get("Content-Type") != v.JSONType {
				t.Errorf("update Content-Type %q, want %q", h.Get("Content-Type"), v.JSONType)
			}

			_, _, b = call(t, "GET", s.URL()+"/docs.list?projectId=4711", "")
			doc := decodeAny(t, b).(map[string]any)["docs"].([]any)[0].(map[string]any)
			checkID(t, "docs[0].id", doc["id"], docID, v.IDs)
			switch d := doc["domain"].(type) {
			case string:
				if v.Fields != FieldsStrings && v.Fields != FieldsUnknown {
					t.Errorf("domain %q as a string in %s", d, v.Fields)
				}
			case map[string]any:
				if v.Fields != FieldsObjects || d["name"] != "doc-17.project-4711.docs.example" {
					t.Errorf("domain %v in %s", d, v.Fields)
				}
			case []any:
				if v.Fields != FieldsArrays {
					t.Errorf("domain %v in %s", d, v.Fields)
				}
			case nil:
				if v.Fields != FieldsAbsent {
					t.Errorf("no domain in %s", v.Fields)
				}
			}

			code, _, b = call(t, "POST", s.URL()+"/docs.release?id="+url.QueryEscape(docID), `{"setLive":true}`)
			if code != v.ReleaseStatus {
				t.Errorf("release answered %d, want %d", code, v.ReleaseStatus)
			}
			top := decodeAny(t, b).(map[string]any)
			buildID := fmt.Sprint(top["build"].(map[string]any)["id"])
			checkID(t, "build.id", top["build"].(map[string]any)["id"], buildID, v.IDs)
			if v.Fields == FieldsAbsent && len(top) != 1 {
				t.Errorf("release answer has fields beyond build: %s", b)
			}

			code, _, b = call(t, "GET", s.URL()+"/docs.builds.download?id="+url.QueryEscape(buildID), "")
			wantWait := map[NotReadyStyle]int{NotReady202: 202, NotReady404: 404, NotReady200: 200, NotReady409: 409, NotReady503: 503}[v.NotReady]
			if code != wantWait || bytes.HasPrefix(b, []byte("PK")) {
				t.Errorf("download while building: %d, want %d and no zip", code, wantWait)
			}
			finishNow(t, s, buildID)
			waitBuilt(t, s, buildID)
			resp, err := http.DefaultClient.Do(authed(t, s.URL()+"/docs.builds.download?id="+url.QueryEscape(buildID)))
			if err != nil {
				t.Fatal(err)
			}
			zipBody, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			streamed := v.Zip != ZipSized
			if !bytes.HasPrefix(zipBody, []byte("PK")) || (resp.ContentLength < 0) != streamed ||
				(resp.Header.Get("Content-Type") == "application/octet-stream") != streamed ||
				(resp.Header.Get("Content-Disposition") != "") != (v.Zip != ZipStreamplain) {
				t.Errorf("zip answer: length %d, %q, disposition %q, chunked %v; want style %s",
					resp.ContentLength, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"), resp.TransferEncoding, v.Zip)
			}
		})
	}
}

func authed(t *testing.T, u string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// checkID checks an id as written on the wire against the variant's style.
func checkID(t *testing.T, what string, v any, want string, style IDStyle) {
	t.Helper()
	switch id := v.(type) {
	case json.Number:
		if style != IDNumber && style != IDBig || id.String() != want {
			t.Errorf("%s = %s, a number in style %s", what, id, style)
		}
		if n, _ := strconv.ParseUint(id.String(), 10, 64); style == IDBig && n <= 1<<53 {
			t.Errorf("%s = %s, not above 2^53", what, id)
		}
	case string:
		if style != IDString && style != IDOpaque && style != IDText || id != want {
			t.Errorf("%s = %q, a string in style %s", what, id, style)
		}
		if style == IDOpaque && isDigits(id) {
			t.Errorf("%s = %q, all digits in the opaque style", what, id)
		}
		if style == IDText && (!strings.ContainsAny(id, "/ =") || utf8.ValidString(id) && len(id) == utf8.RuneCountInString(id)) {
			t.Errorf("%s = %q, in the text style without a slash, a space, '=' or a letter beyond ASCII", what, id)
		}
	default:
		t.Errorf("%s = %v (%T)", what, v, v)
	}
}

// TestRandomVariantIsReproducible: a seed gives the same answers every time,
// and different seeds give different mixes.
func TestRandomVariantIsReproducible(t *testing.T) {
	t.Parallel()
	answers := func(seed string) string {
		v, err := ParseVariant("random:" + seed)
		if err != nil {
			t.Fatal(err)
		}
		s := start(t, Config{Variant: v})
		var all strings.Builder
		for range 12 {
			code, h, b := call(t, "GET", s.URL()+"/docs.list?projectId=4711", "", "Accept-Encoding", "identity")
			fmt.Fprintf(&all, "%d %s %s\n", code, h.Get("Content-Type"), b)
		}
		return all.String()
	}
	if a, b := answers("5"), answers("5"); a != b {
		t.Errorf("seed 5 answered differently twice:\n%s\n%s", a, b)
	}
	if a, b := answers("5"), answers("6"); a == b {
		t.Errorf("seeds 5 and 6 answered alike:\n%s", a)
	}
	for _, bad := range []string{"random:", "random:0", "random:x", "nope"} {
		if _, err := ParseVariant(bad); err == nil {
			t.Errorf("variant %q accepted", bad)
		}
	}
}

// countingReader streams n bytes of "x", counting what was read.
type countingReader struct {
	left int64
	read atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), c.left))
	for i := range p[:n] {
		p[i] = 'x'
	}
	c.left -= int64(n)
	c.read.Add(int64(n))
	return n, nil
}

// TestEmulatorBoundsWhatItIsSent: the token is checked before a body is
// read, a body is capped, and the request log keeps a bounded amount.
func TestEmulatorBoundsWhatItIsSent(t *testing.T) {
	t.Parallel()
	s := start(t, Config{MaxBody: 1 << 20, LogSize: 5})
	// 1 GB without a token: answered 401 long before the body is sent, by
	// a server whose body cap (256 MiB) would not hide a body read first.
	open := start(t, Config{})
	put := func(tok string, body io.Reader) int { return putTo(open.URL(), tok, body) }
	huge := &countingReader{left: 1 << 30}
	if code := put("wrong", huge); code != http.StatusUnauthorized && code != -1 {
		t.Errorf("a body without a token: %d, want 401", code)
	}
	if sent := huge.read.Load(); sent > 64<<20 {
		t.Errorf("%d MiB of a body without a token were taken in", sent>>20)
	}
	put = func(tok string, body io.Reader) int { return putTo(s.URL(), tok, body) }
	if code := put(token, &countingReader{left: 2 << 20}); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the cap: %d, want 413", code)
	}
	for range 10 {
		call(t, "GET", s.URL()+"/docs.list?projectId=4711", "")
	}
	put(token, &countingReader{left: 100 << 10})
	reqs := s.Requests()
	if len(reqs) != 5 || reqs[4].Method != "PUT" {
		t.Fatalf("the log keeps %d requests, want the latest 5", len(reqs))
	}
	if n := len(reqs[4].Body); n != maxLoggedBody {
		t.Errorf("the log keeps %d bytes of a 100 KiB body, want the first %d", n, maxLoggedBody)
	}
	for _, r := range reqs {
		if r.Header.Get("Authorization") != "" {
			t.Error("the log keeps the token")
		}
	}

	// The log is bounded in bytes too: requests with large headers, as
	// anyone can send without a token, push the oldest out.
	small := start(t, Config{LogBytes: 1 << 20})
	for range 100 {
		req, _ := http.NewRequest("GET", small.URL()+"/docs.list?projectId=4711", nil)
		req.Header.Set("X-Padding", strings.Repeat("p", 50<<10))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	var held int
	logged := small.Requests()
	for _, r := range logged {
		held += len(r.Header.Get("X-Padding"))
	}
	if held > 1<<20 || len(logged) == 0 || len(logged) == 100 {
		t.Errorf("the log holds %d requests with %d KiB of headers, want at most 1 MiB", len(logged), held>>10)
	}
}

// putTo sends a file update to the emulator at base with token tok.
func putTo(base, tok string, body io.Reader) int {
	req, _ := http.NewRequest("PUT", base+"/projects/4711/files/openapi.yml", body)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return -1 // the server may close the connection on an unread body
	}
	resp.Body.Close()
	return resp.StatusCode
}
