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
	"strings"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/unzip"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

func (f *flow) download(ctx context.Context) error {
	target := f.plan.ZipPath
	if target == "" {
		// Known only now, so not among the paths checked before sending:
		// it may be a file the run read, a description named after a
		// build of the same id.
		target = zipName(f.res.BuildID, f.secrets)
		if err := notOverAnother(f.ws, target); err != nil {
			return &StepError{Step: StepDownload, Desc: "save the build's zip as " + target, Err: err}
		}
	}
	if err := f.untilBuilt(ctx, func(ctx context.Context) error { return f.fetch(ctx, target) }); err != nil {
		return f.buildError(ctx, err)
	}
	f.res.BuildState = BuildReady
	f.res.ZipPath = target
	f.rep.Infof("saved %s (%d bytes, sha256 %s)", target, f.res.ZipSize, f.res.ZipSHA256)
	for _, kv := range [][2]string{{"zip-path", target}, {"zip-size", fmt.Sprint(f.res.ZipSize)}, {"zip-sha256", f.res.ZipSHA256}} {
		if err := f.rep.SetOutput(kv[0], kv[1]); err != nil {
			return err
		}
	}
	if f.plan.SitePath == "" {
		return nil
	}
	st, err := f.extract(target, f.plan.SitePath)
	if err != nil {
		return &StepError{Step: StepDownload, Desc: "unpack " + target + " into " + f.plan.SitePath, Err: err}
	}
	f.res.SitePath = f.plan.SitePath
	f.rep.Infof("unpacked %d files (%d bytes) into %s", st.Files, st.Bytes, f.res.SitePath)
	return f.rep.SetOutput("site-path", f.res.SitePath)
}

// notOverAnother refuses the default download-path when a file is there
// that is not a zip: a zip is what an earlier run left, written over on a
// runner that keeps its workspace; anything else may be a file the run
// reads, which it never writes over.
func notOverAnother(ws *workspace.Workspace, name string) error {
	f, err := ws.Open(name)
	if err != nil {
		return nil // nothing there to keep, or nothing a file: writing says
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	if head = head[:n]; n == 0 || bytes.Equal(head, []byte("PK\x03\x04")) || bytes.Equal(head, []byte("PK\x05\x06")) {
		return nil
	}
	return fmt.Errorf("%s is there already and is not a zip: the default download-path (docs-build-<build id>.zip) would write over it, and the run never writes over a file it may have read; give download-path a path of its own", name)
}

// zipName is the default download-path: the build id in a file name. A
// name is a sink of its own: an id that holds a secret (a service that
// answers with the token it was sent) would show it in the workspace and
// could not be shown in zip-path, so such an id is named by its hash.
func zipName(id string, secrets *redact.Redactor) string {
	name := "docs-build-" + fileSafe(id) + ".zip"
	if secrets.Has(id) || secrets.Has(name) {
		sum := sha256.Sum256([]byte(id))
		name = "docs-build-" + hex.EncodeToString(sum[:8]) + ".zip"
	}
	return name
}

// maxSafeID bounds an id as fileSafe writes it, so that a file name that
// holds it stays well under the 255 bytes file systems allow.
const maxSafeID = 200

// fileSafe writes an id for a file name: letters, digits, '.', '_' and '-'
// as they are, every other byte percent-encoded (b/98765 becomes b%2F98765),
// so no id can make a path, a hidden file or a name the file system
// refuses, and two ids never make the same name. A longer result is cut
// and ends with a hash of the whole id.
func fileSafe(id string) string {
	const hashed = 17 // "-" and 16 hex digits
	var b strings.Builder
	cut := -1 // where a name too long is cut: between characters
	for i := 0; i < len(id); {
		_, size := utf8.DecodeRuneInString(id[i:])
		before := b.Len()
		for _, c := range []byte(id[i : i+size]) {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		if cut < 0 && b.Len() > maxSafeID-hashed {
			cut = before
		}
		i += size
	}
	s := b.String()
	if len(s) <= maxSafeID {
		return s
	}
	sum := sha256.Sum256([]byte(id))
	return s[:cut] + "-" + hex.EncodeToString(sum[:8])
}

// extract unpacks the zip into a folder that appears complete or not at all.
func (f *flow) extract(zipPath, dir string) (unzip.Stats, error) {
	zf, err := f.ws.Open(zipPath)
	if err != nil {
		return unzip.Stats{}, err
	}
	defer zf.Close()
	info, err := zf.Stat()
	if err != nil {
		return unzip.Stats{}, err
	}
	d, err := f.ws.CreateDir(dir)
	if err != nil {
		return unzip.Stats{}, err
	}
	st, err := unzip.Extract(zf, info.Size(), d.Root, unzip.DefaultLimits, unzip.CheckNames(f.noSecretIn))
	if err != nil {
		d.Abort()
		return st, err
	}
	return st, d.Commit()
}

// errSecretInName refuses a zip entry whose name holds a secret: a file
// name is a sink, and a Pages deploy of the site would publish it in a URL.
var errSecretInName = errors.New("its name holds a secret (the token, as written or encoded): refused, so that no file name in the workspace shows it; the docs service sent a build that names files after a secret")

func (f *flow) noSecretIn(name string) error {
	if f.secrets.Has(name) {
		return errSecretInName
	}
	return nil
}

// fetch downloads the build once into a temporary file beside target and
// moves it into place only when it is a complete zip. Nothing is left at
// target, and no temporary file anywhere, when it fails.
func (f *flow) fetch(ctx context.Context, target string) (err error) {
	d, err := f.openBuild(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	max := int64(f.cfg.MaxDownload)
	if max <= 0 {
		max = 1 << 30
	}
	if d.ContentLength > max {
		return fmt.Errorf("the build is %d bytes, more than max-download-size (%s): raise max-download-size if it is expected", d.ContentLength, f.cfg.MaxDownload)
	}
	out, err := f.ws.Create(target)
	if err != nil {
		return pathInputError("download-path", target, err)
	}
	defer out.Abort() // a no-op once committed
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(d.Body, max+1))
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("download: %w", ctx.Err())
		}
		return &CutShortError{Got: n, Want: d.ContentLength, Err: err}
	}
	if n > max {
		return fmt.Errorf("the build is larger than max-download-size (%s): raise max-download-size if it is expected", f.cfg.MaxDownload)
	}
	if d.ContentLength >= 0 && n != d.ContentLength {
		return &CutShortError{Got: n, Want: d.ContentLength}
	}
	if err := checkZip(out, n); err != nil {
		// A success whose body is not a zip: the service's word that the
		// build failed, or a placeholder while it builds.
		head := make([]byte, min(n, 64<<10))
		out.ReadAt(head, 0)
		return f.notAZip(head, d.Status, d.ContentType)
	}
	if err := out.Commit(); err != nil {
		return err
	}
	f.res.ZipSize, f.res.ZipSHA256 = n, hex.EncodeToString(h.Sum(nil))
	return nil
}

// checkZip checks that the n bytes written to f are a zip whose directory
// can be read.
func checkZip(f *workspace.File, n int64) error {
	head := make([]byte, 4)
	if _, err := f.ReadAt(head, 0); err != nil || !isZipSignature(head) {
		return fmt.Errorf("no zip signature")
	}
	_, err := zip.NewReader(f, n)
	return err
}
