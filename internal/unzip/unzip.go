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
)

// Limits bound what an archive may unpack to (zip bombs).
type Limits struct {
	MaxEntries int // files and folders
	MaxBytes   int64
}

// DefaultLimits fit any documentation site.
var DefaultLimits = Limits{MaxEntries: 100_000, MaxBytes: 4 << 30}

// Stats is what was extracted.
type Stats struct {
	Files, Dirs int
	Bytes       int64
}

// Extract unpacks the zip of size bytes read from r into dst. The caller
// makes dst appear atomically (workspace.Dir) and gives its entries their
// final modes.
func Extract(r io.ReaderAt, size int64, dst *os.Root, lim Limits) (Stats, error) {
	var st Stats
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return st, fmt.Errorf("open zip: %w", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return st, fmt.Errorf("zip holds %d entries, more than %d: refused as a possible zip bomb", len(zr.File), lim.MaxEntries)
	}
	for _, f := range zr.File {
		name, err := safeName(f.Name)
		if err != nil {
			return st, err
		}
		mode := f.Mode()
		switch {
		case mode&os.ModeSymlink != 0:
			return st, fmt.Errorf("zip entry %q is a symbolic link: refused", f.Name)
		case mode.IsDir() || strings.HasSuffix(f.Name, "/"):
			st.Dirs++
			if err := dst.MkdirAll(name, 0o755); err != nil {
				return st, fmt.Errorf("zip entry %q: %w", f.Name, err)
			}
			continue
		case !mode.IsRegular():
			return st, fmt.Errorf("zip entry %q is not a regular file: refused", f.Name)
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

// safeName refuses names that would land outside the target folder.
func safeName(name string) (string, error) {
	if name == "" || strings.Contains(name, "\\") || strings.ContainsRune(name, 0) ||
		path.IsAbs(name) || filepath.IsAbs(name) || filepath.VolumeName(name) != "" {
		return "", fmt.Errorf("zip entry %q has an absolute or malformed path: refused", name)
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "", fmt.Errorf("zip entry %q climbs out of the directory with ..: refused", name)
		}
	}
	clean := path.Clean(name)
	if clean == "." {
		return "", fmt.Errorf("zip entry %q names no file: refused", name)
	}
	return clean, nil
}

func writeEntry(f *zip.File, dst *os.Root, name string, budget int64) (int64, error) {
	if err := dst.MkdirAll(path.Dir(name), 0o755); err != nil {
		return 0, fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
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
