package githubapi

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// CommentAction is what StickyComment did.
type CommentAction int

// What StickyComment can do.
const (
	CommentNone      CommentAction = iota // no comment was there, and none was asked for
	CommentCreated                        // a new comment
	CommentUpdated                        // the comment of an earlier run, rewritten
	CommentUnchanged                      // the comment of an earlier run already says it
)

func (a CommentAction) String() string {
	return [...]string{"none", "created", "updated", "unchanged"}[a]
}

// maxCommentPages bounds the pages of comments read looking for the sticky
// one: 30 pages of 100.
const maxCommentPages = 30

// comment is an issue comment as the API gives it.
type comment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	User    struct {
		Login string `json:"login"`
		Type  string `json:"type"` // "User", "Bot" or "Organization"
	} `json:"user"`
}

// botSuffix ends the login of every GitHub App's bot account
// ("github-actions[bot]", "my-app[bot]"), and no user's: a user's login is
// letters, digits and hyphens.
const botSuffix = "[bot]"

// author is who the token writes comments as.
type author struct {
	// login is the token's login; "" when it could not be learned.
	login string
	// bot: the token is an installation token (the workflow's GITHUB_TOKEN
	// or a GitHub App's), whose comments are by a Bot account.
	bot bool
}

// wrote says whether a wrote cm. A user's token (a personal access token)
// knows its login from GET /user. An installation token writes as a Bot
// account, "<app>[bot]": its comments are ours only when that account is
// the one learned, or, when none could be learned, any Bot account, never
// a user (who cannot have such a login, nor post as a Bot).
func (a author) wrote(cm *comment) bool {
	isBot := cm.User.Type == "Bot" && strings.HasSuffix(cm.User.Login, botSuffix)
	switch {
	case !a.bot:
		return strings.EqualFold(cm.User.Login, a.login)
	case a.login == "":
		return isBot
	}
	return isBot && strings.EqualFold(cm.User.Login, a.login)
}

// whoAmI is who the token writes comments as. GET /user answers 403 to an
// installation token (the workflow's GITHUB_TOKEN, a GitHub App's), which
// GraphQL's viewer names all the same ("github-actions[bot]",
// "my-app[bot]"); when it cannot, the login stays unknown.
func (c *Client) whoAmI(ctx context.Context) (author, error) {
	var user struct {
		Login string `json:"login"`
	}
	_, err := c.getJSON(ctx, request{method: http.MethodGet, path: "user"}, &user)
	switch {
	case err == nil && user.Login != "":
		return author{login: user.Login}, nil
	case err != nil && !IsForbidden(err):
		return author{}, err
	}
	return author{login: c.viewer(ctx), bot: true}, nil
}

// viewer is the login GraphQL's viewer query gives, when it is a bot's,
// else "": an error, or an answer that is not a bot's, teaches nothing.
func (c *Client) viewer(ctx context.Context) string {
	var answer struct {
		Data struct {
			Viewer struct {
				Login string `json:"login"`
			} `json:"viewer"`
		} `json:"data"`
	}
	r := request{method: http.MethodPost, path: c.graphQLPath(), body: map[string]string{"query": "query { viewer { login } }"}, max: 64 << 10}
	if _, err := c.getJSON(ctx, r, &answer); err != nil || !strings.HasSuffix(answer.Data.Viewer.Login, botSuffix) {
		return ""
	}
	return answer.Data.Viewer.Login
}

// graphQLPath is GraphQL's endpoint relative to the REST API's address:
// https://api.github.com/graphql, or a GitHub Enterprise Server's
// /api/graphql beside its /api/v3.
func (c *Client) graphQLPath() string {
	if strings.HasSuffix(c.base.Path, "/api/v3/") {
		return "../graphql"
	}
	return "graphql"
}

