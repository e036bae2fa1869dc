package githubapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/githubapi/githubapitest"
	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
)

const (
	repository = "octo/books"
	token      = "ghs_test_token"
	sha        = "0123456789abcdef0123456789abcdef01234567"
)

func client(t *testing.T, apiURL string) *Client {
	t.Helper()
	c, err := New(apiURL, token, repository, Options{FirstRetry: time.Millisecond, UserAgent: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFiles(t *testing.T) {
	t.Parallel()
	gh := githubapitest.New(repository, token)
	defer gh.Close()
	big := strings.Repeat("x", 3<<20/2) // over the 1 MB the API gives inline
	gh.AddFile(sha, "api/openapi.yaml", "openapi: 3.0.3\n")
	gh.AddFile(sha, "api/my schemas/book #1.yaml", "type: object\n")
	gh.AddFile(sha, "api/big.yaml", big)
	gh.AddLink(sha, "api/secret.yaml")
	files := client(t, gh.APIURL()).Files(context.Background(), sha)

	cases := []struct {
		name, want string
		err        func(error) bool
	}{
		{name: "api/openapi.yaml", want: "openapi: 3.0.3\n"},
		{name: "api/my schemas/book #1.yaml", want: "type: object\n"},
		{name: "api/big.yaml", want: big},
		{name: "api/missing.yaml", err: func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
		{name: "api", err: func(err error) bool { var nr *NotRegularError; return errors.As(err, &nr) && nr.Kind == "folder" }},
		{name: "api/secret.yaml", err: func(err error) bool {
			var nr *NotRegularError
			return errors.As(err, &nr) && nr.Kind == "symbolic link"
		}},
		{name: "../other/repo.yaml", err: func(err error) bool { return errors.Is(err, fs.ErrInvalid) }},
	}
	for _, tc := range cases {
		got, err := fs.ReadFile(files, tc.name)
		switch {
		case tc.err != nil && (err == nil || !tc.err(err)):
			t.Errorf("%s: error %v, content %d bytes", tc.name, err, len(got))
		case tc.err == nil && (err != nil || string(got) != tc.want):
			t.Errorf("%s: %d bytes, %v; want %d bytes", tc.name, len(got), err, len(tc.want))
		}
	}
	var raw, viaRef, commits int
	for _, r := range gh.Requests() {
		if !r.Authorized {
			t.Errorf("%s %s without the token", r.Method, r.Path)
		}
		if strings.Contains(r.RawQuery, "ref="+sha) {
			viaRef++
		}
		if strings.Contains(r.Path, "/git/commits/") {
			commits++
		}
		if r.Accept == "application/vnd.github.raw+json" {
			raw++
			if r.Path != "/repos/octo/books/contents/api/big.yaml" {
				t.Errorf("raw fetch of %s, which came inline", r.Path)
			}
		}
	}
	if raw != 1 || commits != 1 || viaRef+commits != len(gh.Requests()) {
		t.Errorf("%d raw fetches (want 1), %d checks of the commit (want 1), %d of %d requests at the commit", raw, commits, viaRef, len(gh.Requests()))
	}

	// A commit the repository does not hold is no new description.
	gone := client(t, gh.APIURL()).Files(context.Background(), strings.Repeat("9", 40))
	if _, err := fs.ReadFile(gone, "api/openapi.yaml"); !errors.Is(err, ErrNoCommit) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a commit that does not exist: %v, want ErrNoCommit", err)
	}
}

func TestFilesAreBounded(t *testing.T) {
	t.Parallel()
	gh := githubapitest.New(repository, token)
	defer gh.Close()
	gh.AddFile(sha, "a.yaml", "a: 1\n")
	gh.AddFile(sha, "big.yaml", strings.Repeat("y", 2<<20))
	files := client(t, gh.APIURL()).Files(context.Background(), sha)
	files.MaxFiles, files.MaxFileBytes = 3, 1<<20
	// A file over the size limit opens with its size, for the loader to
	// refuse, and no more of it is fetched than the limit.
	f, err := files.Open("big.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stat(); st.Size() <= files.MaxFileBytes {
		t.Errorf("a file over the limit says it is %d bytes", st.Size())
	}
	for i := 0; i < 2; i++ {
		if _, err := fs.ReadFile(files, "a.yaml"); err != nil {
			t.Fatal(err)
		}
	}
	before := len(gh.Requests())
	var tm *TooManyFilesError
	if _, err := files.Open("a.yaml"); !errors.As(err, &tm) {
		t.Errorf("a fourth file: %v, want TooManyFilesError", err)
	}
	if len(gh.Requests()) != before {
		t.Error("a file past the limit was fetched")
	}
}

func TestTokenGoesToTheAPIHostOnly(t *testing.T) {
	t.Parallel()
	var leaked atomic.Bool
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		w.Write([]byte("openapi: 3.0.3\n"))
	}))
	defer elsewhere.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/raw", http.StatusFound)
	}))
	defer api.Close()
	// Both listen on 127.0.0.1: name the API by another loopback name, so
	// the hosts differ as they do on GitHub.
	apiURL := strings.Replace(api.URL, "127.0.0.1", "localhost", 1)
	files := client(t, apiURL).Files(context.Background(), sha)
	files.raw("api/openapi.yaml")
	if leaked.Load() {
		t.Error("the token was sent to another host on a redirect")
	}
}

