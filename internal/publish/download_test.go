package publish

import (
	"net/url"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/redact"
)

// TestZipNameShowsNoSecret: a file name is a sink: a build id that holds a
// secret, in any form, names the zip by its hash; any other id names it as
// it is, made safe.
func TestZipNameShowsNoSecret(t *testing.T) {
	t.Parallel()
	const tok = "dp_s3cr3t-docs-token"
	secrets := redact.New(tok)
	cases := []struct{ id, want string }{
		{"1001", "docs-build-1001.zip"},
		{"b/42", "docs-build-b%2F42.zip"},
		{tok, ""},
		{"x" + url.PathEscape(tok+"/") + "y", ""},
		{"build-" + tok[:8] + "\n" + tok[8:], ""},
	}
	for _, tc := range cases {
		got := zipName(tc.id, secrets)
		if tc.want != "" && got != tc.want {
			t.Errorf("zipName(%q) = %q, want %q", tc.id, got, tc.want)
		}
		if secrets.Has(got) || strings.Contains(got, tok[:8]) {
			t.Errorf("zipName(%q) = %q shows the secret", tc.id, got)
		}
		if tc.want == "" && (!strings.HasPrefix(got, "docs-build-") || len(got) != len("docs-build-.zip")+16) {
			t.Errorf("zipName(%q) = %q, want the id's hash", tc.id, got)
		}
	}
	if zipName(tok, secrets) == zipName(tok+"x", secrets) {
		t.Error("two ids make one name")
	}
}
