package cli

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/redact"
)

// TestKnownSecrets: before any flag is read, the program knows the secret
// inputs from the runner's and the CLI's variables, github-token's default
// (the run's GITHUB_TOKEN), and the values of --token and --github-token
// in any spelling, up to "--"; a subcommand's flags are its own.
func TestKnownSecrets(t *testing.T) {
	t.Parallel()
	meta, err := ghaction.ParseMetadata(actionYAML(t))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"GITHUB_TOKEN": "ghs_run_token_value", "INPUT_TOKEN": "runner-token-value", "DOCS_PUBLISH_GITHUB_TOKEN": "cli-github-token"}
	getenv := func(k string) string { return vars[k] }
	for _, tc := range []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"variables and github-token's default", nil, []string{"ghs_run_token_value", "runner-token-value", "cli-github-token"}, nil},
		{"--token value", []string{"--project-id", "1", "--token", "flag-token-1"}, []string{"flag-token-1", "ghs_run_token_value"}, nil},
		{"--token=value and -github-token value", []string{"--token=flag-token-2", "-github-token", "flag-token-3"}, []string{"flag-token-2", "flag-token-3"}, nil},
		{"a flag with no value, last", []string{"--file", "a.yaml", "--token"}, []string{""}, []string{"a.yaml"}},
		{"after --", []string{"--file", "a.yaml", "--", "--token", "not-a-flag"}, nil, []string{"not-a-flag"}},
		{"the emulator's own --token", []string{"emulator", "--token", "printed-token"}, []string{"ghs_run_token_value"}, []string{"printed-token"}},
		{"--version first", []string{"--version", "--token", "unread"}, nil, []string{"unread"}},
		{"-version first", []string{"-version", "--token", "unread"}, nil, []string{"unread"}},
	} {
		got := knownSecrets(Env{Args: tc.args, Getenv: getenv}, meta)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %q not among %q", tc.name, w, got)
			}
		}
		for _, w := range tc.notWant {
			if slices.Contains(got, w) {
				t.Errorf("%s: %q among %q", tc.name, w, got)
			}
		}
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestScrubWriterSaysWhatItWrote: a Write scrubs its piece and counts it
// written whole, so that fmt sees no short write; a stream that fails
// gives its error.
func TestScrubWriterSaysWhatItWrote(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	w := scrubWriter{mu: &sync.Mutex{}, w: &out, secrets: redact.New("s3cr3t-value")}
	in := []byte("token s3cr3t-value refused")
	if n, err := w.Write(in); n != len(in) || err != nil || out.String() != "token "+redact.Mask+" refused" {
		t.Errorf("Write: %d, %v; wrote %q", n, err, out.String())
	}
	broken := errors.New("broken pipe")
	w.w = failingWriter{broken}
	if n, err := w.Write(in); n != 0 || !errors.Is(err, broken) {
		t.Errorf("Write to a broken stream: %d, %v", n, err)
	}
}
