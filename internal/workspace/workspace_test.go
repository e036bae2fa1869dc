package workspace

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// setup makes a workspace beside a secret file outside it, with links that
// lead out.
func setup(t *testing.T) (*Workspace, string) {
	t.Helper()
	base := t.TempDir()
	dir, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, "api"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("OUTSIDE-SECRET"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "api", "openapi.yaml"), []byte("openapi: 3.0.0\n"), 0o644))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "abs-link")))
	must(t, os.Symlink("../outside/secret", filepath.Join(dir, "rel-link")))
	must(t, os.Symlink("../outside", filepath.Join(dir, "out")))
	must(t, os.Symlink("api/openapi.yaml", filepath.Join(dir, "inside-link")))
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	cases := []struct{ in, want string }{
		{"api/openapi.yaml", "api/openapi.yaml"},
		{"./api/../api/openapi.yaml", "api/openapi.yaml"},
		{filepath.Join(w.Dir(), "site"), "site"},
		{".", "."},
		{"..a.zip", "..a.zip"},
		{"../x", ""},
		{"api/../../x", ""},
		{"/etc/passwd", ""},
	}
	for _, tc := range cases {
		got, err := w.Path(tc.in)
		var oe *OutsideError
		if got != tc.want || (tc.want == "") != errors.As(err, &oe) {
			t.Errorf("Path(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestRealPath(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	must(t, os.MkdirAll(filepath.Join(w.Dir(), ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(w.Dir(), ".git", "config"), nil, 0o644))
	must(t, os.Symlink("../.git", filepath.Join(w.Dir(), "api", "docs")))
	must(t, os.Symlink("docs/config", filepath.Join(w.Dir(), "api", "cfg.yaml")))
	cases := []struct{ in, want string }{
		{"api/openapi.yaml", "api/openapi.yaml"},
		{"inside-link", "api/openapi.yaml"},
		{"api/docs/config", ".git/config"},
		{"api/cfg.yaml", ".git/config"},
		{"abs-link", ""},
		{"rel-link", ""},
		{"out/secret", ""},
	}
	for _, tc := range cases {
		got, err := w.RealPath(tc.in)
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("RealPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestWritesStayInside: a file or folder written through a linked folder
// that points out is refused, and nothing is written outside.
func TestWritesStayInside(t *testing.T) {
	t.Parallel()
	w, outside := setup(t)
	if err := w.WriteFile("out/bundle.json", []byte("{}")); !errors.As(err, new(*OutsideError)) {
		t.Errorf("write through a link out: %v", err)
	}
	if _, err := w.CreateDir("out/site"); !errors.As(err, new(*OutsideError)) {
		t.Errorf("folder through a link out: %v", err)
	}
	for name, outside := range map[string]bool{"out/site.zip": true, "out/new/deeper/site.zip": true, "new/site.zip": false, "api/x.zip": false, "rel-link": false} {
		if err := w.CheckWritable(name); errors.As(err, new(*OutsideError)) != outside {
			t.Errorf("CheckWritable(%s) = %v", name, err)
		}
	}
	// Writing over a link replaces the link; the file it pointed to stays.
	must(t, w.WriteFile("rel-link", []byte("new")))
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "OUTSIDE-SECRET" {
		t.Errorf("the file outside became %q", b)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("written outside: %v", entries)
	}
}

func TestAtomicFile(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	must(t, w.WriteFile("build/bundle.json", []byte(`{"a":1}`)))
	st, err := os.Stat(filepath.Join(w.Dir(), "build", "bundle.json"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("written file: %v, %v", st, err)
	}
	f, err := w.Create("build/site.zip")
	must(t, err)
	io.WriteString(f, "half")
	f.Abort()
	entries, _ := os.ReadDir(filepath.Join(w.Dir(), "build"))
	if len(entries) != 1 {
		t.Errorf("an aborted file left %v", entries)
	}
}

func TestAtomicDir(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	must(t, os.Mkdir(filepath.Join(w.Dir(), "site"), 0o700)) // empty: may be replaced
	d, err := w.CreateDir("site")
	must(t, err)
	must(t, d.Root.MkdirAll("assets/css", 0o700))
	must(t, d.Root.WriteFile("assets/css/a.css", []byte("a{}"), 0o600))
	if _, err := os.Stat(filepath.Join(w.Dir(), "site", "assets")); err == nil {
		t.Error("the folder appeared before Commit")
	}
	must(t, d.Commit())
	for p, want := range map[string]fs.FileMode{"site": 0o755, "site/assets": 0o755, "site/assets/css": 0o755, "site/assets/css/a.css": 0o644} {
		st, err := os.Stat(filepath.Join(w.Dir(), p))
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: %v, want mode %v (%v)", p, st.Mode(), want, err)
		}
	}
	d2, err := w.CreateDir("site")
	must(t, err)
	if err := d2.Commit(); err == nil {
		t.Error("a folder replaced a non-empty one")
	}
	entries, _ := os.ReadDir(w.Dir())
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".part" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestKeptFileReadsWhatWasWritten: a kept file is in place, and reads back
// what was written even when its target is replaced afterwards.
func TestKeptFileReadsWhatWasWritten(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	f, err := w.Create("build/bundle.json")
	must(t, err)
	io.WriteString(f, `{"a":1}`)
	must(t, f.Keep())
	defer f.Close()
	must(t, w.WriteFile("build/bundle.json", []byte("changed"))) // a new file in its place
	got, err := io.ReadAll(io.NewSectionReader(f, 0, 7))
	if err != nil || string(got) != `{"a":1}` {
		t.Errorf("read back %q, %v", got, err)
	}
	st, err := os.Stat(filepath.Join(w.Dir(), "build"))
	must(t, err)
	entries, _ := os.ReadDir(filepath.Join(w.Dir(), "build"))
	if len(entries) != 1 || !st.IsDir() {
		t.Errorf("build holds %v", entries)
	}
}

// TestScratchLeavesNothing: a scratch file can be written and read, and no
// entry of the workspace leads to it, before or after it is closed.
func TestScratchLeavesNothing(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	before, _ := os.ReadDir(w.Dir())
	f, err := w.Scratch()
	must(t, err)
	io.WriteString(f, "scratch")
	got, err := io.ReadAll(io.NewSectionReader(f, 0, 7))
	if err != nil || string(got) != "scratch" {
		t.Errorf("read back %q, %v", got, err)
	}
	during, _ := os.ReadDir(w.Dir())
	f.Close()
	after, _ := os.ReadDir(w.Dir())
	if len(during) != len(before) || len(after) != len(before) {
		t.Errorf("the workspace held %d entries, then %d while the scratch file was open, %d after", len(before), len(during), len(after))
	}
}

// TestCommitReplacesAFile: a file committed over one at its target takes
// its place whole (content and mode), the old one goes without a trace,
// and whoever had the old one open still reads it.
func TestCommitReplacesAFile(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		old  string // what is at the target before, "" for nothing
	}{
		{"over a file", "old content"},
		{"over an empty file", "-"},
		{"where nothing is", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, _ := setup(t)
			target := filepath.Join(w.Dir(), "api", "bundle.json")
			var held *os.File
			if tc.old != "" {
				old := strings.TrimPrefix(tc.old, "-")
				must(t, os.WriteFile(target, []byte(old), 0o600))
				var err error
				held, err = os.Open(target)
				must(t, err)
				defer held.Close()
			}
			f, err := w.Create("api/bundle.json")
			must(t, err)
			io.WriteString(f, `{"new":true}`)
			must(t, f.Commit())
			got, err := os.ReadFile(target)
			if err != nil || string(got) != `{"new":true}` {
				t.Errorf("the target holds %q, %v", got, err)
			}
			if st, err := os.Stat(target); err != nil || st.Mode().Perm() != 0o644 {
				t.Errorf("the target: %v, %v", st, err)
			}
			entries, _ := os.ReadDir(filepath.Join(w.Dir(), "api"))
			if len(entries) != 2 { // openapi.yaml and bundle.json
				t.Errorf("api holds %v", entries)
			}
			if held != nil {
				if b, err := io.ReadAll(held); err != nil || string(b) != strings.TrimPrefix(tc.old, "-") {
					t.Errorf("the old file, open before, reads %q, %v", b, err)
				}
			}
		})
	}
}

// TestAbortRemovesTheFoldersItMade: a file or folder dropped before it is
// committed takes with it the folders made for it, and only those: one
// that was there before, or that another writer has used since, stays.
func TestAbortRemovesTheFoldersItMade(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		target string
		dir    bool   // CreateDir, else Create
		other  string // a file another writer puts meanwhile, "" for none
		gone   []string
		kept   []string
	}{
		{"a file in new folders", "dl/deep/site.zip", false, "", []string{"dl"}, []string{"api"}},
		{"a file in a folder there before", "api/new/b.json", false, "", []string{"api/new"}, []string{"api"}},
		{"a folder in new folders", "built/site/html", true, "", []string{"built"}, nil},
		{"a folder another writer used", "dl/deep/site.zip", false, "dl/other.json", []string{"dl/deep"}, []string{"dl", "dl/other.json"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, _ := setup(t)
			var abort func()
			if tc.dir {
				d, err := w.CreateDir(tc.target)
				must(t, err)
				abort = d.Abort
			} else {
				f, err := w.Create(tc.target)
				must(t, err)
				io.WriteString(f, "half")
				abort = f.Abort
			}
			if tc.other != "" {
				must(t, w.WriteFile(tc.other, []byte("{}")))
			}
			abort()
			for _, p := range tc.gone {
				if _, err := os.Lstat(filepath.Join(w.Dir(), p)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s is left after the abort (%v)", p, err)
				}
			}
			for _, p := range tc.kept {
				if _, err := os.Lstat(filepath.Join(w.Dir(), p)); err != nil {
					t.Errorf("%s went with the abort: %v", p, err)
				}
			}
		})
	}
}

// TestReadNamesEveryFileOpened: Read lists each file opened or described
// through FS, once; a file refused or missing is not listed, nor one
// opened with Open or described with Stat (the run's own files).
func TestReadNamesEveryFileOpened(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	must(t, os.WriteFile(filepath.Join(w.Dir(), "api", "common.yaml"), []byte("a: 1\n"), 0o644))
	for _, name := range []string{"api/openapi.yaml", "api/common.yaml", "api/openapi.yaml", "missing.yaml", "rel-link", "inside-link"} {
		if f, err := w.FS().Open(name); err == nil {
			f.Close()
		}
	}
	// Described through FS, as a $ref left as written is: listed too.
	must(t, os.WriteFile(filepath.Join(w.Dir(), "api", "stated.yaml"), []byte("a: 1\n"), 0o644))
	for _, name := range []string{"api/stated.yaml", "missing-too.yaml", "api"} {
		fs.Stat(w.FS(), name)
	}
	must(t, os.WriteFile(filepath.Join(w.Dir(), "report.json"), []byte("{}"), 0o644))
	f, err := w.Open("report.json")
	must(t, err)
	f.Close()
	if _, err := w.Stat("report.json"); err != nil {
		t.Fatal(err)
	}
	if got, want := w.Read(), []string{"api/common.yaml", "api/openapi.yaml", "api/stated.yaml", "inside-link"}; !slices.Equal(got, want) {
		t.Errorf("Read() = %q, want %q", got, want)
	}
}

// TestFoldersSharedByWriters: a new folder two writers share, through one
// Workspace or two of the same folder (Another), goes with the last of
// their entries dropped, whichever made it; one that holds a committed
// file stays.
func TestFoldersSharedByWriters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		another     bool // the second writer's Workspace is Another's
		makerFirst  bool // the writer that made the folder drops first
		commitOther bool // the second writer commits
	}{
		{"one workspace, the maker drops first", false, true, false},
		{"one workspace, the maker drops last", false, false, false},
		{"two of one folder, the maker drops first", true, true, false},
		{"two of one folder, the maker drops last", true, false, false},
		{"two of one folder, the other commits", true, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, _ := setup(t)
			w2 := w
			if tc.another {
				var err error
				w2, err = w.Another()
				must(t, err)
				t.Cleanup(func() { w2.Close() })
			}
			a, err := w.Create("built/deep/a.json")
			must(t, err)
			b, err := w2.Create("built/deep/b.json")
			must(t, err)
			first, last := a, b
			if !tc.makerFirst {
				first, last = b, a
			}
			first.Abort()
			if tc.commitOther {
				must(t, last.Commit())
			} else {
				last.Abort()
			}
			_, err = os.Lstat(filepath.Join(w.Dir(), "built"))
			if tc.commitOther {
				if err != nil {
					t.Errorf("built went with a file committed in it: %v", err)
				}
				return
			}
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("built is left after both writers dropped their files (%v)", err)
			}
		})
	}
}

// TestDropSparesAFolderAboutToBeUsed: a writer that found its folder
// there creates its file in it, though another writer drops the last
// entry of that folder meanwhile.
func TestDropSparesAFolderAboutToBeUsed(t *testing.T) {
	t.Parallel()
	w, _ := setup(t)
	w2, err := w.Another()
	must(t, err)
	defer w2.Close()
	a, err := w.Create("built/a.json")
	must(t, err)
	dropped := make(chan struct{})
	w2.beforeCreate = func() {
		// The drop waits for the creation; were it not to, it would
		// remove built before the file is made in it. A wait bounded
		// by time: a drop slower than that passes unseen, never fails.
		go func() { a.Abort(); close(dropped) }()
		select {
		case <-dropped:
		case <-time.After(100 * time.Millisecond):
		}
	}
	b, err := w2.Create("built/b.json")
	if err != nil {
		t.Fatalf("create in a folder another writer dropped its file from: %v", err)
	}
	<-dropped
	must(t, b.Commit())
	if _, err := os.Stat(filepath.Join(w.Dir(), "built", "b.json")); err != nil {
		t.Error(err)
	}
}
