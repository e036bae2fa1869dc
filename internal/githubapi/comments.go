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
	} `json:"user"`
}

// actionsBot is who the workflow's GITHUB_TOKEN writes as. That token may
// not ask who it is (GET /user answers 403 to it).
const actionsBot = "github-actions[bot]"

// login is who the token writes comments as.
func (c *Client) login(ctx context.Context) (string, error) {
	var user struct {
		Login string `json:"login"`
	}
	_, err := c.getJSON(ctx, request{method: http.MethodGet, path: "user"}, &user)
	var ae *APIError
	switch {
	case errors.As(err, &ae) && ae.Status == http.StatusForbidden:
		return actionsBot, nil
	case err != nil:
		return "", err
	case user.Login == "":
		return actionsBot, nil
	}
	return user.Login, nil
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
	me, err := c.login(ctx)
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
func (c *Client) findComment(ctx context.Context, number int, marker, me string) (*comment, error) {
	page := "1"
	for range maxCommentPages {
		var list []comment
		h, err := c.getJSON(ctx, request{method: http.MethodGet, path: c.repoPath("issues", strconv.Itoa(number), "comments"),
			query: url.Values{"per_page": {"100"}, "page": {page}}}, &list)
		if err != nil {
			return nil, err
		}
		for i := range list {
			if cm := &list[i]; strings.HasPrefix(cm.Body, marker+"\n") && strings.EqualFold(cm.User.Login, me) {
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
