// Package unzip extracts a downloaded site safely: nothing outside the
// target folder (which the caller gives as an *os.Root), no links, bounded
// size and entry count, and every entry a plain file or folder.
package unzip

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// Limits bound what an archive may unpack to (zip bombs).
type Limits struct {
	MaxEntries int // files and folders
	MaxBytes   int64
}

// DefaultLimits fit any documentation site.
var DefaultLimits = Limits{MaxEntries: 100_000, MaxBytes: 4 << 30}

// A name longer, or a path deeper, is refused: no site needs one.
const (
	maxName  = 1024
	maxDepth = 64
)

// Stats is what was extracted.
type Stats struct {
	Files, Dirs int
	Bytes       int64
}

// An Option adds a rule to Extract.
type Option func(*options)

type options struct {
	names []func(name string) error
}

// CheckNames refuses every entry whose path, as the zip holds it or
// cleaned as it would be written, check rejects. The zip is refused before anything is written,
// with check's error and the entry's number, never its name: a name that
// must not be written must not be shown either.
func CheckNames(check func(name string) error) Option {
	return func(o *options) { o.names = append(o.names, check) }
}

// nothingExtracted ends a refusal of the whole zip with what to do.
const nothingExtracted = "nothing was extracted: the zip is kept as downloaded, check what the docs service built before using it"

// Extract unpacks the zip of size bytes read from r into dst. The caller
// makes dst appear atomically (workspace.Dir) and gives its entries their
// final modes.
func Extract(r io.ReaderAt, size int64, dst *os.Root, lim Limits, opts ...Option) (Stats, error) {
	var st Stats
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := checkDirectory(r, size, lim); err != nil {
		return st, fmt.Errorf("%w; %s", err, nothingExtracted)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return st, fmt.Errorf("open zip: %w", err)
	}
	tooMany := func() error {
		return fmt.Errorf("zip holds more than %d entries (files and folders, those its paths imply included): refused as a possible zip bomb; %s", lim.MaxEntries, nothingExtracted)
	}
	if len(zr.File) > lim.MaxEntries {
		return st, tooMany()
	}
	// Every name is checked before anything is written.
	names := make([]string, len(zr.File))
	for i, f := range zr.File {
		for _, check := range o.names {
			for _, name := range []string{f.Name, path.Clean(f.Name)} {
				if err := check(name); err != nil {
					return st, fmt.Errorf("zip entry %d of %d: %w", i+1, len(zr.File), err)
				}
			}
		}
		if names[i], err = safeName(f.Name); err != nil {
			return st, fmt.Errorf("zip entry %d of %d %w; %s", i+1, len(zr.File), err, nothingExtracted)
		}
	}
	// Every folder counts, also one an entry's path makes without an entry
	// of its own: 10 entries with paths 5,000 folders deep are 50,000.
	made := map[string]bool{".": true}
	mkdir := func(dir string) error {
		var missing []string
		for d := dir; !made[d]; d = path.Dir(d) {
			missing = append(missing, d)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			if st.Files+st.Dirs >= lim.MaxEntries {
				return tooMany()
			}
			if err := dst.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, os.ErrExist) {
				return err
			}
			made[missing[i]] = true
			st.Dirs++
		}
		return nil
	}
	for i, f := range zr.File {
		name := names[i]
		mode := f.Mode()
		switch {
		case mode&os.ModeSymlink != 0:
			return st, fmt.Errorf("zip entry %q is a symbolic link: refused", f.Name)
		case mode.IsDir() || strings.HasSuffix(f.Name, "/"):
			if err := mkdir(name); err != nil {
				return st, fmt.Errorf("zip entry %q: %w", f.Name, err)
			}
			continue
		case !mode.IsRegular():
			return st, fmt.Errorf("zip entry %q is not a regular file: refused", f.Name)
		}
		if err := mkdir(path.Dir(name)); err != nil {
			return st, fmt.Errorf("zip entry %q: %w", f.Name, err)
		}
		if st.Files+st.Dirs >= lim.MaxEntries {
			return st, tooMany()
		}
		st.Files++
		n, err := writeEntry(f, dst, name, lim.MaxBytes-st.Bytes)
		st.Bytes += n
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// NameError is an entry whose name is refused: it would land outside the
// target folder, it is too long or too deep for any site, it names a hidden
// file or folder (.git/config, .github/workflows/…, where tools keep
// settings that run code), or it holds text a name may not hold (see
// namerule). Its message shows the name quoted, every control escaped.
type NameError struct {
	Name   string // as the zip holds it
	Reason string
}

func (e *NameError) Error() string {
	name := fmt.Sprintf("%q", e.Name)
	if len(e.Name) > 60 {
		name = fmt.Sprintf("%.60q…", e.Name)
	}
	return name + " " + e.Reason + ": refused"
}

// safeName refuses names that would land outside the target folder, names
// too long or too deep for any site, hidden names and names that hold
// controls or are not UTF-8 (the rules of namerule, which the description's
// files and the service's ids follow too), with a *NameError.
func safeName(name string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &NameError{Name: name, Reason: fmt.Sprintf(format, args...)}
	}
	if len(name) > maxName || strings.Count(name, "/") > maxDepth {
		return refuse("has a path longer than %d bytes or deeper than %d folders", maxName, maxDepth)
	}
	if err := namerule.CheckText(name); err != nil {
		return refuse("is %s, which could change how a listing or a log of the files reads", err)
	}
	if name == "" || strings.Contains(name, "\\") ||
		path.IsAbs(name) || filepath.IsAbs(name) || filepath.VolumeName(name) != "" {
		return refuse("has an absolute or malformed path")
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return refuse("climbs out of the directory with ..")
		}
	}
	if h := namerule.Hidden(name); h != "" {
		return refuse("names a hidden file or folder (%q), where tools keep settings and credentials (a .git/config can run code)", h)
	}
	clean := path.Clean(name)
	if clean == "." {
		return refuse("names no file")
	}
	return clean, nil
}

func writeEntry(f *zip.File, dst *os.Root, name string, budget int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	defer rc.Close()
	out, err := dst.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return 0, fmt.Errorf("zip entry %q appears twice: refused", f.Name)
		}
		return 0, fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	// The header's sizes can lie: count what really comes out.
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	if n > budget {
		return n, errors.New("zip unpacks to more than the size limit: refused as a possible zip bomb")
	}
	return n, nil
}
