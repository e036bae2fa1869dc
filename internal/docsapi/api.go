package docsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FileUpdate is a file update.
type FileUpdate struct {
	// Content is the description itself as one JSON value, written as it
	// is into the body's content member: the service embeds it as JSON,
	// never as a string. It is read from its start each time the request
	// is sent, so a large description is streamed from its file, never
	// held in memory.
	Content Content
	Branch  string
	// CommitMessage is recorded with the update.
	CommitMessage string
}

// Content is JSON that can be read again from its start: a *bytes.Reader,
// or a file as an *io.SectionReader.
type Content interface {
	io.ReaderAt
	Size() int64
}

// UpdateFile writes a file in a project on a branch (PUT /projects/<id>/files/<name>).
// The same body may be sent twice without harm, so it is retried. The answer
// is not described by the interface: any success is taken, with or without
// a body, unless it is a web page.
func (c *Client) UpdateFile(ctx context.Context, projectID, fileName string, f FileUpdate) error {
	if f.Content == nil {
		return errors.New("update file: no content")
	}
	// The body is {"content":<the description>,"branch":…,"commit_message":…},
	// its content streamed between a head and a tail written here.
	head := []byte(`{"content":`)
	tail, err := json.Marshal(struct {
		Branch        string `json:"branch"`
		CommitMessage string `json:"commit_message"`
	}{f.Branch, f.CommitMessage})
	if err != nil {
		return fmt.Errorf("encode body: %w", err)
	}
	tail[0] = ','
	body := &streamBody{head: head, content: f.Content, tail: tail}
	_, _, err = c.call(ctx, &request{
		method:     "PUT",
		path:       "/projects/" + segment(projectID) + "/files/" + segment(fileName),
		stream:     body,
		accept:     "application/json",
		idempotent: true,
		decode: func(a answer) error {
			// Nothing of the answer is needed. A web page means the request
			// did not reach the API; any other success is taken.
			if isHTML(a) {
				return htmlError(a)
			}
			return nil
		},
	}, c.opts.RequestTimeout)
	return err
}

// Doc is one documentation domain of a project. Only ID is promised by the
// interface; the rest is filled when the service sends something usable.
type Doc struct {
	// ID is the doc's id as the service wrote it, or "" when IDErr says
	// why it cannot be used.
	ID    ID
	IDErr error // an *IDError
	// Domain is the doc's host name, when the service names one.
	Domain string
	// URL is where the doc is read: https://<domain>/, or the URL the
	// service gives.
	URL string
	// Name is the doc's name, when it has no domain.
	Name string
}

// ListDocs lists a project's docs (GET /docs.list?projectId=).
func (c *Client) ListDocs(ctx context.Context, projectID string) ([]Doc, error) {
	var docs []Doc
	_, _, err := c.call(ctx, &request{
		method:     "GET",
		path:       "/docs.list",
		query:      url.Values{"projectId": {projectID}},
		accept:     "application/json",
		idempotent: true,
		decode: func(a answer) (err error) {
			if err := jsonAnswer(a); err != nil {
				return err
			}
			docs, err = parseDocs(a.body, a.shown)
			return err
		},
	}, c.opts.RequestTimeout)
	return docs, err
}

// jsonAnswer checks that a success answer holds JSON: a web page is a
// clear error, an empty or garbled body a passing fault.
func jsonAnswer(a answer) error {
	switch {
	case isHTML(a):
		return htmlError(a)
	case len(a.body) == 0:
		return &bodyFault{fmt.Errorf("service answered %d with an empty body where JSON was expected", a.status)}
	case !json.Valid(a.body):
		return &bodyFault{fmt.Errorf("service answered with a body that is not JSON: %s", a.shown)}
	}
	return nil
}

// Build is a build as the release answer describes it. Only ID is promised;
// DocID and Status are filled when the service sends them as text.
type Build struct {
	ID     ID
	DocID  ID
	Status string
}

// Release starts a build under a doc (POST /docs.release?id=). setLive is
// always sent: the service's default when it is absent is not documented.
//
// A release is not idempotent: a second POST may start a second build. It is
// sent again only when the first provably was not processed; otherwise the
// error is an *UncertainError.
func (c *Client) Release(ctx context.Context, docID ID, setLive bool) (Build, error) {
	body, _ := json.Marshal(struct {
		SetLive bool `json:"setLive"`
	}{setLive})
	var b Build
	_, _, err := c.call(ctx, &request{
		method: "POST",
		path:   "/docs.release",
		query:  url.Values{"id": {string(docID)}},
		body:   body,
		accept: "application/json",
		decode: func(a answer) (err error) {
			if err := jsonAnswer(a); err != nil {
				return err
			}
			b, err = parseBuild(a.body, a.shown)
			return err // after a success, call reports any error as uncertain
		},
	}, c.opts.RequestTimeout)
	return b, err
}

// Download is an open download of a build's zip.
type Download struct {
	Body          io.ReadCloser
	Status        int   // a 2xx status
	ContentLength int64 // -1 when unknown
	ContentType   string
	cancel        func()
}

// Close releases the download.
func (d *Download) Close() error {
	err := d.Body.Close()
	d.cancel()
	return err
}

// OpenDownload starts downloading a build (GET /docs.builds.download?id=).
// The caller streams Body and closes the Download. Answers that may mean
// "not built yet" come back as *APIError for the caller to judge.
func (c *Client) OpenDownload(ctx context.Context, buildID ID) (*Download, error) {
	resp, cancel, err := c.call(ctx, &request{
		method:     "GET",
		path:       "/docs.builds.download",
		query:      url.Values{"id": {string(buildID)}},
		accept:     "application/zip, application/octet-stream;q=0.9, */*;q=0.1",
		idempotent: true,
	}, 0)
	if err != nil {
		return nil, err
	}
	return &Download{Body: resp.Body, Status: resp.StatusCode, ContentLength: resp.ContentLength, ContentType: resp.Header.Get("Content-Type"), cancel: cancel}, nil
}

// BuildFailure reads the start of a download answer that is not a zip for
// the service saying the build failed, and returns its message.
func (c *Client) BuildFailure(body []byte) (failed bool, msg string) {
	failed, msg = failureOf(body)
	return failed, shorten(msg)
}

// Shown is the start of an answer's body as an error may quote it:
// whitespace collapsed, at most a few hundred bytes with a cut marked, and
// anything not printable escaped, so a binary or garbled body shows as
// text. Like every message, it is scrubbed of secrets where it is written.
func (c *Client) Shown(body []byte) string {
	s := shorten(string(body))
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"), r < utf8.RuneSelf && !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func segment(s string) string { return url.PathEscape(s) }
