package docsapi

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
)

const token = "s3cr3t-token-value"

func newClient(t *testing.T, base string) *Client {
	t.Helper()
	c, err := New(base, token, Options{FirstRetry: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestIDAcceptsNumbersAndStrings(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`17`, "17"},
		{`"17"`, "17"},
		{`9007199254740993`, "9007199254740993"}, // 2^53+1: a float64 would round it
		{`"b-42"`, "b-42"},
		{`123456789012345678901234567890`, "123456789012345678901234567890"},
		{`null`, ""},
	}
	for _, tc := range cases {
		var out struct{ ID ID }
		if err := json.Unmarshal([]byte(`{"ID":`+tc.in+`}`), &out); err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if string(out.ID) != tc.want {
			t.Errorf("%s read as %q, want %q", tc.in, out.ID, tc.want)
		}
	}
	var bad struct{ ID ID }
	if err := json.Unmarshal([]byte(`{"ID":{"x":1}}`), &bad); err == nil {
		t.Error("an object was accepted as an id")
	}
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
	err := c.UpdateFile(ctx, project, file, FileUpdate{Content: json.RawMessage(`{"openapi":"3.0.0","b":1,"a":2}`), Branch: "version/1.0", CommitMessage: "m"})
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
	if len(docs) != 2 || docs[0].ID != "17" || docs[0].Domain != "docs.example" || docs[1].ID != "x-2" {
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
		{"token echoed", `{"error_message":"token ` + token + ` revoked"}`, "token *** revoked", "", "", token},
		{"long body cut", strings.Repeat("x", 5000), strings.Repeat("x", maxShownBody) + "…", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAPIError(404, http.Header{}, []byte(tc.body), token)
			if e.Message != tc.msg || e.Code != tc.code || e.TrackingID != tc.tracking {
				t.Errorf("got message %q code %q tracking %q", e.Message, e.Code, e.TrackingID)
			}
			if tc.notContains != "" && strings.Contains(e.Error(), tc.notContains) {
				t.Errorf("error shows %q: %s", tc.notContains, e)
			}
			if !strings.HasPrefix(e.Error(), "service answered 404 Not Found") {
				t.Errorf("error does not start with the status: %s", e)
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

func TestReleaseRetriedWhenNothingWasSent(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // connections are refused: the request was never written
	c := newClient(t, "http://"+addr)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = c.Release(ctx, "1", true)
	if err == nil || IsUncertain(err) {
		t.Fatalf("release to a closed port = %v; want a plain failure, never an uncertain one", err)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		header string
		want   time.Duration
	}{
		{"7", 7 * time.Second},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"soon", 0},
		{"", 0},
	}
	for _, tc := range cases {
		if got := parseRetryAfter(tc.header, now); got != tc.want {
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

func TestErrorsNeverShowTheToken(t *testing.T) {
	t.Parallel()
	srv, _ := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		io.WriteString(w, "bad header: "+r.Header.Get("Authorization"))
	})
	_, err := newClient(t, srv.URL).ListDocs(context.Background(), "p")
	if err == nil || strings.Contains(err.Error(), token) {
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
	c, err := New(tlsSrv.URL, token, Options{HTTPClient: hc, FirstRetry: time.Millisecond})
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
