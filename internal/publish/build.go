package publish

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/cenkalti/backoff/v4"
	"github.com/docs-publish/docs-publish/internal/docsapi"
)

// Build states a run reports.
const (
	BuildReady     = "ready"
	BuildFailed    = "failed"
	BuildUnchecked = "unchecked" // released, outcome not waited for
)

// notReady is an answer of the download endpoint that says the build has not
// finished yet (how the service says so is not documented): worth asking
// again.
type notReady struct{ answer string }

func (e *notReady) Error() string { return "not ready yet: " + e.answer }

// CutShortError is a download whose body ended before its end: the service
// or the network closed it early. The build was ready; a run asks again a
// few times (maxCutShort), since the next answer may come whole.
type CutShortError struct {
	Got, Want int64 // bytes received, and promised (-1 when not said)
	Err       error // what ended the body, if it said
	Attempts  int
}

func (e *CutShortError) Error() string {
	msg := fmt.Sprintf("the download was cut short after %d bytes", e.Got)
	if e.Want >= 0 {
		msg = fmt.Sprintf("the download was cut short: %d of %d bytes", e.Got, e.Want)
	}
	if e.Err != nil {
		msg += fmt.Sprintf(" (%v)", e.Err)
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(", %d times", e.Attempts)
	}
	return msg
}

func (e *CutShortError) Unwrap() error { return e.Err }

// maxCutShort is how many downloads cut short a run takes before it fails.
const maxCutShort = 3

// cutShortHint is the advice for a CutShortError.
const cutShortHint = "the service or the network ended the download early, although the build was ready: run the job again"

func isNotReadyStatus(status int) bool {
	switch status {
	case http.StatusAccepted, http.StatusNotFound, http.StatusConflict,
		http.StatusLocked, http.StatusTooEarly:
		return true
	}
	return false
}

// BuildFailedError says the service built the release and the build failed.
type BuildFailedError struct {
	BuildID string
	Msg     string // the service's message, when it came in a success answer
	Err     error  // the service's error answer, when it came as one
}

func (e *BuildFailedError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("build %s failed: %v", e.BuildID, e.Err)
	}
	if e.Msg == "" {
		return fmt.Sprintf("build %s failed, and the service gave no reason", e.BuildID)
	}
	return fmt.Sprintf("build %s failed: %s", e.BuildID, e.Msg)
}

// Reason is why the service says the build failed, as it wrote it (one
// line, bounded), or "" when it gave no reason: no message, a page that is
// not the service's JSON, or words that only repeat that the build failed.
// It is the service's text: untrusted, and not scrubbed of secrets here.
func (e *BuildFailedError) Reason() string {
	msg := e.Msg
	var ae *docsapi.APIError
	if errors.As(e.Err, &ae) {
		msg = ""
		if ae.JSON {
			msg = ae.Message
		}
	}
	msg = strings.Join(strings.Fields(msg), " ")
	bare := strings.ToLower(strings.TrimFunc(msg, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }))
	switch bare {
	case "", "failed", "failure", "error", "build failed", "the build failed", "build error":
		return ""
	}
	return msg
}

func (e *BuildFailedError) Unwrap() error { return e.Err }

