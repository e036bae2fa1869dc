package docsapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/docs-publish/docs-publish/internal/closedport"
	"github.com/docs-publish/docs-publish/internal/redact"
)

const token = "s3cr3t-token-value"

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newClient(t *testing.T, base string) *Client {
	t.Helper()
	c, err := New(mustURL(t, base), token, Options{FirstRetry: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestParseID: a promised id is a JSON string or number, kept exactly as
// written: any text of 1 to 128 characters without a control character;
// anything else is refused with an *IDError naming the field.
func TestParseID(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`17`, "17"},
		{`"17"`, "17"},
		{`9007199254740993`, "9007199254740993"}, // 2^53+1: a float64 would round it
		{`"b-42"`, "b-42"},
		{`123456789012345678901234567890`, "123456789012345678901234567890"},
		{` 1.5e3 `, "1.5e3"},
		{`-4`, "-4"},
		{`"YWJj="`, "YWJj="},
		{`"b/98765"`, "b/98765"},
		{`"team docs"`, "team docs"},
		{`"ä1"`, "ä1"},
		{`"\u00e41"`, "ä1"},
		{`"../../x"`, "../../x"},
		{`".."`, ".."},
		{`"a\/b"`, "a/b"},
		{`"\ufffd"`, "\ufffd"},
		{`"` + strings.Repeat("ä", 128) + `"`, strings.Repeat("ä", 128)},
	}
	for _, tc := range cases {
		got, err := parseID(json.RawMessage(tc.in), "build.id")
		if err != nil || string(got) != tc.want {
			t.Errorf("%s read as %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	bad := []string{`null`, `{"x":1}`, `[17]`, `true`, `""`, ``, `"unterminated`,
		`"17\n::warning::x"`, `"id\u0000"`, `"a\u007fb"`, `"a\u0085b"`, `"a\u2028b"`, `"a\u2029b"`,
		`"abc\u202edocs"`, `"a\u2066b"`, `"a\u200fb"`, `"a\u061cb"`, `"\ud800x"`, "\"a\xffb\"",
		`"` + strings.Repeat("ä", 129) + `"`, strings.Repeat("9", 129)}
	for _, bad := range bad {
		got, err := parseID(json.RawMessage(bad), "build.id")
		var ie *IDError
		if !errors.As(err, &ie) || ie.Field != "build.id" {
			t.Errorf("%s read as an id %q, %v; want an *IDError about build.id", bad, got, err)
		}
	}
}

// answerServer answers every request with status, content type and body.
func answerServer(t *testing.T, status int, ctype, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestTolerantAnswers: only docs[].id and build.id are promised; every other
// field may have any shape, and any 2xx with a usable body is success. An
// answer that cannot be used fails with typed errors, checked by type and
// by their fields, never by their text.
func TestTolerantAnswers(t *testing.T) {
	t.Parallel()
	const js = "application/json; charset=utf-8"
	cases := []struct {
		name, endpoint string
		status         int
		ctype, body    string
		want           string  // what was read: "17 docs.example https://docs.example/" or a build "98765 4521 pending"
		docErr         string  // the field of docs[0]'s *IDError, if it has one
		errs           []error // the error's chain holds each, matched by type and field; nil for success
	}{
		{"release with a status object", "release", 200, js, `{"build": {"id": 98765, "docId": 4521, "status": {"code": "pending", "message": "queued"}}}`, "98765 4521 ", "", nil},
		{"release 201", "release", 201, js, `{"build":{"id":"b-1"}}`, "b-1  ", "", nil},
		{"release 202 with arrays and nulls", "release", 202, js, `{"build":{"id":7,"status":["queued"],"docId":null,"logs":{"a":[1,{"b":null}]}},"status":"queued","docId":[4]}`, "7  queued", "", nil},
		{"release, status at the top", "release", 200, "application/json", `{"build":{"id":7},"status":"queued","docId":"4"}`, "7 4 queued", "", nil},
		{"release, JSON without a JSON type", "release", 200, "text/plain", `{"build":{"id":7}}`, "7  ", "", nil},
		{"release, an id of any text", "release", 200, js, `{"build":{"id":"b/98765 ä="}}`, "b/98765 ä=  ", "", nil},
		{"release without build", "release", 200, js, `{"id":7}`, "", "", []error{&UncertainError{}, &ShapeError{What: "build object"}}},
		{"release with an object id", "release", 200, js, `{"build":{"id":{"value":7}}}`, "", "", []error{&UncertainError{}, &ShapeError{What: "build.id"}, &IDError{Field: "build.id"}}},
		{"release with a line break in its id", "release", 200, js, `{"build":{"id":"7\n::warning::x"}}`, "", "", []error{&UncertainError{}, &ShapeError{What: "build.id"}, &IDError{Field: "build.id"}}},
		{"release 204", "release", 204, "", ``, "", "", []error{&UncertainError{}, &bodyFault{}}},
		{"list with a domain object", "list", 200, js, `{"docs":[{"id":17,"domain":{"name":"docs.example"},"status":{"x":1}}],"total":{"n":1}}`, "17 docs.example https://docs.example/", "", nil},
		{"list with a domain url", "list", 200, js, `{"docs":[{"id":"17","domain":{"url":"https://docs.example/v2/?x=1"}}]}`, "17 docs.example https://docs.example/v2/", "", nil},
		{"list with a domain array", "list", 200, js, `{"docs":[{"id":17,"domain":["docs.example"]}]}`, "17  ", "", nil},
		{"list with a domain that is not a host", "list", 200, js, `{"docs":[{"id":17,"domain":"not a host\n::warning::x"}]}`, "17  ", "", nil},
		{"list with nulls everywhere", "list", 200, js, `{"docs":[{"id":17,"domain":null,"name":null}],"meta":null}`, "17  ", "", nil},
		{"list, docs not an array", "list", 200, js, `{"docs":{"id":17}}`, "", "", []error{&ShapeError{What: "docs array"}}},
		{"list, doc without id", "list", 200, js, `{"docs":[{"name":"x"}]}`, "  ", "docs[0].id", nil},
		{"list, doc id null", "list", 200, js, `{"docs":[{"id":null}]}`, "  ", "docs[0].id", nil},
		{"list, doc not an object", "list", 200, js, `{"docs":["17"]}`, "  ", "docs[0]", nil},
		{"update 200 with a body", "update", 200, js, `{"file":{"version":{"n":2},"commit":null}}`, "", "", nil},
		{"update 200 empty", "update", 200, "", ``, "", "", nil},
		{"update 204", "update", 204, "", ``, "", "", nil},
		{"update 201 with text", "update", 201, "text/plain", `stored`, "", "", nil},
		{"update 200 with a body that is not the JSON it declares", "update", 200, js, `OK`, "", "", nil},
		{"release answered by a web page", "release", 200, "text/html", `<html>sign in</html>`, "", "", []error{&UncertainError{}, &HTMLError{}}},
		{"update answered by a web page", "update", 200, "text/html", `<html>sign in</html>`, "", "", []error{&HTMLError{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newClient(t, answerServer(t, tc.status, tc.ctype, tc.body).URL)
			ctx := context.Background()
			var got, docErr string
			var err error
			switch tc.endpoint {
			case "release":
				var b Build
				b, err = c.Release(ctx, "1", true)
				got = fmt.Sprintf("%s %s %s", b.ID, b.DocID, b.Status)
			case "list":
				var docs []Doc
				docs, err = c.ListDocs(ctx, "p")
				if len(docs) == 1 {
					got = fmt.Sprintf("%s %s %s", docs[0].ID, docs[0].Domain, docs[0].URL)
					var ie *IDError
					if errors.As(docs[0].IDErr, &ie) {
						docErr = ie.Field
					}
				}
			case "update":
				err = c.UpdateFile(ctx, "p", "f.yml", FileUpdate{Content: bytes.NewReader([]byte(`{}`)), Branch: "main"})
			}
			if tc.errs == nil {
				if err != nil || got != tc.want || docErr != tc.docErr {
					t.Errorf("read %q (id error at %q), %v; want %q (id error at %q)", got, docErr, err, tc.want, tc.docErr)
				}
				return
			}
			for _, want := range tc.errs {
				if !holds(err, want) {
					t.Errorf("error %v (%T): its chain lacks %T %+v", err, err, want, want)
				}
			}
		})
	}
}

// holds reports whether err's chain has an error of want's type, with
// want's identifying field where it sets one.
func holds(err, want error) bool {
	switch w := want.(type) {
	case *UncertainError:
		var e *UncertainError
		return errors.As(err, &e)
	case *bodyFault:
		var e *bodyFault
		return errors.As(err, &e)
	case *HTMLError:
		var e *HTMLError
		return errors.As(err, &e)
	case *ShapeError:
		var e *ShapeError
		return errors.As(err, &e) && e.What == w.What
	case *IDError:
		var e *IDError
		return errors.As(err, &e) && e.Field == w.Field
	}
	panic(fmt.Sprintf("holds: no case for %T", want))
}

// TestRequestsAsTheInterfaceSays checks method, path, escaping, headers and
// body of each call against what a server receives.
func TestRequestsAsTheInterfaceSays(t *testing.T) {
	t.Parallel()
	type seen struct {
		method, path string
		query        url.Values
		header       http.Header
		body         string
	}
	got := make(chan seen, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.EscapedPath(), r.URL.Query(), r.Header.Clone(), string(b)}
		switch {
		case strings.HasSuffix(r.URL.Path, "/docs.list"):
			io.WriteString(w, `{"docs":[{"id":17,"domain":"docs.example"},{"id":"x-2"}]}`)
		case strings.HasSuffix(r.URL.Path, "/docs.release"):
			io.WriteString(w, `{"build":{"id":9007199254740993},"docId":17,"status":"queued"}`)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	defer srv.Close()
	c := newClient(t, srv.URL+"/v1/")
	ctx := context.Background()

	project, file := "team a/#1?x", "specs/open api#2.yml"
	err := c.UpdateFile(ctx, project, file, FileUpdate{Content: bytes.NewReader([]byte(`{"openapi":"3.0.0","b":1,"a":2}`)), Branch: "version/1.0", CommitMessage: "m"})
	if err != nil {
		t.Fatal(err)
	}
	s := <-got
	if s.method != "PUT" {
		t.Errorf("update used %s", s.method)
	}
	segs := strings.Split(s.path, "/")
	if len(segs) != 6 || segs[1] != "v1" || segs[2] != "projects" || segs[4] != "files" {
		t.Fatalf("update path %q: want /v1/projects/<id>/files/<name> with both escaped", s.path)
	}
	if p, _ := url.PathUnescape(segs[3]); p != project {
		t.Errorf("project id arrived as %q, want %q", p, project)
	}
	if f, _ := url.PathUnescape(segs[5]); f != file {
		t.Errorf("file name arrived as %q, want %q", f, file)
	}
	if s.header.Get("Authorization") != "Bearer "+token {
		t.Errorf("Authorization = %q", s.header.Get("Authorization"))
	}
	if s.header.Get("Content-Type") != "application/json;charset=UTF-8" {
		t.Errorf("Content-Type = %q", s.header.Get("Content-Type"))
	}
	if want := `{"content":{"openapi":"3.0.0","b":1,"a":2},"branch":"version/1.0","commit_message":"m"}`; s.body != want {
		t.Errorf("update body\n got %s\nwant %s", s.body, want)
	}

	docs, err := c.ListDocs(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	s = <-got
	if s.method != "GET" || s.path != "/v1/docs.list" || s.query.Get("projectId") != project {
		t.Errorf("list: %s %s %v", s.method, s.path, s.query)
	}
	if len(docs) != 2 || docs[0].ID != "17" || docs[0].Domain != "docs.example" || docs[0].URL != "https://docs.example/" || docs[1].ID != "x-2" {
		t.Errorf("docs = %+v", docs)
	}

	b, err := c.Release(ctx, "17", false)
	if err != nil {
		t.Fatal(err)
	}
	s = <-got
	if s.method != "POST" || s.path != "/v1/docs.release" || s.query.Get("id") != "17" || s.body != `{"setLive":false}` {
		t.Errorf("release: %s %s %v %s", s.method, s.path, s.query, s.body)
	}
	if b.ID != "9007199254740993" || b.DocID != "17" || b.Status != "queued" {
		t.Errorf("build = %+v", b)
	}
}

func TestCompressedAnswersAreDecoded(t *testing.T) {
	t.Parallel()
	var asked atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(w, `{"docs":[]}`)
			return
		}
		asked.Store(true)
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, `{"docs":[{"id":5}]}`)
		zw.Close()
	}))
	defer srv.Close()
	docs, err := newClient(t, srv.URL).ListDocs(context.Background(), "p")
	if err != nil {
		t.Fatal(err)
	}
	if !asked.Load() || len(docs) != 1 || docs[0].ID != "5" {
		t.Errorf("asked for gzip: %v, docs %+v", asked.Load(), docs)
	}
}

func TestAPIErrorReadsTheBody(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body          string
		msg, code, tracking string
		notContains         string
	}{
		{"service shape", `{"error_message":"project not found","error_code":1404,"tracking_id":"abc-1"}`, "project not found", "1404", "abc-1", ""},
		{"message and code", `{"message":"nope","code":"E42"}`, "nope", "E42", "", ""},
		{"nested error", `{"error":{"message":"bad thing","code":7}}`, "bad thing", "7", "", ""},
		{"plain text", "upstream timed out\n", "upstream timed out", "", "", ""},
		{"token echoed, kept for the sinks", `{"error_message":"token ` + token + ` revoked"}`, "token " + token + " revoked", "", "", ""},
		{"long body cut", strings.Repeat("x", 5000), strings.Repeat("x", maxShownBody) + "…", "", "", ""},
		{"fields of any type", `{"error_message":{"text":"no"},"error_code":[4,2],"tracking_id":{"id":7}}`, `{"text":"no"}`, "[4,2]", `{"id":7}`, ""},
		{"booleans and nulls", `{"error_message":"no","error_code":true,"tracking_id":null}`, "no", "true", "", ""},
		{"a number for a message", `{"error_message":404,"tracking_id":9007199254740993}`, "404", "", "9007199254740993", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAPIError(404, http.Header{}, []byte(tc.body))
			if e.Message != tc.msg || e.Code != tc.code || e.TrackingID != tc.tracking {
				t.Errorf("got message %q code %q tracking %q", e.Message, e.Code, e.TrackingID)
			}
			if tc.notContains != "" && strings.Contains(e.Error(), tc.notContains) {
				t.Errorf("error shows %q: %s", tc.notContains, e)
			}
			if !strings.HasPrefix(e.Error(), "service answered 404 Not Found") {
				t.Errorf("error does not start with the status: %s", e)
			}
			if isJSON := strings.HasPrefix(tc.body, "{"); e.JSON != isJSON {
				t.Errorf("JSON = %v for %s", e.JSON, tc.body)
			}
		})
	}
}

// faultServer answers each request with the next of answers (then 200 {}),
// counting requests.
func faultServer(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		io.Copy(io.Discard, r.Body)
		if i < len(answers) {
			answers[i](w, r)
			return
		}
		io.WriteString(w, `{"docs":[],"build":{"id":1}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func status(code int, retryAfter string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(code)
		io.WriteString(w, `{"error_message":"fault"}`)
	}
}

func dropConnection(w http.ResponseWriter, r *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

func garbled(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"docs": [{"id": 17,, "build": {`)
}

func cutShort(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "100")
	io.WriteString(w, `{"docs": [`)
	w.(http.Flusher).Flush()
	dropConnection(w, r)
}

func TestRetryPolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		release   bool
		answers   []func(http.ResponseWriter, *http.Request)
		wantCalls int32
		wantErr   string // "" for success
		uncertain bool
	}{
		{"list heals after 500 and 502", false, []func(http.ResponseWriter, *http.Request){status(500, ""), status(502, "")}, 3, "", false},
		{"list heals after 429 with Retry-After", false, []func(http.ResponseWriter, *http.Request){status(429, "0")}, 2, "", false},
		{"list heals after dropped connection", false, []func(http.ResponseWriter, *http.Request){dropConnection}, 2, "", false},
		{"list does not retry 400", false, []func(http.ResponseWriter, *http.Request){status(400, "")}, 1, "service answered 400", false},
		{"list does not retry 401", false, []func(http.ResponseWriter, *http.Request){status(401, "")}, 1, "service answered 401", false},
		{"release retries 503", true, []func(http.ResponseWriter, *http.Request){status(503, "")}, 2, "", false},
		{"release retries 429", true, []func(http.ResponseWriter, *http.Request){status(429, "")}, 2, "", false},
		{"release does not retry 500", true, []func(http.ResponseWriter, *http.Request){status(500, "")}, 1, "service answered 500", false},
		{"release does not retry 502", true, []func(http.ResponseWriter, *http.Request){status(502, "")}, 1, "service answered 502", false},
		{"release does not retry a dropped connection", true, []func(http.ResponseWriter, *http.Request){dropConnection}, 1, "answer was lost or unreadable", true},
		{"list heals after a garbled body", false, []func(http.ResponseWriter, *http.Request){garbled}, 2, "", false},
		{"list gives up after three garbled bodies", false, []func(http.ResponseWriter, *http.Request){garbled, garbled, garbled}, 3, "not JSON", false},
		{"list heals after a body cut short", false, []func(http.ResponseWriter, *http.Request){cutShort}, 2, "", false},
		{"release does not retry a garbled body", true, []func(http.ResponseWriter, *http.Request){garbled}, 1, "answer was lost or unreadable", true},
		{"release does not retry a body cut short", true, []func(http.ResponseWriter, *http.Request){cutShort}, 1, "answer was lost or unreadable", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := faultServer(t, tc.answers...)
			c := newClient(t, srv.URL)
			var err error
			if tc.release {
				_, err = c.Release(context.Background(), "1", true)
			} else {
				_, err = c.ListDocs(context.Background(), "p")
			}
			if calls.Load() != tc.wantCalls {
				t.Errorf("%d requests, want %d", calls.Load(), tc.wantCalls)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want success", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one saying %q", err, tc.wantErr)
			}
			if IsUncertain(err) != tc.uncertain {
				t.Errorf("IsUncertain = %v, want %v (%v)", IsUncertain(err), tc.uncertain, err)
			}
		})
	}
}

// TestUpdateStreamsItsContentAgainOnEveryAttempt: the file update's body
// is read from the content's start for each attempt, a retry after a 503
// and a redirect that repeats the request (307) included, each time whole,
// with its length announced.
func TestUpdateStreamsItsContentAgainOnEveryAttempt(t *testing.T) {
	t.Parallel()
	content := []byte(`{"openapi":"3.0.0","info":{"title":"<a> & b \u2028"},"paths":{}}`)
	file, err := os.CreateTemp(t.TempDir(), "body")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.Write(content); err != nil {
		t.Fatal(err)
	}
	want := `{"content":` + string(content) + `,"branch":"main","commit_message":"m"}`
	type attempt struct {
		length int64
		body   string
	}
	var mu sync.Mutex
	var seen []attempt
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, attempt{r.ContentLength, string(b)})
		n := len(seen)
		mu.Unlock()
		switch n {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		case 2:
			http.Redirect(w, r, r.URL.Path+"?again=1", http.StatusTemporaryRedirect)
		default:
			io.WriteString(w, `{}`)
		}
	}))
	defer srv.Close()
	c := newClient(t, srv.URL)
	err = c.UpdateFile(context.Background(), "p", "f.yml", FileUpdate{Content: io.NewSectionReader(file, 0, int64(len(content))), Branch: "main", CommitMessage: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 {
		t.Fatalf("%d requests, want 3 (a 503, a 307, then the update)", len(seen))
	}
	for i, a := range seen {
		if a.body != want || a.length != int64(len(want)) {
			t.Errorf("attempt %d: %d bytes announced, body\n%s\nwant %d bytes\n%s", i+1, a.length, a.body, len(want), want)
		}
	}
}

// refusingDialer refuses the first n connections as a closed port does
// (ECONNREFUSED before anything is written), then dials for real.
type refusingDialer struct {
	n      atomic.Int32
	refuse int32
}

func (d *refusingDialer) client() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if d.n.Add(1) <= d.refuse {
			return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
}

// TestReleaseRetriedWhenNothingWasSent: a release whose connection was
// refused never reached the service, so it is sent again, and makes one
// build.
func TestReleaseRetriedWhenNothingWasSent(t *testing.T) {
	t.Parallel()
	srv, calls := faultServer(t)
	d := &refusingDialer{refuse: 2}
	c, err := New(mustURL(t, srv.URL), token, Options{HTTPClient: d.client(), FirstRetry: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Release(context.Background(), "1", true)
	if err != nil || b.ID != "1" {
		t.Fatalf("release after two refused connections = %+v, %v; want build 1", b, err)
	}
	if dials, n := d.n.Load(), calls.Load(); dials != 3 || n != 1 {
		t.Errorf("%d dials and %d releases reached the service; want 3 dials and exactly 1 release", dials, n)
	}
}

// silentListener accepts connections and never answers on them, as a
// server that holds a connection without speaking TLS does.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never read or written
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "https://" + ln.Addr().String()
}

// TestUnansweredRequestsGiveUp: when the address takes requests and never
// answers them (a server that hangs, or a listener that holds connections),
// an idempotent call is sent maxUnanswered times, each waiting out the
// request timeout, and then fails with a *NoAnswerError naming the address,
// instead of being retried until the run's deadline. A release, which may
// have reached the service, is sent once.
func TestUnansweredRequestsGiveUp(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.Copy(io.Discard, r.Body) // so that the server sees the client go
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	cases := []struct {
		name, url string
		counted   bool // requests are counted by the server
	}{
		{"a server that hangs", hang.URL, true},
		{"a listener that holds connections", strings.Replace(silentListener(t), "https://", "http://", 1), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Not parallel: the first case counts the requests its server got.
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second) // far beyond 3 × 100 ms
			defer cancel()
			c, err := New(mustURL(t, tc.url), token, Options{FirstRetry: 5 * time.Millisecond, RequestTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			requests.Store(0)
			_, err = c.ListDocs(ctx, "p")
			var ne *NoAnswerError
			if !errors.As(err, &ne) {
				t.Fatalf("error %v (%T), want a *NoAnswerError", err, err)
			}
			host := strings.TrimPrefix(tc.url, "http://")
			if ne.Attempts != maxUnanswered || ne.Wait != 100*time.Millisecond || !strings.Contains(err.Error(), host) {
				t.Errorf("%v: %d attempts, wait %s; want %d attempts of 100ms, naming %s", err, ne.Attempts, ne.Wait, maxUnanswered, host)
			}
			if tc.counted && requests.Load() != maxUnanswered {
				t.Errorf("the server got %d requests, want %d", requests.Load(), maxUnanswered)
			}
			if !tc.counted {
				return
			}
			requests.Store(0)
			_, err = c.Release(ctx, "17", true)
			if !IsUncertain(err) || requests.Load() != 1 {
				t.Errorf("release: %v after %d requests; want an uncertain error after 1", err, requests.Load())
			}
		})
	}
}

// TestUnreachableFailsFast: when nothing answers at the address, the host is
// unknown, TLS fails, the TLS handshake is never answered, or the
// connection is not answered, the client gives up after a few attempts
// instead of retrying for the whole timeout, says which address failed
// and why, as a typed kind.
func TestUnreachableFailsFast(t *testing.T) {
	t.Parallel()
	closed := closedport.URL(t)
	untrusted := httptest.NewUnstartedServer(http.NotFoundHandler())
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0)
	untrusted.StartTLS()
	t.Cleanup(untrusted.Close)
	// The timeouts of the client docs-publish uses, shortened: the test
	// waits for them four times.
	short := &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 100 * time.Millisecond}).DialContext,
		TLSHandshakeTimeout: 100 * time.Millisecond,
	}}
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	cases := []struct {
		name, url string
		hc        *http.Client
		kind      Unreachable
	}{
		{"connection refused", closed, nil, Refused},
		{"https to a plain http server", strings.Replace(plain.URL, "http://", "https://", 1), nil, PlainHTTP},
		{"unknown host", "https://docs-publish-test.invalid", nil, UnknownHost},
		{"untrusted certificate", untrusted.URL, nil, UntrustedCertificate},
		{"TLS handshake never answered", silentListener(t), short, TLSTimeout},
	}
	if u, ok := unansweredURL(t); ok {
		cases = append(cases, struct {
			name, url string
			hc        *http.Client
			kind      Unreachable
		}{"connection never answered", u, short, ConnectTimeout})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A deadline far beyond the policy's few seconds: only the
			// policy should stop the retries.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, err := New(mustURL(t, tc.url), token, Options{HTTPClient: tc.hc, FirstRetry: 5 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ListDocs(ctx, "p")
			var ue *UnreachableError
			if !errors.As(err, &ue) {
				t.Fatalf("error %v (%T), want an *UnreachableError", err, err)
			}
			if ue.Attempts != unreachableAttempts || ue.Kind != tc.kind || !strings.Contains(err.Error(), strings.TrimPrefix(strings.TrimPrefix(tc.url, "http://"), "https://")) {
				t.Errorf("%v: %d attempts, kind %v; want %d attempts, %v, naming the address", err, ue.Attempts, ue.Kind, unreachableAttempts, tc.kind)
			}
		})
	}
}

// TestUnreachableScheduleIsBounded: how long a run tries a host it cannot
// reach, worked out from the retry schedule (its largest waits, jitter
// included) and from how long each attempt takes to fail, without a clock:
// attempts that fail at once are made four times over a few seconds;
// attempts that wait out the client's connect or TLS timeout are not made
// four times over, and the whole stays under 15 s.
func TestUnreachableScheduleIsBounded(t *testing.T) {
	t.Parallel()
	c, err := New(mustURL(t, "https://docs.example"), token, Options{}) // the run's defaults
	if err != nil {
		t.Fatal(err)
	}
	b := newBackOff(c.opts.FirstRetry)
	// maxWait is the longest the nth wait (from 0) can be.
	maxWait := func(n int) time.Duration {
		d := float64(b.InitialInterval)
		for range n {
			d = min(d*b.Multiplier, float64(b.MaxInterval))
		}
		return time.Duration(d * (1 + b.RandomizationFactor))
	}
	cases := []struct {
		name     string
		each     time.Duration // how long one attempt takes to fail
		attempts int
	}{
		{"refused or unknown host", 0, unreachableAttempts},
		{"a slow refusal", 300 * time.Millisecond, unreachableAttempts},
		{"connection not answered", connectTimeout, 1},
		{"TLS handshake not answered", 50*time.Millisecond + tlsTimeout, 1},
		{"answered late", 3 * time.Second, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var r reachability
			start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			now := start
			for {
				began := now
				now = now.Add(tc.each)
				if r.fail(began, now) {
					break
				}
				now = now.Add(maxWait(r.attempts - 1))
			}
			if total := now.Sub(start); r.attempts != tc.attempts || total >= 15*time.Second {
				t.Errorf("%d attempts over %s at the most; want %d, under 15s", r.attempts, total, tc.attempts)
			}
		})
	}
}

// TestBodyFaultsWaitLikeOtherFaults: a garbled answer is retried by the same
// loop as a failed status, so it waits the backoff before asking again.
func TestBodyFaultsWaitLikeOtherFaults(t *testing.T) {
	t.Parallel()
	srv, arrivals := firstThenJSON(t, garbled, `{"docs":[]}`)
	c, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListDocs(context.Background(), "p"); err != nil {
		t.Fatal(err)
	}
	times := arrivals()
	// The first wait is 200 ms with at most 50% jitter: never under 100 ms.
	if len(times) != 2 || times[1].Sub(times[0]) < 100*time.Millisecond {
		t.Errorf("%d requests, the retry after %v; want 2, at least 100ms apart", len(times), times[len(times)-1].Sub(times[0]))
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		header string
		want   time.Time // zero for none
	}{
		{"7", now.Add(7 * time.Second)},
		{now.Add(90 * time.Second).Format(http.TimeFormat), now.Add(90 * time.Second)},
		{now.Add(-time.Minute).Format(http.TimeFormat), time.Time{}},
		{"soon", time.Time{}},
		{"", time.Time{}},
		{"0", time.Time{}},
		{"-5", time.Time{}},
		{"-99999999999999999999", time.Time{}},
		// Past what a Duration holds: read as a hundred years, not wrapped
		// round to a second, nor to the past.
		{"18446744074", now.Add(maxRetryAfter)},
		{"99999999999999999999999", now.Add(maxRetryAfter)},
		// A date past 2262 is kept as the service gave it.
		{"Fri, 31 Dec 9999 23:59:59 GMT", time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)},
	}
	for _, tc := range cases {
		if got := parseRetryAfter(tc.header, now); !got.Equal(tc.want) {
			t.Errorf("Retry-After %q = %s, want %s", tc.header, got, tc.want)
		}
	}
	b := &retryAfterBackOff{BackOff: backoff.NewConstantBackOff(time.Second)}
	b.setServerDelay(20 * time.Second)
	if got := b.NextBackOff(); got != 20*time.Second {
		t.Errorf("with a server delay of 20s the wait is %s", got)
	}
	if got := b.NextBackOff(); got != time.Second {
		t.Errorf("the server delay applies once; next wait is %s", got)
	}
	capped := capToDeadline{BackOff: backoff.NewConstantBackOff(time.Hour), deadline: now.Add(3 * time.Second), now: func() time.Time { return now }}
	if got := capped.NextBackOff(); got != 3*time.Second {
		t.Errorf("a wait past the deadline is %s, want the 3s left", got)
	}
}

// firstThenJSON is a server that answers its first request with first and
// every later one with body; arrivals returns when each request came.
func firstThenJSON(t *testing.T, first http.HandlerFunc, body string) (srv *httptest.Server, arrivals func() []time.Time) {
	t.Helper()
	var mu sync.Mutex
	var times []time.Time
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		n := len(times)
		mu.Unlock()
		if n == 1 {
			first(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(times)
	}
}

// TestRetryWaitsAsTheServerAsks: a throttled or unavailable answer with
// Retry-After is asked again no sooner than the header says, though the
// client's own backoff would retry within milliseconds.
func TestRetryWaitsAsTheServerAsks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		header func() string
		call   func(*Client) error
	}{
		{"list, 429, delay-seconds", http.StatusTooManyRequests, func() string { return "1" },
			func(c *Client) error { _, err := c.ListDocs(context.Background(), "p"); return err }},
		{"release, 503, HTTP-date", http.StatusServiceUnavailable,
			// A date has whole seconds: two from now is at least one.
			func() string { return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat) },
			func(c *Client) error { _, err := c.Release(context.Background(), "d", true); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, arrivals := firstThenJSON(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", tc.header())
				w.WriteHeader(tc.status)
			}, `{"docs":[],"build":{"id":"b1"}}`)
			var waits []string
			c, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: time.Millisecond, Logf: func(format string, args ...any) {
				waits = append(waits, fmt.Sprintf(format, args...))
			}})
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.call(c); err != nil {
				t.Fatal(err)
			}
			times := arrivals()
			if len(times) != 2 {
				t.Fatalf("%d requests, want 2", len(times))
			}
			if gap := times[1].Sub(times[0]); gap < time.Second {
				t.Errorf("asked again %s after a Retry-After of at least 1s (retries logged: %q)", gap, waits)
			}
		})
	}
}

// TestRetryAfterPastTheDeadlineFailsAtOnce: a Retry-After that ends after
// the run's deadline fails the call at once, saying until when, where the
// client waited out the run's time and then failed all the same.
func TestRetryAfterPastTheDeadlineFailsAtOnce(t *testing.T) {
	t.Parallel()
	srv, arrivals := firstThenJSON(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}, `{"docs":[]}`)
	var waits []string
	c, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: time.Millisecond, Logf: func(format string, args ...any) {
		waits = append(waits, fmt.Sprintf(format, args...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	before := time.Now()
	_, err = c.ListDocs(ctx, "p")
	var te *ThrottledError
	var ae *APIError
	if !errors.As(err, &te) || te.Until.Before(before.Add(3599*time.Second)) || !errors.As(err, &ae) || ae.Status != http.StatusTooManyRequests {
		t.Errorf("error %v, want the service's 429 and a ThrottledError until an hour from now", err)
	}
	if n := len(arrivals()); n != 1 || len(waits) != 0 || ctx.Err() != nil {
		t.Errorf("%d requests, retries logged %q, the run's time ended: %v; want one request, no wait", n, waits, ctx.Err())
	}
}

func TestRedirectToAnotherHostDropsTheToken(t *testing.T) {
	t.Parallel()
	var leaked atomic.Value
	leaked.Store("")
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/zip")
		io.WriteString(w, "PK\x05\x06"+strings.Repeat("\x00", 18))
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+"/blob/1.zip", http.StatusFound)
	}))
	defer api.Close()
	d, err := newClient(t, api.URL).OpenDownload(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if got := leaked.Load().(string); got != "" {
		t.Errorf("the other host received Authorization %q", got)
	}
}

// TestErrorsNeverShowTheToken: the client's errors keep the service's text
// as it was sent; what a sink makes of it never shows the token.
func TestErrorsNeverShowTheToken(t *testing.T) {
	t.Parallel()
	srv, _ := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		io.WriteString(w, "bad header: "+r.Header.Get("Authorization"))
	})
	_, err := newClient(t, srv.URL).ListDocs(context.Background(), "p")
	if err == nil || strings.Contains(redact.New(token).Redact(err.Error()), token) {
		t.Fatalf("error = %v", err)
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 400 {
		t.Fatalf("error is not an *APIError with status 400: %v", err)
	}
}

func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	t.Parallel()
	var reached atomic.Bool
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Store(true) }))
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/blob.zip", http.StatusFound)
	}))
	defer tlsSrv.Close()
	hc := tlsSrv.Client()
	hc.CheckRedirect = checkRedirect
	c, err := New(mustURL(t, tlsSrv.URL), token, Options{HTTPClient: hc, FirstRetry: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.OpenDownload(context.Background(), "1")
	if err == nil || !strings.Contains(err.Error(), "refused a redirect from https") {
		t.Fatalf("error %v", err)
	}
	if reached.Load() {
		t.Error("the http host was contacted")
	}
}

// writeThenFail sends the request for real (so the server acts on it), then
// reports a network error as if the answer had been lost on the way back.
type writeThenFail struct {
	next http.RoundTripper
	err  error
}

func (w writeThenFail) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(r)
	if err == nil {
		resp.Body.Close()
	}
	return nil, w.err
}

// TestWrittenReleaseIsNeverResent: a release that may have reached the
// service is not sent again, whatever the error after it was written, and
// the error says so, also when the run's time ran out meanwhile.
func TestWrittenReleaseIsNeverResent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		err  error
	}{
		{"host unreachable after writing", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.EHOSTUNREACH)}},
		{"connection refused after writing", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNREFUSED)}},
		{"reset after writing", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := faultServer(t)
			hc := &http.Client{Transport: writeThenFail{next: &http.Transport{}, err: tc.err}}
			c, err := New(mustURL(t, srv.URL), token, Options{HTTPClient: hc, FirstRetry: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Release(context.Background(), "1", true)
			if !IsUncertain(err) || calls.Load() != 1 {
				t.Errorf("%d releases, error %v: want exactly 1 and an uncertain error", calls.Load(), err)
			}
		})
	}
	t.Run("time runs out while the answer is awaited", func(t *testing.T) {
		t.Parallel()
		srv, calls := faultServer(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) })
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := newClient(t, srv.URL).Release(ctx, "1", true)
		if !IsUncertain(err) || !errors.Is(err, context.DeadlineExceeded) || calls.Load() != 1 {
			t.Errorf("%d releases, error %v: want 1, uncertain and the deadline", calls.Load(), err)
		}
	})
}

// TestTLSAlertFailsFast: a server that refuses the TLS handshake is not
// retried for the whole timeout.
func TestTLSAlertFailsFast(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.TLS = &tls.Config{GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
		return nil, errors.New("no certificate for you")
	}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	hc := srv.Client()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := New(mustURL(t, srv.URL), token, Options{HTTPClient: hc, FirstRetry: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListDocs(ctx, "p")
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.Kind != TLSFailed {
		t.Errorf("error %v, want an *UnreachableError of kind TLSFailed", err)
	}
}

// TestEscapedTokenNeverShown: the token in an error answer, also where a
// JSON encoder escaped it, is shown in a form the sinks scrub.
func TestEscapedTokenNeverShown(t *testing.T) {
	t.Parallel()
	const tok = "abc/def+ghi=="
	srv, _ := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		io.WriteString(w, `{"error_message":"token abc\/def+ghi== revoked","tracking_id":"abc\u002fdef+ghi=="}`)
	})
	c, err := New(mustURL(t, srv.URL), tok, Options{FirstRetry: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListDocs(context.Background(), "p")
	if err == nil {
		t.Fatal("no error")
	}
	if shown := redact.New(tok).Redact(err.Error()); strings.Contains(shown, tok) || strings.Contains(shown, `abc\/def`) {
		t.Errorf("a sink shows the token: %v", shown)
	}
}

// TestCutTokenIsMarked: a token echoed across the point where a message is
// cut must not leave its first characters behind: the cut is marked, and
// the sinks scrub what is left of the token before the mark.
func TestCutTokenIsMarked(t *testing.T) {
	t.Parallel()
	red := redact.New(token)
	prefix := token[:4]
	for k := maxShownBody - len(token) - 2; k <= maxShownBody+2; k++ {
		pad := strings.Repeat("x", k)
		for _, body := range []string{
			`{"error_message":"` + pad + token + ` and more"}`,
			pad + token + " and more, as plain text",
		} {
			e := newAPIError(400, http.Header{}, []byte(body))
			if shown := red.Redact(e.Error()); strings.Contains(shown, prefix) {
				t.Fatalf("echoed after %d bytes, the message keeps %q: %s", k, prefix, shown)
			}
		}
	}

}

// TestRetryAfterHoldsBackEveryClientOfTheGate: once one client is told to
// wait, another that shares its gate sends nothing to the service before
// the time the server asked for, though it was never throttled itself; a
// client with a gate of its own is not held back.
func TestRetryAfterHoldsBackEveryClientOfTheGate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		shared bool
	}{{"shared gate", true}, {"own gate", false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, arrivals := firstThenJSON(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
			}, `{"docs":[]}`)
			gate := NewGate()
			// The first client logs its retry once it has read the answer.
			throttled := make(chan struct{}, 1)
			first, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: time.Millisecond, Gate: gate,
				Logf: func(string, ...any) { throttled <- struct{}{} }})
			if err != nil {
				t.Fatal(err)
			}
			otherGate := gate
			if !tc.shared {
				otherGate = nil
			}
			second, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: time.Millisecond, Gate: otherGate})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := first.ListDocs(context.Background(), "p"); done <- err }()
			<-throttled
			start := time.Now()
			if _, err := second.ListDocs(context.Background(), "p"); err != nil {
				t.Fatal(err)
			}
			secondTook := time.Since(start)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			times := arrivals()
			if len(times) != 3 {
				t.Fatalf("%d requests, want 3", len(times))
			}
			// The second client's request is the second to arrive.
			gap := times[1].Sub(times[0])
			if tc.shared && gap < 900*time.Millisecond {
				t.Errorf("the other client asked %s after a Retry-After of 1s; want it held back", gap)
			}
			if !tc.shared && secondTook >= 900*time.Millisecond {
				t.Errorf("a client with a gate of its own waited %s for another's Retry-After", secondTook)
			}
		})
	}
}
