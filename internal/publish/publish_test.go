package publish

import (
	"errors"
	"fmt"
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

// TestValueKinds: each kind of input value reads what workflows write, and
// refuses anything else with a *ValueError that says what to write.
func TestValueKinds(t *testing.T) {
	t.Parallel()
	type decoder interface{ EnvDecode(string) error }
	cases := []struct {
		kind string
		new  func() decoder
		ok   map[string]string // value → what it reads as
		bad  []string
		want string
	}{
		{"bool", func() decoder { return new(Bool) }, map[string]string{"true": "true", "FALSE": "false", " true ": "true"}, []string{"", "yes", "1", "maybe", "on"}, "true or false"},
		{"duration", func() decoder { return new(Duration) }, map[string]string{"10m": "10m0s", "90s": "1m30s", "0": "0s", "1h30m": "1h30m0s"}, []string{"", "10", "soon", "-1m"}, "a duration such as 90s"},
		{"size", func() decoder { return new(ByteSize) }, map[string]string{"1GiB": "1GiB", "500MiB": "500MiB", "10MB": "10000000 bytes", "2048": "2048 bytes", "1 gib": "1GiB"}, []string{"", "-1", "lots", "1TB", "0"}, "a size such as 1GiB"},
	}
	for _, tc := range cases {
		for in, want := range tc.ok {
			d := tc.new()
			if err := d.EnvDecode(in); err != nil || fmt.Sprint(reflectValue(d)) != want {
				t.Errorf("%s %q = %v, %v; want %s", tc.kind, in, reflectValue(d), err, want)
			}
		}
		for _, in := range tc.bad {
			var ve *ValueError
			if err := tc.new().EnvDecode(in); !errors.As(err, &ve) || ve.Value != in || !strings.Contains(ve.Error(), tc.want) {
				t.Errorf("%s %q: %v, want a *ValueError saying %q", tc.kind, in, err, tc.want)
			}
		}
	}
}

// reflectValue is what a decoder pointer points at.
func reflectValue(d any) any {
	switch v := d.(type) {
	case *Bool:
		return bool(*v)
	case *Duration:
		return *v
	case *ByteSize:
		return *v
	}
	return d
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
