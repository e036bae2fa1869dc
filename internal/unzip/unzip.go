// Package unzip extracts a downloaded site safely: nothing outside the
// target directory, no links, bounded size and file count, sane permissions,
// and no half-extracted directory left behind.
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
	MaxFiles int
	MaxBytes int64
}

// DefaultLimits fit any documentation site.
var DefaultLimits = Limits{MaxFiles: 100_000, MaxBytes: 4 << 30}

// Stats is what was extracted.
type Stats struct {
	Files int
	Bytes int64
}

// Extract unpacks the zip at src into dir, which must not exist or be empty.
// It unpacks into a temporary directory beside dir and renames it into place,
// so dir is either complete or untouched.
func Extract(src, dir string, lim Limits) (Stats, error) {
	var st Stats
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return st, fmt.Errorf("%s exists and is not empty: choose a new directory", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	zr, err := zip.OpenReader(src)
	if err != nil {
		return st, fmt.Errorf("open zip: %w", err)
	}
	defer zr.Close()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return st, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".extract-*.part")
	if err != nil {
		return st, err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
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
			if err := os.MkdirAll(filepath.Join(tmp, name), 0o755); err != nil {
				return st, err
			}
			continue
		case !mode.IsRegular():
			return st, fmt.Errorf("zip entry %q is not a regular file: refused", f.Name)
		}
		st.Files++
		if st.Files > lim.MaxFiles {
			return st, fmt.Errorf("zip holds more than %d files: refused as a possible zip bomb", lim.MaxFiles)
		}
		n, err := writeEntry(f, filepath.Join(tmp, name), lim.MaxBytes-st.Bytes)
		st.Bytes += n
		if err != nil {
			return st, err
		}
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	return st, os.Rename(tmp, dir)
}

// safeName refuses names that would land outside the target directory.
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
	return filepath.FromSlash(clean), nil
}

func writeEntry(f *zip.File, dst string, budget int64) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, err
	}
	rc, err := f.Open()
	if err != nil {
		return 0, fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	defer rc.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return 0, fmt.Errorf("zip entry %q appears twice: refused", f.Name)
		}
		return 0, err
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
