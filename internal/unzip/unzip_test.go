package unzip

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/namerule"
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
		// One entry in the archive, more entries on disk: the folders a
		// path implies count against the cap, whether the entry is a file
		// or a folder.
		{"bomb by the folders a folder entry implies", []entry{{name: "a/b/c/d/e/"}}, Limits{MaxEntries: 4, MaxBytes: 1 << 20}, "more than 4"},
		{"bomb by a file and its folder", []entry{{name: "a/f", body: "x"}}, Limits{MaxEntries: 1, MaxBytes: 1 << 20}, "more than 1"},
		{"bomb by size over several files", []entry{{name: "a", body: "123456"}, {name: "b", body: "123456"}}, Limits{MaxEntries: 10, MaxBytes: 10}, "size limit"},
		{"one byte over the size limit", []entry{{name: "a", body: "12345678901"}}, Limits{MaxEntries: 10, MaxBytes: 10}, "size limit"},
		{"a path one folder too deep", []entry{{name: strings.Repeat("d/", 65) + "f", body: "x"}}, DefaultLimits, "deeper than 64"},
		{"a path one byte too long", []entry{{name: longPath(1025), body: "x"}}, DefaultLimits, "longer than 1024"},
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

// TestExtractUpToTheLimits: an archive exactly at a limit is extracted
// whole; the limits refuse only what is over them.
func TestExtractUpToTheLimits(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("d/", 64) + "f"
	long := longPath(1024)
	cases := []struct {
		name    string
		entries []entry
		limits  Limits
		want    Stats
		file    string // a file that must be there, with the last entry's body
	}{
		{"as many entries as the cap", []entry{{name: "a", body: "1"}, {name: "b", body: "2"}}, Limits{MaxEntries: 2, MaxBytes: 10}, Stats{Files: 2, Bytes: 2}, "b"},
		{"a file whose folders fill the cap", []entry{{name: "a/b/c/f", body: "1"}}, Limits{MaxEntries: 4, MaxBytes: 10}, Stats{Files: 1, Dirs: 3, Bytes: 1}, "a/b/c/f"},
		{"a folder entry whose folders fill the cap", []entry{{name: "a/b/c/d/"}, {name: "a/b/c/d/f", body: "1"}}, Limits{MaxEntries: 5, MaxBytes: 10}, Stats{Files: 1, Dirs: 4, Bytes: 1}, "a/b/c/d/f"},
		{"exactly the size limit, over two files", []entry{{name: "a", body: "12345"}, {name: "b", body: "67890"}}, Limits{MaxEntries: 10, MaxBytes: 10}, Stats{Files: 2, Bytes: 10}, "b"},
		{"a path 64 folders deep", []entry{{name: deep, body: "x"}}, DefaultLimits, Stats{Files: 1, Dirs: 64, Bytes: 1}, deep},
		{"a path of 1024 bytes", []entry{{name: long, body: "x"}}, DefaultLimits, Stats{Files: 1, Dirs: strings.Count(long, "/"), Bytes: 1}, long},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st, parent, err := extract(t, makeZip(t, tc.entries), tc.limits)
			if err != nil {
				t.Fatal(err)
			}
			if st != tc.want {
				t.Errorf("stats %+v, want %+v", st, tc.want)
			}
			b, err := os.ReadFile(filepath.Join(parent, "site", filepath.FromSlash(tc.file)))
			if want := tc.entries[len(tc.entries)-1].body; err != nil || string(b) != want {
				t.Errorf("%s = %q, %v; want %q", tc.file, b, err, want)
			}
		})
	}
}

// TestExtractRefusesCorruptData: an entry whose data does not match its
// checksum (a download damaged on the way) is an error, not a file quietly
// written with what came out.
func TestExtractRefusesCorruptData(t *testing.T) {
	t.Parallel()
	body := "<h1>the page as it was published</h1>"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "index.html", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(body))
	zw.Close()
	data := buf.Bytes()
	i := bytes.Index(data, []byte(body))
	data[i] ^= 0x20 // the stored "<" becomes 0x1c: same length, another checksum

	_, _, err = extract(t, data, DefaultLimits)
	if !errors.Is(err, zip.ErrChecksum) || !strings.Contains(err.Error(), "index.html") {
		t.Fatalf("error %v, want zip.ErrChecksum naming index.html", err)
	}
}

