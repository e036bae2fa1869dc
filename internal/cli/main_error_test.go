package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/redact"
)

// TestMainPrintsTheFinalErrorOnce: an error not reported yet is printed on
// stderr, scrubbed of the token given on the command line; one the run
// reported already is not printed again. Both set the exit code.
func TestMainPrintsTheFinalErrorOnce(t *testing.T) {
	t.Parallel()
	const token = "tok-main-secret-value"
	cases := []struct {
		name     string
		args     []string
		want     string // on stderr
		printed  int    // times the message is on stderr
		exitCode int
	}{
		{"a usage error main prints", []string{"emulater", "--token", token}, `docs-publish: unknown command "emulater": did you mean emulator?`, 1, ExitUsage},
		{"a flag error the run reported", []string{"--token", token, "--projectid", "4711"}, "unknown flag --projectid", 1, ExitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), Env{
				Args: tc.args, Getenv: func(string) string { return "" },
				Stdout: &stdout, Stderr: &stderr, Action: actionYAML(t), Version: "test",
			})
			if code != tc.exitCode {
				t.Errorf("exit code %d, want %d", code, tc.exitCode)
			}
			said := stdout.String() + stderr.String()
			if n := strings.Count(said, tc.want); n != tc.printed {
				t.Errorf("%q said %d times, want %d:\n%s", tc.want, n, tc.printed, said)
			}
			if strings.Contains(said, token) {
				t.Errorf("the token is shown:\n%s", said)
			}
		})
	}
}

// TestMainFinalErrorScrubsEscapedToken: the error main prints quotes what
// it was given; a token given there escaped, as JSON, HTML or a URL would,
// is scrubbed all the same. Its lines are never workflow commands.
func TestMainFinalErrorScrubsEscapedToken(t *testing.T) {
	t.Parallel()
	const token = "tok-main-secret-value"
	each := func(format string) string {
		var b strings.Builder
		for i := 0; i < len(token); i++ {
			fmt.Fprintf(&b, format, token[i])
		}
		return b.String()
	}
	for _, given := range []string{each(`\u%04x`), each("&#%d;"), each("%%%02X"), each("&#x%X;")} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), Env{
			Args: []string{"help", given}, Getenv: func(k string) string { return map[string]string{"DOCS_PUBLISH_TOKEN": token}[k] },
			Stdout: &stdout, Stderr: &stderr, Action: actionYAML(t), Version: "test",
		})
		said := stdout.String() + stderr.String()
		if code != ExitUsage || !strings.Contains(said, "no command is called") {
			t.Fatalf("exit code %d:\n%s", code, said)
		}
		if !strings.Contains(said, `no command is called "***"`) {
			t.Errorf("the token given as %q shows:\n%s", given, said)
		}
	}
	var out bytes.Buffer
	w := scrubWriter{new(sync.Mutex), &out, redact.New(token)}
	fmt.Fprintf(w, "docs-publish: bad answer:\n\u2003::warning title=x::y\n\u3000##[error]z\n")
	if cmds := ghactiontest.Commands(out.String()); len(cmds) != 0 {
		t.Errorf("the runner reads commands in %q: %+v", out.String(), cmds)
	}
}
