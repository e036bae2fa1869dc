package publish

import (
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/docsapi"
)

// TestFailedBuildAdvice: the advice for a failed build follows the
// service's reason when it gives one, and blames file-name and branch only
// when it says nothing of why.
func TestFailedBuildAdvice(t *testing.T) {
	t.Parallel()
	const fallback = "file-name and branch must match"
	cases := []struct {
		name   string
		err    *BuildFailedError
		reason string // "" when the service said nothing
	}{
		{"a reason in a JSON error", &BuildFailedError{BuildID: "1", Err: &docsapi.APIError{Status: 422, JSON: true, Message: "build failed: the theme does not build"}}, "build failed: the theme does not build"},
		{"a reason in a success answer", &BuildFailedError{BuildID: "1", Msg: "out of memory\n  at step 3"}, "out of memory at step 3"},
		{"a JSON error without a message", &BuildFailedError{BuildID: "1", Err: &docsapi.APIError{Status: 422, JSON: true}}, ""},
		{"a page that is not the service's JSON", &BuildFailedError{BuildID: "1", Err: &docsapi.APIError{Status: 422, Message: "<html>Unprocessable</html>"}}, ""},
		{"a status without a message", &BuildFailedError{BuildID: "1"}, ""},
		{"words that only repeat the failure", &BuildFailedError{BuildID: "1", Msg: "Build failed."}, ""},
		{"an error that only says error", &BuildFailedError{BuildID: "1", Err: &docsapi.APIError{Status: 422, JSON: true, Message: "error"}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.err.Reason(); got != tc.reason {
				t.Errorf("reason %q, want %q", got, tc.reason)
			}
			hint := buildFailedHint(tc.err, "17", "other.yml", "main")
			if !strings.Contains(hint, "this run wrote other.yml on branch main") {
				t.Errorf("hint %q does not say what the run wrote", hint)
			}
			if blames := strings.Contains(hint, fallback); blames != (tc.reason == "") {
				t.Errorf("hint %q: blames file-name and branch %v, the service gave reason %q", hint, blames, tc.reason)
			}
			if tc.reason == "" && !strings.Contains(tc.err.Error(), "failed") {
				t.Errorf("error %q does not say the build failed", tc.err)
			}
		})
	}
}
