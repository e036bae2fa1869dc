package publish

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/unzip"
)

// transient is an answer worth asking again: for a build this run just
// released, "not finished yet" (how the service says so is not documented),
// or a download cut short.
type transient struct{ msg string }

func (e *transient) Error() string { return e.msg }

func notReady(answer string) error { return &transient{"build not ready yet: " + answer} }

func isNotReadyStatus(status int) bool {
	switch status {
	case http.StatusAccepted, http.StatusNotFound, http.StatusConflict,
		http.StatusLocked, http.StatusTooEarly:
		return true
	}
	return false
}

func (f *flow) download(ctx context.Context) error {
	desc := "download build " + f.res.BuildID
	target := f.plan.zipAbs
	if target == "" {
		var err error
		target, _, err = inWorkspace(f.cfg.Workspace, "download-path", "docs-build-"+f.res.BuildID+".zip")
		if err != nil {
			return err
		}
	}
	rel, _ := filepath.Rel(f.cfg.Workspace, target)
	rel = filepath.ToSlash(rel)

	bctx := ctx
	if f.cfg.BuildTimeout > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, f.cfg.BuildTimeout)
		defer cancel()
	}
	// Builds of small descriptions finish in well under a second: start
	// polling at 200 ms and back off from there.
	first := f.firstPoll
	if first == 0 || first > 200*time.Millisecond {
		first = 200 * time.Millisecond
	}
	poll := backoff.WithContext(backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(first),
		backoff.WithMaxInterval(5*time.Second),
		backoff.WithMaxElapsedTime(0),
	), bctx)
	var last error
	op := func() error {
		err := f.fetch(bctx, target)
		var tr *transient
		if errors.As(err, &tr) {
			last = err
			f.rep.Infof("%s", err)
			return err
		}
		if err != nil {
			return backoff.Permanent(err)
		}
		return nil
	}
	err := backoff.Retry(op, poll)
	if err != nil {
		if ctx.Err() == nil && bctx.Err() != nil {
			err = fmt.Errorf("the build was not ready within build-timeout (%s); last answer: %v", f.cfg.BuildTimeout, last)
			return &StepError{Step: "download build", Desc: desc, Err: err,
				Hint: "raise build-timeout for large descriptions, or check the build's state in the web application"}
		}
		hint := hintFor(err)
		if docsapi.StatusOf(err) == http.StatusUnprocessableEntity || docsapi.StatusOf(err) == http.StatusGone {
			hint = fmt.Sprintf("the service could not build doc %s: check the doc's file and branch in the web application's publish interface, and that file-name and branch match them", f.res.DocID)
		}
		return &StepError{Step: "download build", Desc: desc, Err: err, Hint: hint}
	}
	f.res.ZipPath = rel
	f.rep.Infof("saved %s (%d bytes, sha256 %s)", rel, f.res.ZipSize, f.res.ZipSHA256)
	for _, kv := range [][2]string{{"zip-path", rel}, {"zip-size", fmt.Sprint(f.res.ZipSize)}, {"zip-sha256", f.res.ZipSHA256}} {
		if err := f.rep.SetOutput(kv[0], kv[1]); err != nil {
			return err
		}
	}
	if f.plan.siteAbs == "" {
		return nil
	}
	st, err := unzip.Extract(target, f.plan.siteAbs, unzip.DefaultLimits)
	if err != nil {
		return &StepError{Step: "download build", Desc: "unpack " + rel, Err: err}
	}
	site, _ := filepath.Rel(f.cfg.Workspace, f.plan.siteAbs)
	f.res.SitePath = filepath.ToSlash(site)
	f.rep.Infof("unpacked %d files (%d bytes) into %s", st.Files, st.Bytes, f.res.SitePath)
	return f.rep.SetOutput("site-path", f.res.SitePath)
}

// fetch downloads the build once into a temporary file beside target and
// renames it into place only when it is a complete zip. Nothing is left at
// target, and no temporary file anywhere, when it fails.
func (f *flow) fetch(ctx context.Context, target string) (err error) {
	d, err := f.client.OpenDownload(ctx, docsapi.ID(f.res.BuildID))
	if err != nil {
		if st := docsapi.StatusOf(err); isNotReadyStatus(st) {
			return notReady(err.Error())
		}
		return err
	}
	defer d.Close()
	if d.Status == http.StatusAccepted || d.Status == http.StatusNoContent {
		return notReady(fmt.Sprintf("service answered %d %s", d.Status, http.StatusText(d.Status)))
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".docs-build-*.part")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	max := int64(f.cfg.MaxDownload)
	if max <= 0 {
		max = 1 << 30
	}
	if d.ContentLength > max {
		return fmt.Errorf("the build is %d bytes, more than max-download-size (%s): raise max-download-size if it is expected", d.ContentLength, f.cfg.MaxDownload)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(d.Body, max+1))
	if err != nil {
		return &transient{fmt.Sprintf("download cut short after %d bytes: %v", n, err)}
	}
	if n > max {
		return fmt.Errorf("the build is larger than max-download-size (%s): raise max-download-size if it is expected", f.cfg.MaxDownload)
	}
	if d.ContentLength >= 0 && n != d.ContentLength {
		return &transient{fmt.Sprintf("download cut short: %d of %d bytes", n, d.ContentLength)}
	}
	// CreateTemp makes the file private; the zip is for later steps to read.
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := checkZip(tmp.Name()); err != nil {
		// A 200 whose body is not a zip may be a placeholder while building.
		return notReady("service answered 200 with a body that is not a zip (" + err.Error() + ")")
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	f.res.ZipSize, f.res.ZipSHA256 = n, hex.EncodeToString(h.Sum(nil))
	return nil
}

func checkZip(path string) error {
	head := make([]byte, 4)
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	_, err = io.ReadFull(fh, head)
	fh.Close()
	if err != nil || !(bytes.Equal(head, []byte("PK\x03\x04")) || bytes.Equal(head, []byte("PK\x05\x06"))) {
		return errors.New("no zip signature")
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	return zr.Close()
}
