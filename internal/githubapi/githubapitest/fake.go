// Package githubapitest is a stand-in for GitHub's REST API on a loopback
// port, for tests: a repository's files at commits, and the comments of its
// pull requests, with every request recorded.
package githubapitest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Comment is a comment on a pull request.
type Comment struct {
	ID     int64
	Number int // the pull request's
	Body   string
	Login  string // who wrote it; the fake's own writes are Me's
	// Type is the author's account type, "User" or "Bot"; "" means "Bot"
	// for a login that ends in "[bot]" and "User" for any other, as on
	// GitHub.
	Type string
}

// Request is what the fake saw of one request.
type Request struct {
	Method, Path, RawQuery, Accept string
	Authorized                     bool
}

// Server is the fake API. Repository is the only repository it serves
// ("owner/name"); Token the only token it accepts.
type Server struct {
	*httptest.Server
	Repository string
	Token      string
	// DenyWrite answers comment writes 403, as for a token without
	// pull-requests: write (a fork's pull request).
	DenyWrite bool
	// PerPage is the page size of comment lists; zero means the client's.
	PerPage int
	// UserLogin is who GET /user says the token is; "" answers 403, as
	// GitHub does to the workflow's GITHUB_TOKEN, which writes as
	// github-actions[bot].
	UserLogin string
	// AppLogin, when UserLogin is "", makes the token a GitHub App's
	// installation token that writes as AppLogin ("my-app[bot]"): GET /user
	// answers it 403 too.
	AppLogin string
	// NoViewer answers GraphQL's viewer query with an error, so that the
	// token's login cannot be learned at all.
	NoViewer bool

	mu       sync.Mutex
	files    map[string]map[string]string // sha → path → content
	links    map[string]map[string]bool   // sha → path → a symbolic link
	comments []Comment
	nextID   int64
	requests []Request
}

// New starts a fake for repository that accepts token.
func New(repository, token string) *Server {
	s := &Server{Repository: repository, Token: token, files: map[string]map[string]string{},
		links: map[string]map[string]bool{}, nextID: 100}
	mux := http.NewServeMux()
	prefix := "/repos/" + repository
	mux.HandleFunc("GET "+prefix+"/contents/{path...}", s.contents)
	mux.HandleFunc("GET "+prefix+"/git/commits/{sha}", s.commit)
	mux.HandleFunc("GET /user", s.user)
	mux.HandleFunc("POST /graphql", s.graphql)
	mux.HandleFunc("GET "+prefix+"/issues/{number}/comments", s.listComments)
	mux.HandleFunc("POST "+prefix+"/issues/{number}/comments", s.createComment)
	mux.HandleFunc("PATCH "+prefix+"/issues/comments/{id}", s.updateComment)
	s.Server = httptest.NewServer(s.record(mux))
	return s
}

// AddFile puts a file in commit sha.
func (s *Server) AddFile(sha, path, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files[sha] == nil {
		s.files[sha] = map[string]string{}
	}
	s.files[sha][path] = content
}

// AddLink puts a symbolic link in commit sha, which the contents API
// describes rather than follows when it leads out of the repository.
func (s *Server) AddLink(sha, path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.links[sha] == nil {
		s.links[sha] = map[string]bool{}
	}
	s.links[sha][path] = true
}

// AddComment puts a comment on pull request number, as an earlier run or a
// person left it.
func (s *Server) AddComment(c Comment) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	c.ID = s.nextID
	s.comments = append(s.comments, c)
	return c.ID
}

// Comments are the comments now, oldest first.
func (s *Server) Comments() []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.comments)
}

// Requests are the requests seen, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// APIURL is the address to give as GITHUB_API_URL.
func (s *Server) APIURL() string { return s.URL }

