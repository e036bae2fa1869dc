package publish

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

// TestCommentNotedWithoutItsAddress: when GitHub's answer to a comment
// write gives no html_url, the log says the comment was written without
// an empty pair of parentheses where the address would be.
func TestCommentNotedWithoutItsAddress(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	gh := fakeGitHub(t)
	// GitHub's answers, with every html_url taken out.
	noURL := regexp.MustCompile(`"html_url":"[^"]*",?`)
	strip := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		gh.Config.Handler.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		w.Write(noURL.ReplaceAll(rec.Body.Bytes(), nil))
	}))
	t.Cleanup(strip.Close)
	cfg := compareConfig(t, emu.URL(), gh, fixture(t, "removed-operation/head/openapi.yaml"))
	gh.AddFile(baseSHA, "api/openapi.yaml", fixture(t, "removed-operation/base/openapi.yaml"))
	cfg.GitHubAPIURL = strip.URL
	res, rep, err := runFlow(t, cfg, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, rep.log())
	}
	if len(ours(gh)) != 1 || res.Changes.CommentURL != "" {
		t.Fatalf("%d comments, address %q\n%s", len(ours(gh)), res.Changes.CommentURL, rep.log())
	}
	if rep.count("pull request #7: comment created") != 1 || rep.count("()") != 0 {
		t.Errorf("the comment is not noted as written, or with empty parentheses:\n%s", rep.log())
	}
}
