package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/namerule"
	"github.com/docs-publish/docs-publish/internal/redact"
)

// Env is everything the program takes from its surroundings, so tests can
// run it in-process with a map for an environment.
type Env struct {
	Args   []string
	Getenv func(string) string
	// Environ lists the environment as KEY=value, for the variables the
	// run names no input of (see warnUnknownVars); nil skips that check.
	Environ func() []string
	Stdout  io.Writer
	Stderr  io.Writer
	Action  []byte // action.yml
	Sample  []byte // the description the demo publishes
	Version string
	Commit  string // the commit built, when the build could not record it

	secrets []string // the secrets known before any flag is read
}

// Run runs the program with env.Args (without the program name). Every
// byte it writes on env.Stdout and env.Stderr has the secrets scrubbed.
func Run(ctx context.Context, env Env) error {
	_, err := runProgram(ctx, env)
	return err
}

// Main runs the program as Run does, prints the error it ends with (unless
// it was reported already) on env.Stderr through the same sink, and returns
// the exit code.
func Main(ctx context.Context, env Env) int {
	stderr, err := runProgram(ctx, env)
	if err != nil && !errors.Is(err, ErrReported) {
		fmt.Fprintln(stderr, "docs-publish:", err)
	}
	return ExitCode(ctx, err)
}

// runProgram runs the program, and returns the sink on stderr for the error it
// ends with. The secrets known before any flag is read are scrubbed from
// the first byte: a publish run's Reporter scrubs what it writes, every
// other line goes through a scrubWriter.
func runProgram(ctx context.Context, env Env) (io.Writer, error) {
	meta, err := ghaction.ParseMetadata(env.Action)
	env.secrets = knownSecrets(env, meta)
	secrets := redact.New(env.secrets...)
	plain := env
	plain.Stdout = scrubWriter{new(sync.Mutex), env.Stdout, secrets}
	plain.Stderr = scrubWriter{new(sync.Mutex), env.Stderr, secrets}
	if err != nil {
		return plain.Stderr, err
	}
	return plain.Stderr, dispatch(ctx, env, plain, meta)
}

// dispatch runs the command env.Args names. env writes to the streams as
// they are, for a publish run's Reporter; plain writes through the
// scrubbing sinks, for everything else.
func dispatch(ctx context.Context, env, plain Env, meta *ghaction.Metadata) error {
	if len(env.Args) > 0 {
		switch env.Args[0] {
		case "demo":
			return runDemo(ctx, plain, env.Stderr, meta, env.Args[1:])
		case "emulator":
			return runEmulator(ctx, plain, env.Args[1:])
		case "version", "--version", "-version":
			if len(env.Args) > 1 && isHelpFlag(env.Args[1]) {
				fmt.Fprint(plain.Stdout, versionUsage)
				return nil
			}
			fmt.Fprintln(plain.Stdout, versionLine(env.Version, env.Commit))
			return nil
		case "help":
			return runHelp(ctx, env, plain, meta)
		}
		if a := env.Args[0]; !strings.HasPrefix(a, "-") {
			for _, cmd := range commands {
				if namerule.EditsApart(a, cmd, 2) <= 2 {
					return &UsageError{Msg: fmt.Sprintf("unknown command %q: did you mean %s? (see docs-publish --help)", a, cmd)}
				}
			}
		}
	}
	return runPublish(ctx, env, meta, env.Args)
}

// commands are the subcommands, each with its own --help.
var commands = []string{"demo", "emulator", "version", "help"}

// runHelp prints the help of the command named after help (help emulator
// is emulator --help), or the general help; a name that is no command is a
// usage error that names it.
func runHelp(ctx context.Context, env, plain Env, meta *ghaction.Metadata) error {
	if len(env.Args) < 2 || isHelpFlag(env.Args[1]) || env.Args[1] == "help" {
		usage(plain.Stdout, meta)
		return nil
	}
	name := env.Args[1]
	if len(env.Args) > 2 {
		return &UsageError{Msg: fmt.Sprintf("help takes one command, not %q too (see docs-publish help)", env.Args[2])}
	}
	if slices.Contains(commands, name) {
		env.Args = []string{name, "--help"}
		plain.Args = env.Args
		return dispatch(ctx, env, plain, meta)
	}
	msg := fmt.Sprintf("help %s: no command is called %q; the commands are %s (docs-publish alone publishes: see docs-publish --help)", name, name, strings.Join(commands, ", "))
	for _, cmd := range commands {
		if namerule.EditsApart(name, cmd, 2) <= 2 {
			msg = fmt.Sprintf("help %s: no command is called %q: did you mean %s? (see docs-publish --help)", name, name, cmd)
			break
		}
	}
	return &UsageError{Msg: msg}
}

