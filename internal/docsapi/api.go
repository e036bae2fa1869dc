package docsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
)

// FileUpdate is the body of a file update.
type FileUpdate struct {
	// Content is the description itself as a JSON value: the service embeds
	// it as JSON, never as a string.
	Content       json.RawMessage `json:"content"`
	Branch        string          `json:"branch"`
	CommitMessage string          `json:"commit_message"`
}

// UpdateFile writes a file in a project on a branch (PUT /projects/<id>/files/<name>).
// The same body may be sent twice without harm, so it is retried.
func (c *Client) UpdateFile(ctx context.Context, projectID, fileName string, f FileUpdate) error {
	body, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("encode body: %w", err)
	}
	return c.callJSON(ctx, &request{
		method:     "PUT",
		path:       "/projects/" + segment(projectID) + "/files/" + segment(fileName),
		body:       body,
		accept:     "application/json",
		idempotent: true,
	}, nil)
}

// Doc is one documentation domain of a project.
type Doc struct {
	ID     ID     `json:"id"`
	Domain string `json:"domain,omitempty"`
}

// ListDocs lists a project's docs (GET /docs.list?projectId=).
func (c *Client) ListDocs(ctx context.Context, projectID string) ([]Doc, error) {
	var out struct {
		Docs *[]Doc `json:"docs"`
	}
	err := c.callJSON(ctx, &request{
		method:     "GET",
		path:       "/docs.list",
		query:      url.Values{"projectId": {projectID}},
		accept:     "application/json",
		idempotent: true,
	}, &out)
	if err != nil {
		return nil, err
	}
	if out.Docs == nil {
		return nil, errors.New("service answered without a docs array")
	}
	return *out.Docs, nil
}

// Build is a build as the release answer describes it. Only ID is promised;
// DocID and Status are filled when the service sends them.
type Build struct {
	ID     ID     `json:"id"`
	DocID  ID     `json:"docId,omitempty"`
	Status string `json:"status,omitempty"`
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
	var out struct {
		Build  *Build `json:"build"`
		DocID  ID     `json:"docId"`
		Status string `json:"status"`
	}
	err := c.callJSON(ctx, &request{
		method: "POST",
		path:   "/docs.release",
		query:  url.Values{"id": {string(docID)}},
		body:   body,
		accept: "application/json",
	}, &out)
	if err != nil {
		return Build{}, err
	}
	if out.Build == nil || out.Build.ID == "" {
		return Build{}, errors.New("service answered without build.id")
	}
	b := *out.Build
	if b.DocID == "" {
		b.DocID = out.DocID
	}
	if b.Status == "" {
		b.Status = out.Status
	}
	return b, nil
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
	resp, cancel, err := c.send(ctx, &request{
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