func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok := r.Header.Get("Authorization") == "Bearer "+s.Token
		s.mu.Lock()
		s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
			Accept: r.Header.Get("Accept"), Authorized: ok})
		s.mu.Unlock()
		if !ok {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// inlineMax is the largest file the contents API gives inline (1 MB).
const inlineMax = 1 << 20

func (s *Server) contents(w http.ResponseWriter, r *http.Request) {
	p, sha := r.PathValue("path"), r.URL.Query().Get("ref")
	s.mu.Lock()
	files, link := s.files[sha], s.links[sha][p]
	content, isFile := files[p]
	var inDir []string
	for name := range files {
		if strings.HasPrefix(name, p+"/") {
			inDir = append(inDir, name)
		}
	}
	s.mu.Unlock()
	switch {
	case link:
		writeJSON(w, http.StatusOK, map[string]any{"type": "symlink", "path": p, "target": "/etc/passwd", "size": 11})
	case isFile && r.Header.Get("Accept") == "application/vnd.github.raw+json":
		w.Header().Set("Content-Type", "application/vnd.github.raw+json")
		io.WriteString(w, content)
	case isFile && len(content) > inlineMax:
		writeJSON(w, http.StatusOK, map[string]any{"type": "file", "path": p, "size": len(content), "encoding": "none", "content": ""})
	case isFile:
		writeJSON(w, http.StatusOK, map[string]any{"type": "file", "path": p, "size": len(content), "encoding": "base64",
			"content": base64.StdEncoding.EncodeToString([]byte(content))})
	case len(inDir) > 0:
		var list []map[string]any
		for _, name := range inDir {
			list = append(list, map[string]any{"type": "file", "path": name})
		}
		writeJSON(w, http.StatusOK, list)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	}
}

// Me is who the fake's comment writes are by.
func (s *Server) Me() string {
	switch {
	case s.UserLogin != "":
		return s.UserLogin
	case s.AppLogin != "":
		return s.AppLogin
	}
	return "github-actions[bot]"
}

// graphql answers the viewer query, as GitHub does to any token (an
// installation token too), with Me; NoViewer answers it an error.
func (s *Server) graphql(w http.ResponseWriter, r *http.Request) {
	var req struct{ Query string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !strings.Contains(req.Query, "viewer") {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if s.NoViewer {
		writeJSON(w, http.StatusOK, map[string]any{"data": nil,
			"errors": []map[string]string{{"type": "FORBIDDEN", "message": "Resource not accessible by integration"}}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"viewer": map[string]string{"login": s.Me()}}})
}

func (s *Server) user(w http.ResponseWriter, r *http.Request) {
	if s.UserLogin == "" {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"login": s.UserLogin})
}

// commit answers for a commit that holds files or links, and 404 for any
// other, as GitHub does for a commit it does not have.
func (s *Server) commit(w http.ResponseWriter, r *http.Request) {
	sha := r.PathValue("sha")
	s.mu.Lock()
	_, files := s.files[sha]
	_, links := s.links[sha]
	s.mu.Unlock()
	if !files && !links {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"sha": sha})
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.PathValue("number"))
	per := s.PerPage
	if per == 0 {
		per, _ = strconv.Atoi(r.URL.Query().Get("per_page"))
	}
	if per <= 0 {
		per = 30
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	s.mu.Lock()
	var mine []Comment
	for _, c := range s.comments {
		if c.Number == n {
			mine = append(mine, c)
		}
	}
	s.mu.Unlock()
	lo, hi := min((page-1)*per, len(mine)), min(page*per, len(mine))
	if hi < len(mine) {
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?per_page=%d&page=%d>; rel="next"`, s.URL, r.URL.Path, per, page+1))
	}
	out := []map[string]any{}
	for _, c := range mine[lo:hi] {
		out = append(out, commentJSON(c))
	}
	writeJSON(w, http.StatusOK, out)
}

func commentJSON(c Comment) map[string]any {
	return map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.Login, "type": cmp.Or(c.Type, userType(c.Login))},
		"html_url": fmt.Sprintf("https://github.example/pull/%d#issuecomment-%d", c.Number, c.ID)}
}

// commentBody reads a comment's body from a write, or answers it as GitHub
// would: refused (DenyWrite) or unreadable.
func (s *Server) commentBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	if s.DenyWrite {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
		return "", false
	}
	var req struct{ Body string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": err.Error()})
		return "", false
	}
	return req.Body, true
}

func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	body, ok := s.commentBody(w, r)
	if !ok {
		return
	}
	n, _ := strconv.Atoi(r.PathValue("number"))
	c := Comment{Number: n, Body: body, Login: s.Me()}
	c.ID = s.AddComment(c)
	writeJSON(w, http.StatusCreated, commentJSON(c))
}

func (s *Server) updateComment(w http.ResponseWriter, r *http.Request) {
	body, ok := s.commentBody(w, r)
	if !ok {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.comments {
		if c.ID == id {
			s.comments[i].Body = body
			writeJSON(w, http.StatusOK, commentJSON(s.comments[i]))
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

func userType(login string) string {
	if strings.HasSuffix(login, "[bot]") {
		return "Bot"
	}
	return "User"
}
