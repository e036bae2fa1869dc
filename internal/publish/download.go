package publish

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/docs-publish/docs-publish/internal/unzip"
)

func (f *flow) download(ctx context.Context) error {
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
	if err := f.untilBuilt(ctx, func(ctx context.Context) error { return f.fetch(ctx, target) }); err != nil {
		return f.buildError(err)
	}
	f.res.BuildState = BuildReady
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
		return &StepError{Step: StepDownload, Desc: "unpack " + rel, Err: err}
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
	d, err := f.openBuild(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
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
		return &notReady{fmt.Sprintf("download cut short after %d bytes: %v", n, err)}
	}
	if n > max {
		return fmt.Errorf("the build is larger than max-download-size (%s): raise max-download-size if it is expected", f.cfg.MaxDownload)
	}
	if d.ContentLength >= 0 && n != d.ContentLength {
		return &notReady{fmt.Sprintf("download cut short: %d of %d bytes", n, d.ContentLength)}
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
		// A 200 whose body is not a zip: the service's word that the build
		// failed, or a placeholder while it builds.
		return f.judgeFile(tmp.Name(), d.Status, d.ContentType)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	f.res.ZipSize, f.res.ZipSHA256 = n, hex.EncodeToString(h.Sum(nil))
	return nil
}

// judgeFile judges an answer that was saved to a file and is not a zip.
func (f *flow) judgeFile(path string, status int, ctype string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	body, _ := io.ReadAll(io.LimitReader(fh, 64<<10))
	return f.notAZip(body, status, ctype)
}

func checkZip(path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	head := make([]byte, 4)
	n, _ := io.ReadFull(fh, head)
	fh.Close()
	if !isZipSignature(head[:n]) {
		return fmt.Errorf("no zip signature")
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	return zr.Close()
}