// StickyComment keeps one comment on pull request number, found by marker
// (a hidden line that names it, such as an HTML comment): it rewrites the
// comment an earlier run left, and creates one only when create is true
// (so that a pull request without anything to say gets no comment, while
// one that had something to say is told when it no longer has). It returns
// what it did and the comment's address.
//
// The comment's body is scrubbed of the secrets before it is sent. The
// marker, which the program makes of its own words and the description's
// path (never of what a server sent), is left as it is, so that a secret
// that is a short word ("docs") cannot hide the comment from the next run.
// A new
// comment is posted once: when the POST may have taken effect (a 5xx, or
// no answer), the comments are read again, and one the POST made is kept,
// so that a retry never leaves two comments.
func (c *Client) StickyComment(ctx context.Context, number int, marker, body string, create bool) (CommentAction, string, error) {
	body = marker + "\n" + c.secrets.Redact(body)
	me, err := c.whoAmI(ctx)
	if err != nil {
		return CommentNone, "", err
	}
	posted := false // a POST may have made the comment
	for attempt := 1; ; attempt++ {
		existing, err := c.findComment(ctx, number, marker, me)
		if err != nil {
			return CommentNone, "", err
		}
		switch {
		case existing == nil && !create:
			return CommentNone, "", nil
		case existing != nil && existing.Body == body && posted:
			return CommentCreated, existing.HTMLURL, nil
		case existing != nil && existing.Body == body:
			return CommentUnchanged, existing.HTMLURL, nil
		}
		var out comment
		if existing != nil {
			r := request{method: http.MethodPatch, path: c.repoPath("issues", "comments", strconv.FormatInt(existing.ID, 10)), body: map[string]string{"body": body}}
			if _, err := c.getJSON(ctx, r, &out); err != nil {
				return CommentNone, "", err
			}
			if posted {
				return CommentCreated, out.HTMLURL, nil
			}
			return CommentUpdated, out.HTMLURL, nil
		}
		r := request{method: http.MethodPost, path: c.repoPath("issues", strconv.Itoa(number), "comments"), body: map[string]string{"body": body}, once: true}
		_, err = c.getJSON(ctx, r, &out)
		if err == nil {
			return CommentCreated, out.HTMLURL, nil
		}
		posted = posted || mayHaveTakenEffect(err)
		if !mayHaveTakenEffect(err) || attempt == maxPosts {
			return CommentNone, "", err
		}
		select {
		case <-ctx.Done():
			return CommentNone, "", ctx.Err()
		case <-time.After(c.firstRetry << attempt):
		}
	}
}

// maxPosts is how many times a new comment is posted, the comments read
// again between tries.
const maxPosts = 3

// mayHaveTakenEffect says whether a request that failed with err may have
// done what it asked all the same: a 5xx, or no answer at all.
func mayHaveTakenEffect(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && (ae.Status == 0 || ae.Status >= 500) && !errors.Is(err, ErrRedirect) &&
		!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// findComment is the oldest comment that starts with marker and that me
// wrote: a comment someone else wrote, marker or not, is never taken over.
func (c *Client) findComment(ctx context.Context, number int, marker string, me author) (*comment, error) {
	page := "1"
	for range maxCommentPages {
		var list []comment
		h, err := c.getJSON(ctx, request{method: http.MethodGet, path: c.repoPath("issues", strconv.Itoa(number), "comments"),
			query: url.Values{"per_page": {"100"}, "page": {page}}}, &list)
		if err != nil {
			return nil, err
		}
		for i := range list {
			if cm := &list[i]; strings.HasPrefix(cm.Body, marker+"\n") && me.wrote(cm) {
				return cm, nil
			}
		}
		if page = nextPage(h.Get("Link")); page == "" {
			break
		}
	}
	return nil, nil
}

var nextLink = regexp.MustCompile(`<([^>]*)>\s*;\s*rel="next"`)

// nextPage is the page number of a Link header's next page, or "".
func nextPage(link string) string {
	m := nextLink.FindStringSubmatch(link)
	if m == nil {
		return ""
	}
	u, err := url.Parse(m[1])
	if err != nil {
		return ""
	}
	p := u.Query().Get("page")
	if _, err := strconv.Atoi(p); err != nil {
		return ""
	}
	return p
}