func TestRetriesServerErrorsOnly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		statuses []int
		attempts int32
		ok       bool
	}{
		{"a 502, then success", []int{502, 200}, 2, true},
		{"three 500s", []int{500, 500, 500, 500}, 3, false},
		{"a 403 is final", []int{403, 200}, 1, false},
		{"a 404 is final", []int{404, 200}, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				i := n.Add(1) - 1
				st := tc.statuses[min(int(i), len(tc.statuses)-1)]
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(st)
				if st == 200 {
					w.Write([]byte(`[]`))
				} else {
					w.Write([]byte(`{"message":"nope"}`))
				}
			}))
			defer srv.Close()
			_, err := client(t, srv.URL).findComment(context.Background(), 1, "<!-- m -->", author{login: "me"})
			if (err == nil) != tc.ok || n.Load() != tc.attempts {
				t.Errorf("err %v after %d attempts; want ok %v after %d", err, n.Load(), tc.ok, tc.attempts)
			}
		})
	}
}

func TestStickyComment(t *testing.T) {
	t.Parallel()
	const marker = "<!-- docs-publish api-changes: api/openapi.yaml -->"
	gh := githubapi(t)
	c := client(t, gh.APIURL())
	ctx := context.Background()

	// Nothing to say and nothing said before: no comment.
	if act, _, err := c.StickyComment(ctx, 7, marker, "no API changes", false); err != nil || act != CommentNone {
		t.Fatalf("first run without changes: %v, %v", act, err)
	}
	// A person's comment that quotes the marker, and another description's.
	gh.AddComment(githubapitest.Comment{Number: 7, Body: "> " + marker + "\nwhat is this?", Login: "octocat"})
	gh.AddComment(githubapitest.Comment{Number: 7, Body: "<!-- docs-publish api-changes: other.yaml -->\nx", Login: "github-actions[bot]"})
	if act, _, err := c.StickyComment(ctx, 7, marker, "1 breaking change", true); err != nil || act != CommentCreated {
		t.Fatalf("first run with changes: %v, %v", act, err)
	}
	if act, _, err := c.StickyComment(ctx, 7, marker, "2 breaking changes", true); err != nil || act != CommentUpdated {
		t.Fatalf("second run: %v, %v", act, err)
	}
	if act, _, err := c.StickyComment(ctx, 7, marker, "2 breaking changes", true); err != nil || act != CommentUnchanged {
		t.Fatalf("third run, same report: %v, %v", act, err)
	}
	if act, _, err := c.StickyComment(ctx, 7, marker, "no API changes", false); err != nil || act != CommentUpdated {
		t.Fatalf("a run whose changes went away: %v, %v", act, err)
	}
	var ours []githubapitest.Comment
	for _, cm := range gh.Comments() {
		if strings.HasPrefix(cm.Body, marker+"\n") {
			ours = append(ours, cm)
		}
	}
	if len(ours) != 1 || ours[0].Body != marker+"\nno API changes" {
		t.Errorf("comments with the marker: %+v", ours)
	}
	if n := len(gh.Comments()); n != 3 {
		t.Errorf("%d comments on the pull request, want 3", n)
	}
}

