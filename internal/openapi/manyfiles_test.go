package openapi

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestManySmallFilesLoadInBoundedMemory: 20,000 one-line files, each named
// by a $ref, cost memory in proportion to their size, not a large block of
// nodes each (which came to 360 KB a file, 7 GB in all). The heap the
// loaded, bundled description holds, and all that loading it allocated,
// are measured. Not parallel: other tests would count in the measure.
func TestManySmallFilesLoadInBoundedMemory(t *testing.T) {
	testenv.Long(t) // loads 20,000 files
	const files = 20_000
	fsys := fstest.MapFS{}
	var main strings.Builder
	main.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    S:\n      type: object\n      properties:\n")
	for i := range files {
		name := fmt.Sprintf("f/%05d.yaml", i)
		fmt.Fprintf(&main, "        p%d: {$ref: '%s'}\n", i, name)
		fsys[name] = &fstest.MapFile{Data: []byte("{type: string, maxLength: 9}\n")}
	}
	fsys["openapi.yaml"] = &fstest.MapFile{Data: []byte(main.String())}
	lim := Limits{Files: files + 1}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	root, err := Load(context.Background(), fsys, "openapi.yaml", lim)
	if err == nil {
		root, err = Bundle(context.Background(), root, BundleOptions{FS: fsys, Limits: lim})
	}
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d files: %d KB held, %d KB allocated (%d bytes held a file)", files, held>>10, allocated>>10, held/files)
	runtime.KeepAlive(root)
	if got := len(root.Get("components").Get("schemas").Fields); got != files+1 {
		t.Fatalf("%d schemas, want %d", got, files+1)
	}
	const heldPerFile, allocatedPerFile = 4 << 10, 64 << 10
	if held > files*heldPerFile {
		t.Errorf("the loaded description holds %d MB, more than %d KB a file", held>>20, heldPerFile>>10)
	}
	if allocated > files*allocatedPerFile {
		t.Errorf("loading allocated %d MB, more than %d KB a file", allocated>>20, allocatedPerFile>>10)
	}
}
