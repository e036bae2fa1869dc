package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/githubapi/githubapitest"
)

// TestRequestHeaders: every request names the program (its version when
// given), and one that sends a body says it is JSON; one without does not.
// (A POST asks GraphQL who the token is, too.)
func TestRequestHeaders(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{"docs-publish/1.2.3": "docs-publish/1.2.3", "": "docs-publish"} {
		gh := githubapitest.New(repository, token)
		t.Cleanup(gh.Close)
		target, _ := url.Parse(gh.APIURL())
		type seen struct{ method, path, ua, ctype string }
		var mu sync.Mutex
		var got []seen
		proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got = append(got, seen{r.Method, r.URL.Path, r.Header.Get("User-Agent"), r.Header.Get("Content-Type")})
			mu.Unlock()
			proxy.ServeHTTP(w, r)
		}))
		t.Cleanup(srv.Close)
		c, err := New(srv.URL, token, repository, Options{FirstRetry: time.Millisecond, UserAgent: ua})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.StickyComment(context.Background(), 7, "<!-- m -->", "report", true); err != nil {
			t.Fatal(err)
		}
		posts := 0
		for _, s := range got {
			if s.ua != want {
				t.Errorf("%s with User-Agent %q, want %q", s.method, s.ua, want)
			}
			switch {
			case s.method == http.MethodPost:
				if strings.HasSuffix(s.path, "/comments") {
					posts++
				}
				if s.ctype != "application/json" {
					t.Errorf("a POST with Content-Type %q", s.ctype)
				}
			case s.ctype != "":
				t.Errorf("a %s without a body with Content-Type %q", s.method, s.ctype)
			}
		}
		if posts != 1 {
			t.Errorf("%d POSTs, want the comment posted once", posts)
		}
	}
}

// TestRedirectsFollowedUpToTen follows a chain of nine redirects, as Go's
// client would ten, and refuses the tenth.
func TestRedirectsFollowedUpToTen(t *testing.T) {
	t.Parallel()
	for hops, ok := range map[int]bool{9: true, 10: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("hop"))
			if n < hops {
				q := r.URL.Query()
				q.Set("hop", strconv.Itoa(n+1))
				http.Redirect(w, r, r.URL.Path+"?"+q.Encode(), http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`[]`))
		}))
		t.Cleanup(srv.Close)
		_, err := client(t, srv.URL).findComment(context.Background(), 1, "<!-- m -->", author{login: "me"})
		if ok && err != nil {
			t.Errorf("%d redirects: %v", hops, err)
		}
		if !ok && !errors.Is(err, ErrRedirect) {
			t.Errorf("%d redirects: error %v, want ErrRedirect", hops, err)
		}
	}
}

// TestAnswerErrors: what a failed answer says: GitHub's message when it
// gives one, the rate limit and when it ends, or the status alone.
func TestAnswerErrors(t *testing.T) {
	t.Parallel()
	reset := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		status  int
		headers map[string]string
		body    string
		want    string
	}{
		{"GitHub's message", 404, nil, `{"message":"Not Found"}`, "GitHub answered 404 Not Found: Not Found"},
		{"no message", 404, nil, `<html>`, "GitHub answered 404 Not Found"},
		{"a 403 with requests left", 403, map[string]string{"X-RateLimit-Remaining": "12"}, `{"message":"Resource not accessible by integration"}`,
			"GitHub answered 403 Forbidden: Resource not accessible by integration"},
		{"rate limited, with its end", 403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": fmt.Sprint(reset.Unix())}, `{"message":"API rate limit exceeded"}`,
			"GitHub answered 403 Forbidden: rate limit exceeded until 2026-01-01T00:00:00Z"},
		{"rate limited (429), an end that is no number", 429, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "soon"}, `{}`,
			"GitHub answered 429 Too Many Requests: rate limit exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			t.Cleanup(srv.Close)
			_, err := client(t, srv.URL).findComment(context.Background(), 1, "<!-- m -->", author{login: "me"})
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != tc.status || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
