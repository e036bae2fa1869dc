package openapi

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/memlimit"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// limitsSeen is a file system that notes the collector's limit when each
// file is opened and when it is read.
type limitsSeen struct {
	fstest.MapFS
	opened map[string]int64 // the limit when the file was first opened
	read   map[string]int64 // the highest limit while it was read
}

func (l *limitsSeen) Open(name string) (fs.File, error) {
	if _, ok := l.opened[name]; !ok {
		l.opened[name] = memlimit.Limit()
	}
	f, err := l.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &limitSeenFile{f, l, name}, nil
}

type limitSeenFile struct {
	fs.File
	l    *limitsSeen
	name string
}

func (f *limitSeenFile) Read(b []byte) (int, error) {
	f.l.read[f.name] = memlimit.Limit() // at the last read: the room is made once the size is known
	return f.File.Read(b)
}

// TestPrepareGivesItsFilesRoom: while a description is prepared, the
// collector's soft limit holds room for the files read so far, at
// memoryPerByte a byte (the single pass from the file's size, before it
// reads it; the tree file by file, as $refs name them), keeps it while
// the tree is held, and goes back to the limit there was once the tree is
// released. Not parallel: the limit is the process's.
func TestPrepareGivesItsFilesRoom(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	pad := strings.Repeat(" ", 1<<20) // files of a megabyte or so: room well past the floor
	const top = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\n"
	files := fstest.MapFS{
		"one.json": {Data: []byte(`{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}` + pad)},
		"a.yaml":   {Data: []byte(top + "paths:\n  /p: {$ref: 'b.yaml'}\n" + pad)},
		"b.yaml":   {Data: []byte("get: {$ref: 'c.yaml'}\n" + pad + pad)},
		"c.yaml":   {Data: []byte("responses: {'200': {description: ok}}\n")},
	}
	room := func(names ...string) int64 {
		var n int64
		for _, name := range names {
			n += int64(len(files[name].Data))
		}
		return memlimit.Floor + memoryPerByte*n
	}
	cases := []struct {
		name   string
		file   string
		opened map[string]int64 // at each file's opening
		read   map[string]int64 // while each file is read
	}{
		{name: "the single pass", file: "one.json", read: map[string]int64{"one.json": room("one.json")}},
		{name: "the tree, file by file", file: "a.yaml", opened: map[string]int64{"b.yaml": room("a.yaml"), "c.yaml": room("a.yaml", "b.yaml")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := &limitsSeen{MapFS: files, opened: map[string]int64{}, read: map[string]int64{}}
			out, err := os.CreateTemp(t.TempDir(), "out")
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			p, err := Prepare(context.Background(), fsys, tc.file, PrepareOptions{Bundle: true}, out)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.file == "one.json"; p.OnePass != want {
				t.Fatalf("OnePass = %v, want %v", p.OnePass, want)
			}
			for name, want := range tc.opened {
				if got := fsys.opened[name]; got != want {
					t.Errorf("limit when %s was opened: %d, want %d", name, got, want)
				}
			}
			for name, want := range tc.read {
				if got := fsys.read[name]; got != want {
					t.Errorf("limit while %s was read: %d, want %d", name, got, want)
				}
			}
			if got, want := memlimit.Limit(), room(tc.file); got < want {
				t.Errorf("limit while the tree is held: %d, want at least %d", got, want)
			}
			p.Release()
			if got := memlimit.Limit(); got != math.MaxInt64 {
				t.Errorf("limit once released: %d, want none, as before", got)
			}
		})
	}
}