func githubapi(t *testing.T) *githubapitest.Server {
	t.Helper()
	gh := githubapitest.New(repository, token)
	t.Cleanup(gh.Close)
	return gh
}

func TestStickyCommentFoundPastTheFirstPage(t *testing.T) {
	t.Parallel()
	const marker = "<!-- m -->"
	gh := githubapi(t)
	gh.PerPage = 2
	for i := 0; i < 5; i++ {
		gh.AddComment(githubapitest.Comment{Number: 3, Body: "chatter", Login: "octocat"})
	}
	id := gh.AddComment(githubapitest.Comment{Number: 3, Body: marker + "\nold", Login: "github-actions[bot]"})
	act, _, err := client(t, gh.APIURL()).StickyComment(context.Background(), 3, marker, "new", false)
	if err != nil || act != CommentUpdated {
		t.Fatalf("%v, %v", act, err)
	}
	for _, cm := range gh.Comments() {
		if cm.ID == id && cm.Body != marker+"\nnew" {
			t.Errorf("the comment on page 3 says %q", cm.Body)
		}
	}
}

func TestCommentRefused(t *testing.T) {
	t.Parallel()
	gh := githubapi(t)
	gh.DenyWrite = true
	_, _, err := client(t, gh.APIURL()).StickyComment(context.Background(), 7, "<!-- m -->", "x", true)
	if !IsForbidden(err) {
		t.Errorf("err %v, want one IsForbidden knows", err)
	}
	bad, _ := New(gh.APIURL(), "wrong", repository, Options{FirstRetry: time.Millisecond})
	_, _, err = bad.StickyComment(context.Background(), 7, "<!-- m -->", "x", true)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized || IsForbidden(err) {
		t.Errorf("a wrong token: %v", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Errorf("the error shows the token: %v", err)
	}
}

func TestNewRefusesBadArguments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ api, repo string }{
		{"https://api.github.com", "no-slash"},
		{"https://api.github.com", "a/b/c"},
		{"https://api.github.com", "/b"},
		{"ftp://example.com", "a/b"},
		{"", "a/b"},
	} {
		if _, err := New(tc.api, token, tc.repo, Options{}); err == nil {
			t.Errorf("New(%q, %q) accepted", tc.api, tc.repo)
		}
	}
}

// TestStickyCommentIsOnlyOurs: a comment someone else wrote is never taken
// over, even one that starts with the marker; the token's own is found,
// whether it writes as github-actions[bot] (GITHUB_TOKEN, which may not
// ask who it is) or as a user (a personal token).
func TestStickyCommentIsOnlyOurs(t *testing.T) {
	t.Parallel()
	const marker = "<!-- m -->"
	for _, login := range []string{"", "release-bot"} {
		t.Run("as "+login, func(t *testing.T) {
			t.Parallel()
			gh := githubapi(t)
			gh.UserLogin = login
			planted := gh.AddComment(githubapitest.Comment{Number: 5, Body: marker + "\nplanted by someone", Login: "stranger"})
			c := client(t, gh.APIURL())
			act, _, err := c.StickyComment(context.Background(), 5, marker, "report", true)
			if err != nil || act != CommentCreated {
				t.Fatalf("%v, %v: want a comment of our own", act, err)
			}
			if act, _, err = c.StickyComment(context.Background(), 5, marker, "report 2", true); err != nil || act != CommentUpdated {
				t.Fatalf("second run: %v, %v", act, err)
			}
			for _, cm := range gh.Comments() {
				if cm.ID == planted && cm.Body != marker+"\nplanted by someone" {
					t.Errorf("someone else's comment was rewritten: %q", cm.Body)
				}
				if cm.ID != planted && (cm.Login != gh.Me() || cm.Body != marker+"\nreport 2") {
					t.Errorf("our comment: %+v", cm)
				}
			}
			if n := len(gh.Comments()); n != 2 {
				t.Errorf("%d comments, want 2", n)
			}
		})
	}
}

