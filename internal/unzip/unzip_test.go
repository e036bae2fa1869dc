package unzip

import (
	"archive/zip"
	"bytes"
	"fmt"
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

// extract unpacks data into a fresh folder "site" under a fresh parent.
func extract(t *testing.T, data []byte, lim Limits) (Stats, string, error) {
	t.Helper()
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	st, err := Extract(bytes.NewReader(data), int64(len(data)), root, lim)
	return st, parent, err
}

func TestExtract(t *testing.T) {
	t.Parallel()
	data := makeZip(t, []entry{{name: "index.html", body: "<h1>hi</h1>"}, {name: "assets/"}, {name: "assets/app.js", body: "x", mode: 0o777}})
	st, parent, err := extract(t, data, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 2 || st.Dirs != 1 || st.Bytes != int64(len("<h1>hi</h1>")+1) { // assets/ once, though app.js is in it too
		t.Errorf("stats %+v", st)
	}
	b, _ := os.ReadFile(filepath.Join(parent, "site", "index.html"))
	if string(b) != "<h1>hi</h1>" {
		t.Errorf("index.html = %q", b)
	}
	fi, _ := os.Stat(filepath.Join(parent, "site", "assets", "app.js"))
	if fi.Mode()&0o111 != 0 {
		t.Errorf("app.js mode %v: executable because the archive says so", fi.Mode().Perm())
	}
}

func TestExtractRefuses(t *testing.T) {
	t.Parallel()
	bomb := strings.Repeat("0", 3<<20) // compresses to a few KiB
	var dirs []entry
	for i := range 5 {
		dirs = append(dirs, entry{name: fmt.Sprintf("d%d/", i)})
	}
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
		{"bomb by size", []entry{{name: "big.txt", body: bomb}}, Limits{MaxEntries: 10, MaxBytes: 1 << 20}, "size limit"},
		{"bomb by count", []entry{{name: "a", body: "1"}, {name: "b", body: "2"}, {name: "c", body: "3"}}, Limits{MaxEntries: 2, MaxBytes: 1 << 20}, "more than 2"},
		{"bomb by folders", dirs, Limits{MaxEntries: 4, MaxBytes: 1 << 20}, "more than 4"},
		{"bomb by implied folders", []entry{{name: strings.Repeat("d/", 20) + "f", body: "x"}}, Limits{MaxEntries: 10, MaxBytes: 1 << 20}, "more than 10"},
		{"a path too deep", []entry{{name: strings.Repeat("d/", 70) + "f", body: "x"}}, DefaultLimits, "deeper than 64"},
		{"a name too long", []entry{{name: strings.Repeat("n", 2000), body: "x"}}, DefaultLimits, "longer than 1024"},
		{"duplicate entry", []entry{{name: "a", body: "1"}, {name: "a", body: "2"}}, DefaultLimits, "twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, parent, err := extract(t, makeZip(t, tc.entries), tc.limits)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if left, _ := os.ReadDir(parent); len(left) != 1 {
				t.Errorf("written beside the folder: %v", left)
			}
		})
	}
}

// FuzzExtract: whatever the archive, nothing is written outside the target
// folder.
func FuzzExtract(f *testing.F) {
	f.Add(makeZip(f, []entry{{name: "index.html", body: "x"}, {name: "a/b.css", body: "y"}}))
	f.Add(makeZip(f, []entry{{name: "../x", body: "x"}}))
	f.Add(makeZip(f, []entry{{name: "l", body: "t", mode: os.ModeSymlink}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, parent, _ := extract(t, data, Limits{MaxEntries: 50, MaxBytes: 1 << 20})
		if entries, _ := os.ReadDir(parent); len(entries) != 1 || entries[0].Name() != "site" {
			t.Fatalf("extraction wrote outside its folder: %v", entries)
		}
	})
}
