package openapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestValuesBound: a JSON description may hold exactly Values values (its
// objects, arrays and scalars), not one more.
func TestValuesBound(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.0.3","x":[1,2],"y":{"a":null}}` // 7 values: 3 objects and arrays, 4 scalars
	fsys := fstest.MapFS{"openapi.json": {Data: []byte(doc)}}
	for _, lim := range []int64{7, 6} {
		_, err := Load(context.Background(), fsys, "openapi.json", Limits{Values: lim})
		checkBound(t, err, lim >= 7, "more than 6 values", fmt.Sprintf("7 values, Values %d", lim))
	}
}

// TestFileBoundInMiB: a bound of whole mebibytes is named in MiB.
func TestFileBoundInMiB(t *testing.T) {
	t.Parallel()
	data := []byte("openapi: 3.0.3\nx: " + strings.Repeat("a", 1<<20) + "\n")
	_, err := Load(context.Background(), fstest.MapFS{"openapi.yaml": {Data: data}}, "openapi.yaml", Limits{FileBytes: 1 << 20})
	if want := "openapi.yaml: the file is 1048595 bytes, more than 1 MiB"; !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want ErrLimit: %s", err, want)
	}
}

// TestFileBoundExact: a file may be exactly FileBytes long.
func TestFileBoundExact(t *testing.T) {
	t.Parallel()
	data := "openapi: 3.0.3\nx: " + strings.Repeat("a", 200) + "\n"
	fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(data)}}
	for _, lim := range []int64{int64(len(data)), int64(len(data)) - 1} {
		_, err := Load(context.Background(), fsys, "openapi.yaml", Limits{FileBytes: lim})
		checkBound(t, err, lim >= int64(len(data)), "the file is 219 bytes, more than", fmt.Sprintf("a file of %d bytes, FileBytes %d", len(data), lim))
	}
}

// TestFileThatGrowsIsBounded: a file that holds more than its size said
// (one written to while it is read) is read only up to the bound.
func TestFileThatGrowsIsBounded(t *testing.T) {
	t.Parallel()
	data := "openapi: 3.0.3\nx: " + strings.Repeat("a", 200) + "\n"
	fsys := growingFS{name: "openapi.yaml", data: data}
	for _, lim := range []int64{int64(len(data)), int64(len(data)) - 1} {
		_, err := Load(context.Background(), fsys, "openapi.yaml", Limits{FileBytes: lim})
		checkBound(t, err, lim >= int64(len(data)), "openapi.yaml: the file is more than", fmt.Sprintf("a file of %d bytes that says 10, FileBytes %d", len(data), lim))
	}
}

// growingFS holds one file whose Stat says 10 bytes, fewer than it holds.
type growingFS struct{ name, data string }

func (g growingFS) Open(name string) (fs.File, error) {
	if name != g.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &growingFile{r: strings.NewReader(g.data), name: name}, nil
}

type growingFile struct {
	r    *strings.Reader
	name string
}

func (f *growingFile) Stat() (fs.FileInfo, error) { return growingInfo{f.name}, nil }
func (f *growingFile) Read(b []byte) (int, error) {
	if len(b) > 1 { // a byte a read, as a slow pipe gives them
		b = b[:1]
	}
	n, err := f.r.Read(b)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}
func (f *growingFile) Close() error { return nil }

type growingInfo struct{ name string }

func (i growingInfo) Name() string       { return i.name }
func (i growingInfo) Size() int64        { return 10 }
func (i growingInfo) Mode() fs.FileMode  { return 0o644 }
func (i growingInfo) ModTime() time.Time { return time.Time{} }
func (i growingInfo) IsDir() bool        { return false }
func (i growingInfo) Sys() any           { return nil }
