package githubapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUnreachableAPI: a request that gets no answer says it cannot reach
// GitHub's API, at its address without a password in it, with the
// network's cause but not the method and URL of the request; an answer,
// even a failing one, is not called unreachable.
func TestUnreachableAPI(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"boom"}`, http.StatusBadGateway)
	}))
	t.Cleanup(failing.Close)
	withUser := strings.Replace(closed.URL, "http://", "http://me:hunter2@", 1)
	cases := []struct {
		name, api   string
		unreachable bool
		want        string
	}{
		{"nothing listens", closed.URL, true, "cannot reach GitHub's API at " + closed.URL + ": dial tcp "},
		{"a password in the address", withUser, true, "cannot reach GitHub's API at " + strings.Replace(withUser, "hunter2", "xxxxx", 1) + ": dial tcp "},
		{"an answer", failing.URL, false, "GitHub answered 502 Bad Gateway: boom"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := client(t, tc.api).findComment(context.Background(), 1, "<!-- m -->", author{login: "me"})
			if err == nil || IsUnreachable(err) != tc.unreachable || !strings.HasPrefix(err.Error(), tc.want) ||
				strings.Contains(err.Error(), `"`) || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %v (unreachable: %v), want it to start with %q, naming neither the request nor the password", err, IsUnreachable(err), tc.want)
			}
		})
	}
}