// untilBuilt calls try until it succeeds or fails for good, within
// build-timeout, polling fast at first (builds of small descriptions take
// well under a second) and backing off. It logs a progress line now and then,
// not one per poll.
func (f *flow) untilBuilt(ctx context.Context, try func(context.Context) error) error {
	bctx := ctx
	if f.cfg.BuildTimeout > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, f.cfg.buildTimeout())
		defer cancel()
	}
	first := f.firstPoll
	if first == 0 || first > 200*time.Millisecond {
		first = 200 * time.Millisecond
	}
	poll := backoff.WithContext(backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(first),
		backoff.WithMaxInterval(5*time.Second),
		backoff.WithMaxElapsedTime(0),
	), bctx)
	start := time.Now()
	every := f.progressEvery
	if every == 0 {
		every = 15 * time.Second
	}
	nextNote := start.Add(every)
	var last error
	notZips, cuts := 0, 0
	// again asks once more after a fault the service may mend by then
	// (seen of them so far, attempts the error's count), at most most
	// times in all.
	again := func(err error, seen, attempts *int, most int) error {
		*seen++
		*attempts = *seen
		if *seen >= most {
			return backoff.Permanent(err)
		}
		f.rep.Infof("build %s: %v; asking again", f.res.BuildID, err)
		last = err
		return err
	}
	op := func() error {
		err := try(bctx)
		var nr *notReady
		var nz *NotAZipError
		var cut *CutShortError
		if errors.As(err, &cut) {
			return again(err, &cuts, &cut.Attempts, maxCutShort)
		}
		if errors.As(err, &nz) {
			return again(err, &notZips, &nz.Attempts, maxNotAZip)
		}
		if errors.As(err, &nr) {
			last = err
			if now := time.Now(); !now.Before(nextNote) {
				nextNote = now.Add(every)
				left := "no limit"
				if dl, ok := bctx.Deadline(); ok {
					left = time.Until(dl).Round(time.Second).String() + " left"
				}
				f.rep.Infof("waiting for build %s: %s elapsed, %s; last answer: %s", f.res.BuildID, now.Sub(start).Round(time.Second), left, nr.answer)
			}
			return err
		}
		if err != nil {
			return backoff.Permanent(err)
		}
		return nil
	}
	err := backoff.Retry(op, poll)
	var cut *CutShortError
	if err != nil && ctx.Err() == nil && bctx.Err() != nil && errors.As(last, &cut) {
		return &StepError{Step: f.step, Desc: "download build " + f.res.BuildID,
			Err: fmt.Errorf("build-timeout (%s) ran out asking again after %w", f.cfg.buildTimeout(), last), Hint: cutShortHint}
	}
	if err != nil && ctx.Err() == nil && bctx.Err() != nil {
		// The last answer says more than the deadline: a "not ready", or
		// a fault the client kept retrying until the time ran out.
		return &StepError{Step: f.step, Desc: "wait for build " + f.res.BuildID,
			Err:  fmt.Errorf("the build was not ready within build-timeout (%s); last answer: %w", f.cfg.buildTimeout(), cmp.Or(last, err)),
			Hint: "raise build-timeout for large descriptions, or check the build's state in the web application"}
	}
	return err
}

