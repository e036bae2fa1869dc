package docsapi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestIDCharacters: an id may hold any character but those that change
// how a line reads: the edges of each refused range are refused, the
// characters just outside them are not, wherever they stand in the id.
func TestIDCharacters(t *testing.T) {
	t.Parallel()
	for r, refused := range map[rune]bool{
		0x1f: true, 0x20: false, 0x7e: false, 0x7f: true, 0x9f: true, 0xa0: false,
		0x2029: true, 0x202a: true, 0x202e: true, 0x202f: false, 0x2065: false, 0x2066: true, 0x2069: true, 0x206a: false,
	} {
		for _, id := range []string{string(r) + "build", "build" + string(r)} {
			err := CheckID(id)
			var ie *IDError
			if refused != (err != nil) || (err != nil && (!errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "the id is text holding the control character U+"))) {
				t.Errorf("CheckID(%q) = %v, want refused %v", id, err, refused)
			}
		}
	}
	if err := CheckID(""); err == nil || err.Error() != "the id is an empty string" {
		t.Errorf("CheckID(\"\") = %v", err)
	}
}

// TestParseIDKinds reads ids the service writes, and says what is wrong
// with those it cannot use, naming the field.
func TestParseIDKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw, id, err string
	}{
		{`0`, "0", ""},
		{`90071992547409931`, "90071992547409931", ""},
		{strings.Repeat("9", MaxID), strings.Repeat("9", MaxID), ""},
		{strings.Repeat("9", MaxID+1), "", "build.id is a number of 129 digits, longer than an id may be (128)"},
		{``, "", "build.id is missing"},
		{`true`, "", "build.id is a boolean, neither a string nor a number"},
		{`{"id":1}`, "", "build.id is an object, neither a string nor a number"},
	} {
		id, err := parseID(json.RawMessage(tc.raw), "build.id")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if string(id) != tc.id || got != tc.err {
			t.Errorf("parseID(%s) = %q, %q; want %q, %q", tc.raw, id, got, tc.id, tc.err)
		}
	}
	e := &ShapeError{What: "build.id", Answer: `{"build":{}}`, Err: &IDError{Field: "build.id", Reason: "missing"}}
	if want := `service answered without a usable build.id (build.id is missing): {"build":{}}`; e.Error() != want {
		t.Errorf("%q, want %q", e.Error(), want)
	}
}

// TestDocAddresses: where a doc is read: a host name of up to 253
// characters, or a web address given whole; its name when it has no
// address.
func TestDocAddresses(t *testing.T) {
	t.Parallel()
	label := func(c string, n int) string { return strings.Repeat(c, n) }
	host253 := label("a", 63) + "." + label("b", 63) + "." + label("c", 63) + "." + label("d", 61)
	for _, tc := range []struct{ in, domain, url string }{
		{host253, host253, "https://" + host253 + "/"},
		{host253 + "d", "", ""},
		{"http://docs.internal.example/books", "docs.internal.example", "http://docs.internal.example/books"},
		{"ftp://docs.example/", "", ""},
	} {
		if d, u := hostOrURL(tc.in); d != tc.domain || u != tc.url {
			t.Errorf("hostOrURL(%.40q…) = %q, %q; want %q, %q", tc.in, d, u, tc.domain, tc.url)
		}
	}
	docs, err := parseDocs([]byte(`{"docs":[{"id":17,"name":"Bookstore docs"},{"id":18,"name":"Other","domain":"docs.example"}]}`), "")
	if err != nil || len(docs) != 2 || docs[0].Name != "Bookstore docs" || docs[1].Name != "" || docs[1].Domain != "docs.example" {
		t.Errorf("docs %+v, %v", docs, err)
	}
}

// TestBuildFailureShapes: the download endpoint's word that a build
// failed, in each shape a service may give it, with its message.
func TestBuildFailureShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body   string
		failed bool
		msg    string
	}{
		{`{"status":"failed","message":"the theme does not build"}`, true, "the theme does not build"},
		{`{"build":{"status":{"code":"errored","message":"out of memory"}}}`, true, "out of memory"},
		{`{"build":{"status":{"state":"Failure"}}}`, true, ""},
		{`{"state":"error","error_message":"bad spec"}`, true, "bad spec"},
		{`{"build":null,"status":"pending"}`, false, ""},
		{`{"status":{"code":"building","message":"half way"}}`, false, ""},
		{`<html>`, false, ""},
	} {
		failed, msg := failureOf([]byte(tc.body))
		if failed != tc.failed || msg != tc.msg {
			t.Errorf("failureOf(%s) = %v, %q; want %v, %q", tc.body, failed, msg, tc.failed, tc.msg)
		}
	}
}

// TestErrorFieldsOfAnyShape: an error field that is not text is shown as
// compact JSON.
func TestErrorFieldsOfAnyShape(t *testing.T) {
	t.Parallel()
	e := newAPIError(400, nil, []byte(`{"error_message": {"reason" : "bad", "field" : "id"}}`))
	if e.Message != `{"reason":"bad","field":"id"}` {
		t.Errorf("message %q", e.Message)
	}
}
