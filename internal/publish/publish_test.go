package publish

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

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
	unusable := docsapi.Doc{IDErr: &docsapi.IDError{Field: "docs[1].id", Reason: "text holding the control character U+000A"}}
	withBad := []docsapi.Doc{{ID: "17", Domain: "a.example"}, unusable, {ID: "b/98765 ä="}}
	var many []docsapi.Doc // more than an error lists
	for i := range 23 {
		many = append(many, docsapi.Doc{ID: docsapi.ID(fmt.Sprint(100 + i))})
	}
	cases := []struct {
		name  string
		docs  []docsapi.Doc
		want  string
		id    string
		err   string
		idErr bool // the error is the unusable doc's *docsapi.IDError
	}{
		{"only doc", one, "", "17", "", false},
		{"given and listed", two, "9007199254740993", "9007199254740993", "", false},
		{"none", nil, "", "", "has no docs", false},
		{"several", two, "", "", "set doc-id to one of: 17 (a.example), 9007199254740993", false},
		{"given, not listed", two, "18", "", "doc-id 18 is not a doc of this project: set doc-id to one of: 17 (a.example)", false},
		{"given, none listed", nil, "18", "", "which has no docs", false},
		{"given, beside a doc whose id cannot be used", withBad, "b/98765 ä=", "b/98765 ä=", "", false},
		{"several, one of them unusable", withBad, "", "", "has 3 docs and doc-id is empty: set doc-id to one of: 17 (a.example), b/98765 ä= (1 doc whose id docs-publish cannot use left out)", false},
		{"given, not listed, beside an unusable one", withBad, "18", "", "set doc-id to one of: 17 (a.example), b/98765 ä= (1 doc", false},
		{"more than are listed", many, "", "", "has 23 docs and doc-id is empty: set doc-id to one of: 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119 and 3 more", false},
		{"the only doc is unusable", []docsapi.Doc{unusable}, "", "", "the project's only doc has an id docs-publish cannot use: docs[1].id is text holding the control character U+000A", true},
	}
	// As many docs as an error lists: every one, and no "more".
	if _, err := chooseDoc(many[:maxListed], "", "p"); err == nil || !strings.HasSuffix(err.Error(), ", 118, 119") {
		t.Errorf("%d docs: %v", maxListed, err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := chooseDoc(tc.docs, tc.want, "p")
			if string(d.ID) != tc.id || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("chooseDoc = %q, %v; want %q, %q", d.ID, err, tc.id, tc.err)
			}
			var ie *docsapi.IDError
			if errors.As(err, &ie) != tc.idErr {
				t.Errorf("error %v: *docsapi.IDError in its chain: %v, want %v", err, !tc.idErr, tc.idErr)
			}
		})
	}
}

// TestHintForUnreachable: the advice for a host that cannot be reached
// follows the client's typed kind.
func TestHintForUnreachable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind docsapi.Unreachable
		want string
	}{
		{docsapi.Refused, "check api-url (its host and port) and that the service is up"},
		{docsapi.NoRoute, "check api-url (its host and port) and that the service is up"},
		{docsapi.ConnectFailed, "check api-url (its host and port) and that the service is up"},
		{docsapi.UnknownHost, "check the host name in api-url"},
		{docsapi.ConnectTimeout, "no firewall between the runner and the service drops the connection"},
		{docsapi.UntrustedCertificate, "SSL_CERT_FILE"},
		{docsapi.TLSFailed, "SSL_CERT_FILE"},
		{docsapi.TLSTimeout, "accepts connections but does not answer TLS"},
		{docsapi.PlainHTTP, "speaks plain http"},
	}
	for _, tc := range cases {
		t.Run(tc.kind.String(), func(t *testing.T) {
			t.Parallel()
			err := fmt.Errorf("list docs: %w", &docsapi.UnreachableError{URL: "https://docs.example", Kind: tc.kind, Attempts: 4, Err: errors.New("cause")})
			if got := hintFor(context.Background(), err, Config{}); !strings.Contains(got, tc.want) {
				t.Errorf("hint %q, want one saying %q", got, tc.want)
			}
		})
	}
}

// TestAuthHintNamesWhereTheTokenComesFrom: on GitHub the token is a
// secret; on the CLI it is DOCS_PUBLISH_TOKEN or --token.
func TestAuthHintNamesWhereTheTokenComesFrom(t *testing.T) {
	t.Parallel()
	err := &docsapi.APIError{Status: 401}
	if got := hintFor(context.Background(), err, Config{}); !strings.Contains(got, "the token secret") {
		t.Errorf("on GitHub: %q", got)
	}
	if got := hintFor(context.Background(), err, Config{CLI: true}); !strings.Contains(got, "DOCS_PUBLISH_TOKEN") || !strings.Contains(got, "--token") || strings.Contains(got, "secret") {
		t.Errorf("on the CLI: %q", got)
	}
}

// TestRunTimeoutHint: a deadline in an error is blamed on the run's
// timeout only when the run's own time has run out, not when one request's
// did.
func TestRunTimeoutHint(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("read answer: %w", context.DeadlineExceeded)
	over, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cfg := Config{Timeout: Duration(10 * time.Minute)}
	if got := hintFor(over, err, cfg); !strings.Contains(got, "timeout (10m0s), which bounds the whole run, ran out") {
		t.Errorf("the run's time over: %q", got)
	}
	if got := hintFor(context.Background(), err, cfg); strings.Contains(got, "bounds the whole run") {
		t.Errorf("the run's time not over: %q", got)
	}
}

// TestFileSafe: an id in a file name keeps letters, digits, '.', '_' and
// '-', and percent-encodes every other byte, so no id makes a path or a
// hidden file; a long one is cut and ends with a hash.
func TestFileSafe(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ä", 128)
	cases := []struct{ id, want string }{
		{"1001", "1001"},
		{"9007199254740993", "9007199254740993"},
		{"b-1.x_y", "b-1.x_y"},
		{"b/98765", "b%2F98765"},
		{"YWJj=", "YWJj%3D"},
		{"team docs", "team%20docs"},
		{"ä1", "%C3%A41"},
		{"..", ".."},
		{"../x", "..%2Fx"},
		{"a%2F", "a%252F"},
		{`a\b:c*?"<>|`, "a%5Cb%3Ac%2A%3F%22%3C%3E%7C"},
	}
	for _, tc := range cases {
		if got := fileSafe(tc.id); got != tc.want {
			t.Errorf("fileSafe(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	got := fileSafe(long)
	head, hash, _ := strings.Cut(got, "-")
	if len(got) > maxSafeID || len(hash) != 16 || !regexp.MustCompile(`^(%C3%A4)+$`).MatchString(head) {
		t.Errorf("fileSafe of 128 × ä = %q (%d bytes), want at most %d, cut between escapes and ending with a hash", got, len(got), maxSafeID)
	}
	if other := fileSafe(long[:len(long)-2] + "ö"); other == got {
		t.Errorf("two long ids make the same name %q", got)
	}
	for _, id := range []string{"b/98765", long, "a b"} {
		if name := "docs-build-" + fileSafe(id) + ".zip"; strings.ContainsAny(name, "/\\ ") || len(name) > 255 {
			t.Errorf("file name %q for id %q", name, id)
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
		{"duration", func() decoder { return new(Duration) }, map[string]string{"10m": "10m0s", "90s": "1m30s", "1ms": "1ms", "1h30m": "1h30m0s"}, []string{"", "10", "soon", "-1m", "-5m", "0", "0s", " 0m "}, "a duration of more than 0, such as 90s"},
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
