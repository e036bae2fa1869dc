package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