// TestNoTokenOverPlainHTTP: GitHub's API on https redirecting to http on
// the same host (default ports, as GITHUB_API_URL=https://host would be)
// is refused with a clear error, and nothing reaches the http listener.
func TestNoTokenOverPlainHTTP(t *testing.T) {
	t.Parallel()
	var plainHits, plainTokens atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		if r.Header.Get("Authorization") != "" {
			plainTokens.Add(1)
		}
		w.Write([]byte(`[]`))
	}))
	defer plain.Close()
	api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.com"+r.URL.RequestURI(), http.StatusMovedPermanently)
	}))
	defer api.Close()
	// example.com on 443 is the TLS server, on 80 the plain one: one host,
	// as the redirect of a real API to http would be.
	tr := api.Client().Transport.(*http.Transport).Clone()
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		switch addr {
		case "example.com:443":
			addr = api.Listener.Addr().String()
		case "example.com:80":
			addr = plain.Listener.Addr().String()
		}
		return d.DialContext(ctx, network, addr)
	}
	c, err := New("https://example.com", token, repository, Options{HTTPClient: &http.Client{Transport: tr}, FirstRetry: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.findComment(context.Background(), 1, "<!-- m -->", author{login: "me"})
	if !errors.Is(err, ErrRedirect) || !strings.Contains(err.Error(), "not https") {
		t.Errorf("error %v, want a refused redirect", err)
	}
	if plainTokens.Load() > 0 || plainHits.Load() > 0 {
		t.Errorf("%d requests reached the http listener, %d with the token", plainHits.Load(), plainTokens.Load())
	}
}

// TestCommentPostedOnce: GitHub creates the comment and then answers 502
// (or the answer is lost): the client looks for the comment again rather
// than posting a second one.
func TestCommentPostedOnce(t *testing.T) {
	t.Parallel()
	const marker = "<!-- docs-publish api-changes: api/openapi.yaml -->"
	for _, fault := range []string{"502", "cut off"} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			gh := githubapi(t)
			var posts atomic.Int32
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/comments") {
					gh.Config.Handler.ServeHTTP(w, r)
					return
				}
				posts.Add(1)
				gh.Config.Handler.ServeHTTP(httptest.NewRecorder(), r) // the comment is made
				if fault == "502" {
					http.Error(w, `{"message":"Server Error"}`, http.StatusBadGateway)
					return
				}
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
			}))
			defer front.Close()
			act, _, err := client(t, front.URL).StickyComment(context.Background(), 7, marker, "1 breaking change", true)
			if err != nil || act != CommentCreated {
				t.Errorf("StickyComment = %v, %v; want created", act, err)
			}
			if n := len(gh.Comments()); n != 1 || posts.Load() != 1 {
				t.Errorf("%d comments after %d posts, want 1 after 1", n, posts.Load())
			}
		})
	}
}

// TestCommentIsScrubbed: a comment is a sink: the secrets are scrubbed
// from its body before it is sent, in every form.
func TestCommentIsScrubbed(t *testing.T) {
	t.Parallel()
	gh := githubapi(t)
	c, err := New(gh.APIURL(), token, repository, Options{FirstRetry: time.Millisecond, Secrets: redact.New("dp-docs-token-42")})
	if err != nil {
		t.Fatal(err)
	}
	// As written, Markdown-escaped, and as a server escapes it: JSON's \u,
	// HTML's references, a URL's percent-encoding, mixed.
	body := "not compared: GitHub answered 500: Bearer dp-docs-token-42 and " + report.EscapeMarkdown("dp-docs-token-42") +
		report.EscapeMarkdown(` {"m":"\u0064p-\u0044ocs-t&#111;ken%2D42"}`)
	if _, _, err := c.StickyComment(context.Background(), 7, "<!-- m -->", body, true); err != nil {
		t.Fatal(err)
	}
	for _, cm := range gh.Comments() {
		if strings.Contains(cm.Body, "docs-token") || strings.Contains(cm.Body, "ocs") || !strings.Contains(cm.Body, "Bearer ***") {
			t.Errorf("the comment reads %q", cm.Body)
		}
	}
}

// TestShortSecretKeepsTheMarker: a secret that is a word of the marker
// ("docs" of docs-publish) is scrubbed from the body, never from the
// marker, so that the next run finds the comment and rewrites it.
func TestShortSecretKeepsTheMarker(t *testing.T) {
	t.Parallel()
	const marker = "<!-- docs-publish api-changes: api/openapi.yaml -->"
	gh := githubapi(t)
	c, err := New(gh.APIURL(), token, repository, Options{FirstRetry: time.Millisecond, Secrets: redact.New("docs")})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []CommentAction{CommentCreated, CommentUpdated} {
		if act, _, err := c.StickyComment(context.Background(), 7, marker, fmt.Sprintf("%d: see the docs", i), true); err != nil || act != want {
			t.Fatalf("run %d: %v, %v; want %v", i+1, act, err, want)
		}
	}
	if cms := gh.Comments(); len(cms) != 1 || cms[0].Body != marker+"\n1: see the ***" {
		t.Errorf("comments: %+v", cms)
	}
}

