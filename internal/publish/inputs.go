package publish

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// checkSegment refuses a value that would change the request path: "." and
// ".." segments, control characters, and emptiness.
func checkSegment(input, v string) error {
	if v == "" {
		return &InputError{Input: input, Msg: "is empty"}
	}
	for _, seg := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." || seg == "." {
			return &InputError{Input: input, Msg: fmt.Sprintf("%q has a %q segment, which could address another resource: give the plain name", v, seg)}
		}
	}
	if strings.IndexFunc(v, isControl) >= 0 {
		return &InputError{Input: input, Msg: fmt.Sprintf("%q holds a control character", v)}
	}
	return nil
}

// isControl reports an ASCII control character, which no request path or
// header may hold.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// checkAPIURL allows http only to loopback, so a token never crosses a
// network in the clear.
func checkAPIURL(raw string) (*url.URL, error) {
	u, why := tokenURL(raw, "the service's API address, such as https://api.example.com/v1", "token")
	if why != "" {
		return nil, &InputError{Input: "api-url", Msg: why}
	}
	return u, nil
}

// checkGitHubAPIURL holds GITHUB_API_URL, where github-token is sent, to
// api-url's rule.
func checkGitHubAPIURL(raw string) error {
	if _, why := tokenURL(raw, "GitHub's API address, such as https://api.github.com", "github-token"); why != "" {
		return &EnvError{Var: "GITHUB_API_URL", Msg: why}
	}
	return nil
}

// tokenURL checks an address a token is sent to: a plain http(s) address,
// and http only to loopback, so a token never crosses a network in the
// clear. It says what is wrong and what to do (what the address should be,
// and where the token goes), or "".
func tokenURL(raw, what, tokenInput string) (*url.URL, string) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Sprintf("%q is not an http(s) address: give %s", raw, what)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, "must be a plain address without credentials, query or fragment: the token goes in the " + tokenInput + " input"
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, fmt.Sprintf("%s uses http: the token would travel unencrypted; use https (http is allowed for loopback only)", u.Redacted())
	}
	return u, ""
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// defaultFileName is the local base name with its extension replaced by .yml:
// every OpenAPI file in the service ends in .yml, even with JSON content.
func defaultFileName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base)) + ".yml"
}

func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// defaultCommitMessage names the repository, the short commit SHA and the run.
func (c *Config) defaultCommitMessage(fileName string) string {
	if c.Repository == "" {
		return "Update " + fileName + " with docs-publish"
	}
	msg := fmt.Sprintf("Update %s from %s@%s", fileName, c.Repository, shortSHA(c.SHA))
	if c.ServerURL != "" && c.RunID != "" {
		msg += " (" + strings.TrimRight(c.ServerURL, "/") + "/" + path.Join(c.Repository, "actions/runs", c.RunID) + ")"
	}
	return msg
}
