package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxDownloadSizeIsABound: a build of exactly max-download-size is
// saved; one byte more is refused, saying the size and the input to raise,
// and no zip is left behind.
func TestMaxDownloadSizeIsABound(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	cfg := flowConfig(t, emu.URL())
	cfg.Download = true
	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil || res.ZipSize < 2 {
		t.Fatalf("%v, %d bytes\n%s", err, res.ZipSize, rep.log())
	}
	size := res.ZipSize
	for _, tc := range []struct {
		max   int64
		saved bool
	}{{size, true}, {size - 1, false}} {
		emu := startEmulator(t, nil)
		cfg := flowConfig(t, emu.URL())
		cfg.Download, cfg.MaxDownload = true, ByteSize(tc.max)
		res, rep, err := runFlow(t, cfg, Options{})
		_, statErr := os.Stat(filepath.Join(cfg.Workspace, "docs-build-1001.zip"))
		switch {
		case tc.saved && (err != nil || res.ZipSize != size || statErr != nil):
			t.Errorf("max-download-size %d: %v, %d bytes saved\n%s", tc.max, err, res.ZipSize, rep.log())
		case !tc.saved && (err == nil || !strings.Contains(err.Error(), "more than max-download-size") || statErr == nil):
			t.Errorf("max-download-size %d for a build of %d bytes: %v, zip left: %v", tc.max, size, err, statErr == nil)
		}
	}
}
