package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The request log: a line per request on Config.Log, for a person watching
// a workflow or a script talk to the emulator.

// secretQueryNames are parts of query parameter names whose values the log
// does not show.
var secretQueryNames = []string{"token", "secret", "password", "passwd", "key", "auth", "sig", "credential", "session"}

// logRequest writes "METHOD /path?query STATUS DURATION": the token never
// (nor a query value that looks like a secret).
func (s *Server) logRequest(r *http.Request, status int, took time.Duration) {
	if s.cfg.Log == nil {
		return
	}
	target := r.URL.EscapedPath()
	if q := redactQuery(r.URL.RawQuery, s.cfg.Token); q != "" {
		target += "?" + q
	}
	code := fmt.Sprint(status)
	switch status {
	case 0, -1:
		code = "no-answer"
	}
	s.logLine(fmt.Sprintf("%s %s %s %s\n", r.Method, target, code, took.Round(10*time.Microsecond)))
}

// logLine writes a line of the request log, without the token.
func (s *Server) logLine(line string) {
	if s.cfg.Log == nil {
		return
	}
	if s.cfg.Token != "" {
		line = strings.ReplaceAll(line, s.cfg.Token, "REDACTED")
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprint(s.cfg.Log, line)
}

// redactQuery replaces the values of secret-looking parameters, and any
// value that is the token, keeping the query's order.
func redactQuery(raw, token string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		name, value, _ := strings.Cut(p, "=")
		n, _ := url.QueryUnescape(name)
		v, _ := url.QueryUnescape(value)
		if isSecretName(n) || (token != "" && v == token) {
			parts[i] = name + "=REDACTED"
		}
	}
	return strings.Join(parts, "&")
}

func isSecretName(name string) bool {
	name = strings.ToLower(name)
	for _, s := range secretQueryNames {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}