// lowerFirst is s with its first letter in lower case, to follow a colon.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help"
}

// versionUsage is version --help.
const versionUsage = `docs-publish version: the version the binary was built as, and the commit it was
built from, as Go recorded it from the clone (with a note when the clone had
changes not committed), or as the build was told.

Usage:
  docs-publish version
  docs-publish --version
`

// versionLine is the version the binary was built as, and the commit it
// was built from. What the build was told (-ldflags -X) comes first; else
// what Go recorded in the binary: the module's version for go install
// ...@v1.2.3, the commit (+dirty with changes not committed) for a build in
// a clone.
func versionLine(version, commit string) string {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(version, commit, info)
}

func versionFrom(version, commit string, info *debug.BuildInfo) string {
	installed := false // the version is the module's, as go install records it
	if info != nil {
		if v := info.Main.Version; version == "dev" && v != "" && v != "(devel)" {
			version, installed = v, true
		}
		var revision, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if commit == "" && revision != "" {
			commit = revision
			if modified == "true" {
				commit += "+dirty"
			}
		}
	}
	if commit == "" && installed {
		// go install ...@v1.2.3 records no commit: the version names it.
		return "docs-publish " + version
	}
	return fmt.Sprintf("docs-publish %s (commit %s)", version, cmp.Or(commit, "unknown"))
}

func usage(w io.Writer, meta *ghaction.Metadata) {
	fmt.Fprintf(w, `docs-publish: %s

Usage:
  docs-publish [flags]          publish a description (the GitHub Action's flow)
  docs-publish demo [flags]     run the whole flow against the built-in emulator
  docs-publish emulator [flags] run the emulator of the service, to try a workflow
  docs-publish version          the version, and the commit it was built from
  docs-publish help [COMMAND]   the help of a command; or the command's --help

Each input is a flag, or an environment variable %sNAME (on GitHub: the
action's with: block).

A boolean flag takes its value after =: --set-live=false (--set-live alone
means true). Off GitHub, --branch has no default: give the project branch.
Give the token in %sTOKEN rather than as a flag, to keep it out of the
shell's history; it is never printed.

Flags:
`, lowerFirst(strings.TrimSuffix(meta.Description, ".")), ghaction.EnvPrefix, ghaction.EnvPrefix)
	for _, in := range meta.Inputs {
		def := ""
		if in.HasDefault {
			// An expression is said in words: its value is the run's.
			def = " (default " + ghaction.DescribeDefault(in.Default) + ")"
		}
		req := ""
		if in.Required {
			req = " (required)"
		}
		fmt.Fprintf(w, "  --%s%s%s\n      %s\n      env %s\n", in.Name, req, def, in.Description, ghaction.EnvVar(in.Name))
	}
	fmt.Fprintf(w, "  --output text|json\n      How outputs are printed off GitHub (default text: name=value lines).\n")
	fmt.Fprintf(w, "  --workspace DIR\n      The folder the description, every file its $refs name, and every path written must stay in (default: GITHUB_WORKSPACE on GitHub, else the working directory).\n")
	fmt.Fprintf(w, "\nOutputs (name=value lines, one JSON object with --output json, or the step's outputs on GitHub):\n")
	for _, o := range meta.Outputs {
		fmt.Fprintf(w, "  %s\n      %s\n", o.Name, o.Description)
	}
	fmt.Fprintf(w, `
Exit codes:
  %d    published (or checked, in a dry run)
  %d    the service, the network or GitHub failed the run
  %d    a bad flag or input value
  %d    the description is invalid (or, with fail-on-breaking, its base)
  %d    the change breaks the API, with fail-on-breaking
  %d  interrupted
`, ExitOK, ExitFailure, ExitUsage, ExitInvalid, ExitBreaking, ExitCancelled)
}
