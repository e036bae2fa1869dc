package openapi

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// loadBundle loads name from fsys within lim and bundles it (Bundle keeps
// Load's limits); a load error fails the test.
func loadBundle(t *testing.T, fsys fs.FS, name string, lim Limits) (*Node, error) {
	t.Helper()
	root, err := Load(context.Background(), fsys, name, lim)
	if err != nil {
		t.Fatal(err)
	}
	return Bundle(context.Background(), root, BundleOptions{FS: fsys})
}

// checkBound fails t unless err is nil where within, and elsewhere ErrLimit
// saying says. what names the case in the failure.
func checkBound(t *testing.T, err error, within bool, says, what string) {
	t.Helper()
	refused := errors.Is(err, ErrLimit) && strings.Contains(err.Error(), says)
	if refused == within || within && err != nil {
		t.Errorf("%s: %v, want %s", what, err, map[bool]string{true: "no error", false: "ErrLimit saying " + says}[within])
	}
}
