package cli

import (
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/redact"
)

// secretInputs are the inputs that hold secrets.
var secretInputs = []string{"token", "github-token"}

// knownSecrets are the secrets the run can know of before it reads a flag:
// the secret inputs as the runner and the CLI's variables give them, their
// defaults (github-token's is the run's GITHUB_TOKEN), and, for the publish
// command, the values given to their flags, read leniently so that a
// command line the flag package refuses still has them found.
func knownSecrets(env Env, meta *ghaction.Metadata) []string {
	var found []string
	for _, name := range secretInputs {
		found = append(found, strings.TrimSpace(env.Getenv(ghaction.RunnerVar(name))), strings.TrimSpace(env.Getenv(ghaction.EnvVar(name))))
		if meta == nil {
			continue
		}
		if in, ok := meta.Input(name); ok && in.HasDefault {
			found = append(found, ghaction.EvalDefault(in.Default, env.Getenv))
		}
	}
	if len(env.Args) == 0 || !isCommand(env.Args[0]) {
		found = append(found, secretFlags(env.Args)...)
	}
	return found
}

// isCommand reports whether arg names a subcommand, whose flags are its
// own (the emulator's --token is the one it accepts, which it prints).
func isCommand(arg string) bool {
	return slices.Contains(commands, arg) || arg == "--version" || arg == "-version"
}

// secretFlags are the values given to the secret inputs' flags in args:
// --token=v, --token v, -token v.
func secretFlags(args []string) []string {
	var found []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || !isSecretInput(name) {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			value = args[i]
		}
		found = append(found, value)
	}
	return found
}

func isSecretInput(name string) bool { return slices.Contains(secretInputs, name) }

// scrubWriter is the sink of what the program prints on stdout or stderr
// outside a publish run's Reporter (which has sinks of its own): help,
// version, the demo's and the emulator's lines, usage errors, and the error
// the program ends with. Each Write is one formatted piece of text (one
// fmt.Fprint) that starts a line: no line of it is left for the runner to
// read as a command, and it is scrubbed whole of every known secret.
type scrubWriter struct {
	mu      *sync.Mutex // one per stream
	w       io.Writer
	secrets *redact.Redactor
}

func (s scrubWriter) Write(p []byte) (int, error) {
	text := s.secrets.Redact(ghaction.NoCommands(string(p)))
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := io.WriteString(s.w, text); err != nil {
		return 0, err
	}
	return len(p), nil
}
