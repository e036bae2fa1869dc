package openapi

import (
	"context"
	"errors"
	"io"
	iofs "io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// readCounted is a file system whose files count the bytes read from them.
type readCounted struct {
	fstest.MapFS
	read int64
}

func (c *readCounted) Open(name string) (iofs.File, error) {
	f, err := c.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countedFile{f, c}, nil
}

type countedFile struct {
	iofs.File
	c *readCounted
}

func (f *countedFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.c.read += int64(n)
	return n, err
}

// givesWayEarly is a JSON description of about 8 MB with a key written
// twice at its start: the single pass gives way to the tree there.
func givesWayEarly() fstest.MapFS {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-list":[`)
	for i := range 800_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`"abcdefgh"`)
	}
	b.WriteString("]}\n")
	return fstest.MapFS{"a.json": {Data: []byte(b.String())}}
}

// TestDecoderReadsBoundedAhead: the decoder, on its own goroutine, reads
// at most a few batches ahead of the single pass: a pass that gives way
// at the start of a description of 8 MB has had far less of it read.
func TestDecoderReadsBoundedAhead(t *testing.T) {
	t.Parallel()
	fsys := &readCounted{MapFS: givesWayEarly()}
	_, err := onePass(context.Background(), fsys, "a.json", DefaultLimits, io.Discard, nil)
	if !errors.Is(err, errGiveWay) {
		t.Fatalf("onePass: %v, want it to give way", err)
	}
	const bound = (aheadBatches+2)*batchBytes + (spareChunks+2)*chunkSize
	if fsys.read > bound {
		t.Errorf("%d KB of %d KB read by a pass that stopped at the start, want at most %d KB", fsys.read>>10, len(fsys.MapFS["a.json"].Data)>>10, bound>>10)
	}
}

// TestDecoderStopsWithThePass: once the single pass has returned, having
// given way early, the decoder's goroutine and the upload's writer's end:
// neither is left waiting to hand on a batch no one reads, or for more to
// write. Not parallel: it looks at every goroutine of the process.
func TestDecoderStopsWithThePass(t *testing.T) {
	_, err := onePass(context.Background(), givesWayEarly(), "a.json", DefaultLimits, io.Discard, nil)
	if !errors.Is(err, errGiveWay) {
		t.Fatalf("onePass: %v, want it to give way", err)
	}
	passGoroutinesEnd(t)
}

// passGoroutinesEnd fails unless the single pass's decoder and writer
// have no goroutine left. One may still be returning when the pass has:
// it is gone at once, or never.
func passGoroutinesEnd(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		stacks := string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "(*aheadReader).decode") && !strings.Contains(stacks, "newAheadWriter") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the decoder's or the writer's goroutine outlived the pass:\n%s", stacks)
		}
	}
}

// fullDisk takes room bytes, then fails every write.
type fullDisk struct{ room int }

var errDiskFull = errors.New("no space left on device")

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) > d.room {
		n := d.room
		d.room = 0
		return n, errDiskFull
	}
	d.room -= len(p)
	return len(p), nil
}

// TestPassEndsOnAWriteError: the upload's first write error ends the
// single pass with that error, not the tree's work, and leaves none of
// its goroutines. Not parallel: it looks at every goroutine of the
// process.
func TestPassEndsOnAWriteError(t *testing.T) {
	fsys := fstest.MapFS{"a.json": {Data: longList()}}
	_, err := onePass(context.Background(), fsys, "a.json", DefaultLimits, &fullDisk{room: 300 << 10}, nil)
	if !errors.Is(err, errDiskFull) || errors.Is(err, errGiveWay) {
		t.Fatalf("onePass: %v, want the write's error", err)
	}
	passGoroutinesEnd(t)
}

// cancelling is a file system whose files cancel a context once after
// bytes have been read from them.
type cancelling struct {
	fstest.MapFS
	after  int64
	cancel context.CancelFunc
}

func (c *cancelling) Open(name string) (iofs.File, error) {
	f, err := c.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &cancellingFile{File: f, c: c}, nil
}

type cancellingFile struct {
	iofs.File
	c    *cancelling
	read int64
}

func (f *cancellingFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	if f.read += int64(n); f.read >= f.c.after {
		f.c.cancel()
	}
	return n, err
}

// TestPassEndsWhenCancelledMidway: a run cancelled while the single pass
// reads ends it with the context's error, not the tree's work, and leaves
// none of its goroutines. Not parallel: it looks at every goroutine of
// the process.
func TestPassEndsWhenCancelledMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fsys := &cancelling{MapFS: fstest.MapFS{"a.json": {Data: longList()}}, after: 1 << 20, cancel: cancel}
	_, err := onePass(ctx, fsys, "a.json", DefaultLimits, io.Discard, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, errGiveWay) {
		t.Fatalf("onePass: %v, want the context's error", err)
	}
	passGoroutinesEnd(t)
}

// longList is a JSON description of about 4 MB, most of it a list of
// strings.
func longList() []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-list":[`)
	for i := range 400_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"abcdefgh"`)
	}
	b.WriteString("]}")
	return []byte(b.String())
}