// TestStickyCommentAsAnApp: with a GitHub App's installation token, which
// GET /user answers 403 and whose comments are by "<slug>[bot]", three runs
// keep one comment, rewritten; a marked comment a person or another bot
// wrote is never rewritten. Without GraphQL's viewer (nothing learned), a
// marked comment by a Bot account is taken, never one by a user.
func TestStickyCommentAsAnApp(t *testing.T) {
	t.Parallel()
	const marker = "<!-- docs-publish api-changes: api/openapi.yaml -->"
	person := githubapitest.Comment{Number: 5, Body: marker + "\nplanted by a person", Login: "octocat"}
	// No user can have such a login; should one, its type still tells.
	posing := githubapitest.Comment{Number: 5, Body: marker + "\nplanted by a user posing", Login: "my-app[bot]", Type: "User"}
	otherApp := githubapitest.Comment{Number: 5, Body: marker + "\nplanted by another app", Login: "other-app[bot]"}
	actions := githubapitest.Comment{Number: 5, Body: marker + "\nleft with GITHUB_TOKEN", Login: "github-actions[bot]"}
	for _, tc := range []struct {
		name     string
		app      string
		noViewer bool
		planted  []githubapitest.Comment
	}{
		{name: "app token", app: "my-app[bot]", planted: []githubapitest.Comment{person, posing, otherApp, actions}},
		{name: "app token, viewer unknown", app: "my-app[bot]", noViewer: true, planted: []githubapitest.Comment{person, posing}},
		{name: "GITHUB_TOKEN", planted: []githubapitest.Comment{person, otherApp}},
		{name: "GITHUB_TOKEN, viewer unknown", noViewer: true, planted: []githubapitest.Comment{person}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gh := githubapi(t)
			gh.AppLogin, gh.NoViewer = tc.app, tc.noViewer
			planted := map[int64]string{}
			for _, cm := range tc.planted {
				planted[gh.AddComment(cm)] = cm.Body
			}
			for i, want := range []CommentAction{CommentCreated, CommentUpdated, CommentUpdated} {
				c := client(t, gh.APIURL()) // a client per run, as the action makes
				if act, _, err := c.StickyComment(context.Background(), 5, marker, fmt.Sprintf("run %d", i+1), true); err != nil || act != want {
					t.Fatalf("run %d: %v, %v; want %v", i+1, act, err, want)
				}
			}
			var ours []githubapitest.Comment
			for _, cm := range gh.Comments() {
				if body, ok := planted[cm.ID]; ok && cm.Body != body {
					t.Errorf("%s's comment was rewritten: %q", cm.Login, cm.Body)
				} else if !ok {
					ours = append(ours, cm)
				}
			}
			if len(ours) != 1 || ours[0].Login != gh.Me() || ours[0].Body != marker+"\nrun 3" {
				t.Errorf("our comments: %+v; want one by %s saying run 3", ours, gh.Me())
			}
		})
	}
}

// TestGraphQLAddress: GraphQL is beside the REST API, which a GitHub
// Enterprise Server serves at /api/v3 and GraphQL at /api/graphql.
func TestGraphQLAddress(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]string{
		"https://api.github.com":       "https://api.github.com/graphql",
		"https://ghe.example/api/v3":   "https://ghe.example/api/graphql",
		"https://ghe.example/api/v3/":  "https://ghe.example/api/graphql",
		"http://127.0.0.1:8080":        "http://127.0.0.1:8080/graphql",
		"https://proxy.example/github": "https://proxy.example/github/graphql",
	} {
		c := client(t, api)
		rel, err := url.Parse(c.graphQLPath())
		if err != nil {
			t.Fatal(err)
		}
		if got := c.base.ResolveReference(rel).String(); got != want {
			t.Errorf("GraphQL for %s at %s, want %s", api, got, want)
		}
	}
}
