package unzip

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type entry struct {
	name string
	body string
	mode os.FileMode
}

func makeZip(t testing.TB, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	zw.Close()
	return buf.Bytes()
}

func write(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "site.zip")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExtract(t *testing.T) {
	t.Parallel()
	src := write(t, makeZip(t, []entry{{name: "index.html", body: "<h1>hi</h1>"}, {name: "assets/"}, {name: "assets/app.js", body: "x", mode: 0o777}}))
	dir := filepath.Join(t.TempDir(), "site")
	st, err := Extract(src, dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 2 || st.Bytes != int64(len("<h1>hi</h1>")+1) {
		t.Errorf("stats %+v", st)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if string(b) != "<h1>hi</h1>" {
		t.Errorf("index.html = %q", b)
	}
	fi, _ := os.Stat(filepath.Join(dir, "assets", "app.js"))
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("app.js mode %v, want 0644 whatever the archive says", fi.Mode().Perm())
	}
}

func TestExtractRefuses(t *testing.T) {
	t.Parallel()
	bomb := strings.Repeat("0", 3<<20) // compresses to a few KiB
	cases := []struct {
		name    string
		entries []entry
		limits  Limits
		want    string
	}{
		{"zip slip", []entry{{name: "ok.html", body: "x"}, {name: "../../evil.sh", body: "x"}}, DefaultLimits, "climbs out"},
		{"zip slip inside", []entry{{name: "a/../../evil", body: "x"}}, DefaultLimits, "climbs out"},
		{"absolute path", []entry{{name: "/etc/passwd", body: "x"}}, DefaultLimits, "absolute"},
		{"backslash path", []entry{{name: `..\evil`, body: "x"}}, DefaultLimits, "malformed"},
		{"symlink", []entry{{name: "link", body: "/etc/passwd", mode: os.ModeSymlink | 0o777}}, DefaultLimits, "symbolic link"},
		{"bomb by size", []entry{{name: "big.txt", body: bomb}}, Limits{MaxFiles: 10, MaxBytes: 1 << 20}, "size limit"},
		{"bomb by count", []entry{{name: "a", body: "1"}, {name: "b", body: "2"}, {name: "c", body: "3"}}, Limits{MaxFiles: 2, MaxBytes: 1 << 20}, "more than 2 files"},
		{"duplicate entry", []entry{{name: "a", body: "1"}, {name: "a", body: "2"}}, DefaultLimits, "twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := write(t, makeZip(t, tc.entries))
			parent := t.TempDir()
			dir := filepath.Join(parent, "site")
			_, err := Extract(src, dir, tc.limits)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if left, _ := os.ReadDir(parent); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

func TestExtractIntoNonEmptyDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644)
	_, err := Extract(write(t, makeZip(t, []entry{{name: "index.html", body: "x"}})), dir, DefaultLimits)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "mine" {
		t.Error("the existing directory was touched")
	}
}

// FuzzExtract: whatever the archive, nothing is written outside the target
// directory and a failure leaves nothing at all.
func FuzzExtract(f *testing.F) {
	f.Add(makeZip(f, []entry{{name: "index.html", body: "x"}, {name: "a/b.css", body: "y"}}))
	f.Add(makeZip(f, []entry{{name: "../x", body: "x"}}))
	f.Add(makeZip(f, []entry{{name: "l", body: "t", mode: os.ModeSymlink}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		parent := t.TempDir()
		src := filepath.Join(t.TempDir(), "in.zip")
		os.WriteFile(src, data, 0o644)
		dir := filepath.Join(parent, "site")
		_, err := Extract(src, dir, Limits{MaxFiles: 50, MaxBytes: 1 << 20})
		entries, _ := os.ReadDir(parent)
		if err != nil && len(entries) != 0 {
			t.Fatalf("failed extraction left %v", entries)
		}
		if err == nil && (len(entries) != 1 || entries[0].Name() != "site") {
			t.Fatalf("extraction wrote outside its directory: %v", entries)
		}
	})
}
