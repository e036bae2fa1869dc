package workspace

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestFolderInTheTargetsPlaceStays: a folder put at the target after
// replaceFile looked at it (a file then) is put back whole, and the commit
// says a folder is in the way, leaving no temporary file behind.
func TestFolderInTheTargetsPlaceStays(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	target := filepath.Join(w.Dir(), "api", "bundle.json")
	must(t, os.WriteFile(target, []byte("old"), 0o644))
	f, err := w.Create("api/bundle.json")
	must(t, err)
	io.WriteString(f, `{"new":true}`)
	w.beforeExchange = func() {
		must(t, os.Remove(target))
		must(t, os.MkdirAll(filepath.Join(target, "kept"), 0o755))
	}
	err = f.Commit()
	var we *WriteError
	if !errors.As(err, &we) {
		t.Fatalf("commit over a folder that took the file's place: %v (%T)", err, err)
	}
	noSyscall(t, err)
	if st, err := os.Stat(filepath.Join(target, "kept")); err != nil || !st.IsDir() {
		t.Errorf("the folder is not back at the target: %v, %v", st, err)
	}
	entries, _ := os.ReadDir(filepath.Join(w.Dir(), "api"))
	if len(entries) != 2 { // openapi.yaml and the folder bundle.json
		t.Errorf("api holds %v", entries)
	}
}
