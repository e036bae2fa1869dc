package publish

import (
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/docsapi"
)

func TestDefaultFileName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"openapi.json":       "openapi.yml",
		"api/openapi.yaml":   "openapi.yml",
		"specs/v2/books.yml": "books.yml",
		"swagger":            "swagger.yml",
		"my.api.spec.json":   "my.api.spec.yml",
	} {
		if got := defaultFileName(in); got != want {
			t.Errorf("defaultFileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckSegment(t *testing.T) {
	t.Parallel()
	ok := []string{"openapi.yml", "specs/openapi.yml", "a b#c?d.yml", "..yml", "v1..2.yml"}
	bad := []string{"..", "../x.yml", "a/../b.yml", "a/..", `a\..\b`, "./x.yml", "", "a\nb"}
	for _, v := range ok {
		if err := checkSegment("file-name", v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	for _, v := range bad {
		if err := checkSegment("file-name", v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}

func TestCheckAPIURL(t *testing.T) {
	t.Parallel()
	ok := []string{"https://api.example.com", "https://api.example.com/v1/", "http://127.0.0.1:8080/v1", "http://localhost:9", "http://[::1]:80"}
	bad := []string{"api.example.com", "ftp://x", "http://api.example.com", "https://user:pw@api.example.com", "https://x/?a=b", "http://127.0.0.1.example.com"}
	for _, v := range ok {
		if _, err := checkAPIURL(v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	for _, v := range bad {
		if _, err := checkAPIURL(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}

func TestChooseDoc(t *testing.T) {
	t.Parallel()
	one := []docsapi.Doc{{ID: "17"}}
	two := []docsapi.Doc{{ID: "17", Domain: "a.example"}, {ID: "9007199254740993"}}
	cases := []struct {
		name string
		docs []docsapi.Doc
		want string
		id   string
		err  string
	}{
		{"only doc", one, "", "17", ""},
		{"given and listed", two, "9007199254740993", "9007199254740993", ""},
		{"none", nil, "", "", "has no docs"},
		{"several", two, "", "", "set doc-id to one of: 17 (a.example), 9007199254740993"},
		{"given, not listed", two, "18", "", "doc-id 18 is not a doc of this project: set doc-id to one of: 17 (a.example)"},
		{"given, none listed", nil, "18", "", "which has no docs"},
	}
	for _, tc := range cases {
		d, err := chooseDoc(tc.docs, tc.want, "p")
		if string(d.ID) != tc.id || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: chooseDoc = %q, %v", tc.name, d.ID, err)
		}
	}
}

func TestByteSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"1GiB": 1 << 30, "500MiB": 500 << 20, "10MB": 10_000_000, "2048": 2048, "1 gib": 1 << 30} {
		var b ByteSize
		if err := b.EnvDecode(in); err != nil || int64(b) != want {
			t.Errorf("%q = %d, %v", in, b, err)
		}
	}
	for _, in := range []string{"", "-1", "lots", "1TB", "0"} {
		var b ByteSize
		if err := b.EnvDecode(in); err == nil {
			t.Errorf("%q accepted as %d", in, b)
		}
	}
}

func TestDefaultCommitMessage(t *testing.T) {
	t.Parallel()
	c := Config{Repository: "o/r", SHA: "0123456789abcdef", ServerURL: "https://github.com/", RunID: "9"}
	if got, want := c.defaultCommitMessage("openapi.yml"), "Update openapi.yml from o/r@0123456 (https://github.com/o/r/actions/runs/9)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (&Config{}).defaultCommitMessage("x.yml"); got != "Update x.yml with docs-publish" {
		t.Errorf("off GitHub: %q", got)
	}
}