// probe asks once whether the build is ready, reading the answer's headers
// (and the first bytes of a success, to tell a zip from a placeholder).
func (f *flow) probe(ctx context.Context) error {
	d, err := f.openBuild(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(d.Body, head)
	if isZipSignature(head[:n]) {
		return nil // ready: the rest of the zip is not read
	}
	rest, _ := io.ReadAll(io.LimitReader(d.Body, 64<<10))
	return f.notAZip(append(head[:n], rest...), d.Status, d.ContentType)
}

// openBuild opens the build's download and judges any answer that is not a
// zip on its way: not ready, failed, or an error.
func (f *flow) openBuild(ctx context.Context) (*docsapi.Download, error) {
	d, err := f.client.OpenDownload(ctx, docsapi.ID(f.res.BuildID))
	if err != nil {
		var ae *docsapi.APIError
		switch {
		case errors.As(err, &ae) && isNotReadyStatus(ae.Status):
			return nil, &notReady{err.Error()}
		case errors.As(err, &ae) && (ae.Status == http.StatusUnprocessableEntity || ae.Status == http.StatusGone):
			return nil, &BuildFailedError{BuildID: f.res.BuildID, Err: err}
		}
		return nil, err
	}
	if d.Status == http.StatusAccepted || d.Status == http.StatusNoContent {
		d.Close()
		return nil, &notReady{fmt.Sprintf("service answered %d %s", d.Status, http.StatusText(d.Status))}
	}
	return d, nil
}

// notAZip judges the start of a success answer that is not a zip: the
// service's word that the build failed, a JSON placeholder while it builds,
// or else a body that is no answer of the service's at all.
func (f *flow) notAZip(body []byte, status int, ctype string) error {
	if failed, msg := f.client.BuildFailure(body); failed {
		return &BuildFailedError{BuildID: f.res.BuildID, Msg: msg}
	}
	if json.Valid(body) && !declaresZip(ctype) {
		return &notReady{fmt.Sprintf("service answered %d with %s, not a zip", status, orUnknown(ctype))}
	}
	return &NotAZipError{Status: status, ContentType: orUnknown(ctype), Start: f.client.Shown(body)}
}

// maxNotAZip is how many success answers that are not a zip, nor a JSON
// placeholder, a run takes before it fails: one may be a passing proxy
// page; more mean api-url leads to something other than the service.
const maxNotAZip = 3

// NotAZipError is a download answered with success and a body that is
// neither a zip nor JSON from the service: a web page, a proxy's error, a
// mock's example. Waiting for the build would not change it.
type NotAZipError struct {
	Status      int
	ContentType string
	Start       string // the start of the body, as text, token removed
	Attempts    int
}

func (e *NotAZipError) Error() string {
	msg := fmt.Sprintf("the service answered %d %s with a body that is not a zip (%s)", e.Status, http.StatusText(e.Status), e.ContentType)
	if e.Attempts > 1 {
		msg += fmt.Sprintf(", %d times", e.Attempts)
	}
	if e.Start == "" {
		return msg + "; the body is empty"
	}
	return msg + "; the body starts: " + e.Start
}

// notAZipHint is the advice for a NotAZipError.
const notAZipHint = "check api-url: it must be the service's API address with its path prefix, not its web application, a mock of the service or a proxy that answers in its place"

// declaresZip says whether a Content-Type promises a zip.
func declaresZip(ctype string) bool {
	mt, _, _ := mime.ParseMediaType(ctype)
	switch mt {
	case "application/zip", "application/x-zip", "application/x-zip-compressed":
		return true
	}
	return false
}

func orUnknown(ctype string) string {
	if ctype == "" {
		return "no content type"
	}
	return ctype
}

func isZipSignature(head []byte) bool {
	return bytes.Equal(head, []byte("PK\x03\x04")) || bytes.Equal(head, []byte("PK\x05\x06"))
}

// waitForBuild polls until the build is ready or has failed.
func (f *flow) waitForBuild(ctx context.Context) error {
	f.rep.Infof("waiting for build %s (up to build-timeout %s)", f.res.BuildID, f.cfg.buildTimeout())
	if err := f.untilBuilt(ctx, f.probe); err != nil {
		return f.buildError(ctx, err)
	}
	f.res.BuildState = BuildReady
	f.rep.Infof("build %s is ready", f.res.BuildID)
	return nil
}

// buildError explains a failed wait or download in the run's ctx.
func (f *flow) buildError(ctx context.Context, err error) error {
	var se *StepError
	if errors.As(err, &se) {
		return err
	}
	desc := "wait for build " + f.res.BuildID
	if f.step == StepDownload {
		desc = "download build " + f.res.BuildID
	}
	var bf *BuildFailedError
	var nz *NotAZipError
	var cut *CutShortError
	if errors.As(err, &nz) {
		return &StepError{Step: f.step, Desc: desc, Err: err, Hint: notAZipHint}
	}
	if errors.As(err, &cut) {
		return &StepError{Step: f.step, Desc: desc, Err: err, Hint: cutShortHint}
	}
	if errors.As(err, &bf) {
		f.res.BuildState = BuildFailed
		return &StepError{Step: f.step, Desc: desc, Err: err, Hint: buildFailedHint(bf, f.res.DocID, f.plan.FileName, f.cfg.Branch)}
	}
	return &StepError{Step: f.step, Desc: desc, Err: err, Hint: hintFor(ctx, err, f.cfg)}
}

// buildFailedHint is the advice for a failed build. When the service says
// why, the error quotes it already: the advice points at it. Only when it
// says nothing is the likeliest cause named: a file or branch other than
// the ones the doc renders.
func buildFailedHint(bf *BuildFailedError, docID, fileName, branch string) string {
	if bf.Reason() != "" {
		return fmt.Sprintf("the service could not build doc %s, for the reason it gives: fix what it names, in the description or in the doc's settings in the web application's publish interface, then run again (this run wrote %s on branch %s)",
			docID, fileName, branch)
	}
	return fmt.Sprintf("the service could not build doc %s and gave no reason. The doc renders the file and branch set once in the web application's publish interface: file-name and branch must match them (this run wrote %s on branch %s)",
		docID, fileName, branch)
}
