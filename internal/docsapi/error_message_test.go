package docsapi

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAPIErrorMessageKeepsEveryField(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		e    APIError
		want string
	}{
		{"status only", APIError{Status: 404}, "service answered 404 Not Found"},
		{"message", APIError{Status: 409, Message: "taken"}, "service answered 409 Conflict: taken"},
		{"code", APIError{Status: 400, Code: "E1"}, "service answered 400 Bad Request (error_code E1)"},
		{"tracking", APIError{Status: 500, TrackingID: "t-9"}, "service answered 500 Internal Server Error (tracking_id t-9)"},
		{"all", APIError{Status: 403, Message: "no", Code: "E2", TrackingID: "t-1"}, "service answered 403 Forbidden: no (error_code E2, tracking_id t-1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.e.Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestShownBodyIsCutOnlyPastTheLimit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
		max            int
	}{
		{"at the limit", "abcde", "abcde", 5},
		{"one past", "abcdef", "abcde" + cutMark, 5},
		{"spaces folded", "a \n b", "a b", 5},
		{"cut inside a rune", "abcdé", "abcd" + cutMark, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := shortenTo(tc.in, tc.max)
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("cut inside a character: %q", got)
			}
		})
	}
}

func TestRedirectRules(t *testing.T) {
	t.Parallel()
	req := func(raw string) *http.Request {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		r := &http.Request{URL: u, Header: http.Header{}}
		r.Header.Set("Authorization", "Bearer x")
		return r
	}
	cases := []struct {
		name      string
		from      []string
		to        string
		refused   bool
		keepToken bool
	}{
		{"same host https", []string{"https://a.example/x"}, "https://a.example/y", false, true},
		{"same host http", []string{"http://a.example/x"}, "http://a.example/y", false, true},
		{"http up to https", []string{"http://a.example/x"}, "https://a.example/y", false, true},
		{"other host", []string{"https://a.example/x"}, "https://b.example/y", false, false},
		{"https down to http", []string{"https://a.example/x"}, "http://a.example/y", true, false},
		{"not http", []string{"https://a.example/x"}, "ftp://a.example/y", true, false},
		{"nine before", strings.Split(strings.Repeat("https://a.example/x ", 9), " ")[:9], "https://a.example/y", false, true},
		{"ten before", strings.Split(strings.Repeat("https://a.example/x ", 10), " ")[:10], "https://a.example/y", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var via []*http.Request
			for _, f := range tc.from {
				via = append(via, req(f))
			}
			r := req(tc.to)
			err := checkRedirect(r, via)
			if refused := errors.Is(err, errRedirect); refused != tc.refused {
				t.Fatalf("refused %v, want %v (%v)", refused, tc.refused, err)
			}
			if !tc.refused {
				if kept := r.Header.Get("Authorization") != ""; kept != tc.keepToken {
					t.Errorf("token kept %v, want %v", kept, tc.keepToken)
				}
			}
		})
	}
}