// heapShapes are shapes whose tree keeps less live than the room Prepare
// gives it, and whose preparing throws much away: without a limit the
// heap, garbage and all, grows to about twice what is live.
var heapShapes = []struct {
	name  string
	files func(n int) fstest.MapFS
	file  string
	n     int
}{
	{"a deep allOf chain", func(n int) fstest.MapFS { return allOfChain(n, false) }, "openapi.yaml", 20_000},
	{"many tags", func(n int) fstest.MapFS {
		return yamlShape("x-list:\n", "", func(int) string { return "- !!str 1\n" }, n)
	}, "a.yaml", 100_000},
	{"many anchors", func(n int) fstest.MapFS {
		return yamlShape("x-list:\n", "", func(i int) string { return fmt.Sprintf("- &a%d 1\n", i) }, n)
	}, "a.yaml", 100_000},
}

// TestPreparedHeapFollowsTheLimit: preparing each shape at n and 4n items,
// the heap's peak, what is live and the garbage not yet collected, grows
// by at most 9 bytes a byte of input more, about the room Prepare gives
// the files in the collector's limit (memoryPerByte, 8; measured 7 to 8),
// where without it the collector let the heap grow past what is live (8
// to 10.5 measured, sampled every millisecond). Not parallel: it measures
// the heap.
func TestPreparedHeapFollowsTheLimit(t *testing.T) {
	testenv.Long(t) // prepares megabytes of YAML
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, s := range heapShapes {
		prepare := preparer(t, false)
		var size [2]int
		var peak [2]uint64
		for i, n := range []int{s.n, s.n * growthtest.Factor} {
			fsys := s.files(n)
			size[i] = len(fsys[s.file].Data)
			peak[i] = growthtest.Peak(func() { prepare(fsys, s.file).Release() })
		}
		perByte := float64(peak[1]-peak[0]) / float64(size[1]-size[0])
		t.Logf("%s: %d KB: peak %d KB; %d KB: peak %d KB; %.1f bytes a byte between", s.name, size[0]>>10, peak[0]>>10, size[1]>>10, peak[1]>>10, perByte)
		if perByte > 9 {
			t.Errorf("%s: the heap grew %.1f bytes a byte of input, want at most 9", s.name, perByte)
		}
	}
}

// TestHeapShapesGrowLinearly: preparing each of the shapes above at n and
// 4n items allocates about four times as much, in allocations and in
// bytes: many tags and many anchors are read by the YAML library, item by
// item in parts. Not parallel: it counts allocations.
func TestHeapShapesGrowLinearly(t *testing.T) {
	testenv.Long(t) // prepares megabytes of YAML
	for _, s := range heapShapes {
		prepare := preparer(t, false)
		growthtest.Linear(t, s.name, s.n/4, func(n int) { prepare(s.files(n), s.file).Release() })
	}
}

// TestHeldTreeKeepsItsRoom: a description prepared while another's tree
// is held (the head's, while its base is prepared) is given its room on
// top of the held tree's, so that the limit is never under what is live.
// Not parallel: the limit is the process's.
func TestHeldTreeKeepsItsRoom(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	pad := strings.Repeat(" ", 1<<20)
	held := fstest.MapFS{"a.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n" + pad)}}
	next := &limitsSeen{MapFS: fstest.MapFS{
		"one.json": {Data: []byte(`{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}` + pad)},
	}, opened: map[string]int64{}, read: map[string]int64{}}
	prepare := func(fsys fs.FS, name string) *Prepared {
		t.Helper()
		out, err := os.CreateTemp(t.TempDir(), "out")
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		p, err := Prepare(context.Background(), fsys, name, PrepareOptions{Bundle: true}, out)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := prepare(held, "a.yaml")
	second := prepare(next, "one.json")
	want := memlimit.Floor + memoryPerByte*int64(len(held["a.yaml"].Data)+len(next.MapFS["one.json"].Data))
	if got := next.read["one.json"]; got != want {
		t.Errorf("limit while the second was read: %d, want %d (room for both)", got, want)
	}
	second.Release()
	first.Release()
	if got := memlimit.Limit(); got != math.MaxInt64 {
		t.Errorf("limit once both are released: %d, want none, as before", got)
	}
}