// longPath is a relative path of n bytes, in folders whose names fit any
// file system (255 bytes).
func longPath(n int) string {
	var segs []string
	for n > 0 {
		seg := min(200, n)
		if n-seg == 1 { // no one-byte remainder: it would need an empty name after the slash
			seg--
		}
		segs = append(segs, strings.Repeat(string(rune('a'+len(segs))), seg))
		n -= seg + 1
	}
	return strings.Join(segs, "/")
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

// TestCheckNames: a name check refuses the zip before anything is written,
// with the check's error and the entry's number, never its name; it sees
// the name as the zip holds it and as it would be written.
func TestCheckNames(t *testing.T) {
	t.Parallel()
	errRefused := errors.New("refused by the check")
	noSecret := func(name string) error {
		if strings.Contains(name, "s3cret/x") {
			return errRefused
		}
		return nil
	}
	cases := []struct {
		name    string
		entries []entry
		refused string // "" when the zip is unpacked
	}{
		{name: "no name holds it", entries: []entry{{name: "index.html"}, {name: "s3cret.js"}}},
		{name: "a file's path holds it", entries: []entry{{name: "index.html"}, {name: "s3cret/x.js"}},
			refused: "zip entry 2 of 2: refused by the check"},
		{name: "a folder entry holds it", entries: []entry{{name: "s3cret/x/", mode: os.ModeDir | 0o755}, {name: "index.html"}},
			refused: "zip entry 1 of 2: refused by the check"},
		{name: "only the cleaned path holds it", entries: []entry{{name: "index.html"}, {name: "a.html"}, {name: "s3cret/./x.js"}},
			refused: "zip entry 3 of 3: refused by the check"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := makeZip(t, tc.entries)
			dir := t.TempDir()
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			_, err = Extract(bytes.NewReader(data), int64(len(data)), root, DefaultLimits, CheckNames(noSecret))
			written, _ := os.ReadDir(dir)
			if tc.refused == "" {
				if err != nil || len(written) == 0 {
					t.Fatalf("error %v and %d entries written, want the zip unpacked", err, len(written))
				}
				return
			}
			if !errors.Is(err, errRefused) || err.Error() != tc.refused {
				t.Errorf("error %v, want %q wrapping the check's error", err, tc.refused)
			}
			if len(written) != 0 {
				t.Errorf("%d entries written before the refusal, want none", len(written))
			}
		})
	}
}

// TestExtractRefusesNames: a name with a hidden segment, a control, a
// line or paragraph separator, a bidirectional control or bytes that are
// not UTF-8 refuses the zip before anything is written, even when good
// entries come first; the error names the entry with every such character
// escaped.
func TestExtractRefusesNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, entry, want string
	}{
		{"a git config", ".git/config", `".git/config" names a hidden file or folder (".git")`},
		{"a workflow", ".github/workflows/x.yml", `(".github")`},
		{"two dots then a name", "..foo", `("..foo")`},
		{"a hidden folder deeper", "site/.well-known/x", `(".well-known")`},
		{"a hidden folder entry", "a/.ssh/", `(".ssh")`},
		{"a hidden file after a dot segment", "./.env", `(".env")`},
		{"a line feed", "a\nb.html", `"a\nb.html" is text holding the control character U+000A`},
		{"a carriage return", "a\rb", "U+000D"},
		{"ESC", "a\x1b[31mb", `"a\x1b[31mb"`},
		{"a tab", "a\tb", "U+0009"},
		{"NUL", "a\x00b", "U+0000"},
		{"DEL", "a\x7fb", "U+007F"},
		{"a C1 control (NEL)", "a\u0085b", `"a\u0085b"`},
		{"the last C1 control", "a\u009fb", "U+009F"},
		{"right-to-left override", "gnp.\u202eexe.html", `"gnp.\u202eexe.html" is text holding the control character U+202E`},
		{"left-to-right embedding", "a\u202ab", "U+202A"},
		{"right-to-left isolate", "a\u2067b", "U+2067"},
		{"pop directional isolate", "a\u2069b", "U+2069"},
		{"left-to-right mark", "a\u200eb", "U+200E"},
		{"right-to-left mark", "a\u200fb", "U+200F"},
		{"Arabic letter mark", "a\u061cb", "U+061C"},
		{"line separator", "a\u2028b", "U+2028"},
		{"paragraph separator", "a/b\u2029/c", "U+2029"},
		{"bytes that are not UTF-8", "a\xff.html", `"a\xff.html" is not valid UTF-8`},
		{"a lone surrogate's bytes", "a\xed\xa0\x80", "not valid UTF-8"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data := makeZip(t, []entry{{name: "index.html", body: "x"}, {name: "a/b.css", body: "y"}, {name: tc.entry, body: "z"}})
			_, parent, err := extract(t, data, DefaultLimits)
			var ne *NameError
			if !errors.As(err, &ne) || ne.Name != tc.entry {
				t.Fatalf("error %v, want a *NameError for %q", err, tc.entry)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, "zip entry 3 of 3 ") || !strings.Contains(msg, "nothing was extracted") {
				t.Errorf("error %q, want it to name entry 3 of 3, say %q and what to do", msg, tc.want)
			}
			if strings.ContainsFunc(msg, namerule.Control) || !utf8.ValidString(msg) {
				t.Errorf("error %q shows the name unescaped", msg)
			}
			if left, _ := os.ReadDir(filepath.Join(parent, "site")); len(left) != 0 {
				t.Errorf("written before the refusal: %v", left)
			}
		})
	}
}

// TestExtractKeepsOrdinaryNames: dots inside names, a leading "./", and
// letters of any script are names like any other.
func TestExtractKeepsOrdinaryNames(t *testing.T) {
	t.Parallel()
	names := []string{"./index.html", "a.b/c.d.html", "x..y", "dot./f", "café/üñî.html", "日本語/ページ.html", "a b/c=d.js"}
	var entries []entry
	for _, n := range names {
		entries = append(entries, entry{name: n, body: n})
	}
	_, parent, err := extract(t, makeZip(t, entries), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if b, err := os.ReadFile(filepath.Join(parent, "site", filepath.FromSlash(n))); err != nil || string(b) != n {
			t.Errorf("%s = %q, %v", n, b, err)
		}
	}
}
