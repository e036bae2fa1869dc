package githubapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// contentsServer answers the commit check with commitStatus and every file
// with content, base64 in lines of 60 characters as GitHub writes it.
func contentsServer(t *testing.T, commitStatus int, content string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "/git/commits/") {
			w.WriteHeader(commitStatus)
			if commitStatus == http.StatusOK {
				w.Write([]byte(`{"sha":"` + sha + `"}`))
			} else {
				w.Write([]byte(`{"message":"refused"}`))
			}
			return
		}
		enc := base64.StdEncoding.EncodeToString([]byte(content))
		var lines []string
		for len(enc) > 60 {
			lines, enc = append(lines, enc[:60]), enc[60:]
		}
		json.NewEncoder(w).Encode(map[string]any{"type": "file", "size": len(content), "encoding": "base64", "content": strings.Join(append(lines, enc), "\n") + "\n"})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestFilesAnswers: a file's content in GitHub's lines of base64 is read
// whole, also at exactly the size a file may have; a commit GitHub does
// not know (404 or 422) is no commit, and a commit check GitHub refuses
// otherwise is that refusal, not a missing file.
func TestFilesAnswers(t *testing.T) {
	t.Parallel()
	content := strings.Repeat("openapi: 3.1.0 # a line of the description\n", 10)
	for _, tc := range []struct {
		name   string
		status int
		max    int64
		check  func(data []byte, err error) bool
	}{
		{"lines of base64", http.StatusOK, 1 << 20, func(data []byte, err error) bool { return err == nil && string(data) == content }},
		{"exactly the largest size", http.StatusOK, int64(len(content)), func(data []byte, err error) bool { return err == nil && string(data) == content }},
		{"a commit GitHub does not know (422)", http.StatusUnprocessableEntity, 1 << 20, func(data []byte, err error) bool { return errors.Is(err, ErrNoCommit) }},
		{"a commit check refused", http.StatusForbidden, 1 << 20, func(data []byte, err error) bool {
			var ae *APIError
			return errors.As(err, &ae) && ae.Status == http.StatusForbidden && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrNoCommit)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := client(t, contentsServer(t, tc.status, content)).Files(context.Background(), sha)
			files.MaxFileBytes = tc.max
			data, err := fs.ReadFile(files, "api/openapi.yaml")
			if !tc.check(data, err) {
				t.Errorf("read %d bytes, error %v", len(data), err)
			}
		})
	}
}
