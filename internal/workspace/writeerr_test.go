package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBeforeWriting: what would stop a write is found before it, with
// the kind of obstacle, and the checks leave the workspace as they found it.
func TestCheckBeforeWriting(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("n", 300) // longer than a file name may be
	cases := []struct {
		name   string
		folder bool // CheckFolder, else CheckFile
		want   any  // a pointer to the error type wanted, nil for none
	}{
		{name: "new.zip"},
		{name: "new/deeper/site.zip"},
		{name: "api/openapi.yaml"}, // an existing file is replaced
		{name: "api", want: new(*IsFolderError)},
		{name: "api/openapi.yaml/x.zip", want: new(*NotFolderError)},
		{name: "api/openapi.yaml/deeper/x.zip", want: new(*NotFolderError)},
		{name: long + ".zip", want: new(*WriteError)},
		{name: "new/" + long + "/x.zip", want: new(*WriteError)},
		{name: "out/x.zip", want: new(*OutsideError)},
		{name: "site", folder: true},
		{name: "new/site", folder: true},
		{name: "api", folder: true}, // whether it is empty is IsEmptyOrAbsent's to say
		{name: "api/openapi.yaml/site", folder: true, want: new(*NotFolderError)},
		{name: long, folder: true, want: new(*WriteError)},
	}
	w, _ := setup(t)
	before := tree(t, w.Dir())
	for _, tc := range cases {
		check := w.CheckFile
		if tc.folder {
			check = w.CheckFolder
		}
		err := check(tc.name)
		switch {
		case tc.want == nil && err != nil:
			t.Errorf("check %.40s: %v", tc.name, err)
		case tc.want != nil && !errors.As(err, tc.want):
			t.Errorf("check %.40s: %v (%T), want a %T", tc.name, err, err, tc.want)
		}
		if err != nil {
			noSyscall(t, err)
		}
	}
	if after := tree(t, w.Dir()); after != before {
		t.Errorf("the checks changed the workspace:\n%s\nwas\n%s", after, before)
	}
}

// TestWriteOverAFolderSaysSo: a folder that appears where a file is being
// written is named in words, not as the system call that failed.
func TestWriteOverAFolderSaysSo(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	f, err := w.Create("out.zip")
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(w.Dir(), "out.zip", "x"), 0o755))
	err = f.Commit()
	var we *WriteError
	if !errors.As(err, &we) || !strings.Contains(err.Error(), "out.zip cannot be written: a folder") {
		t.Fatalf("commit over a folder: %v (%T)", err, err)
	}
	noSyscall(t, err)
	if we.Unwrap() == nil {
		t.Errorf("the cause is lost: %v", err)
	}
}

func noSyscall(t *testing.T, err error) {
	t.Helper()
	for _, call := range []string{"renameat", "openat", "mkdirat", "unlinkat", "rename ", "open ", "mkdir ", "stat "} {
		if strings.Contains(err.Error(), call) {
			t.Errorf("%q names the system call %q", err, call)
		}
	}
}

// tree lists every path below dir.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		b.WriteString(p + "\n")
		return nil
	})
	return b.String()
}
