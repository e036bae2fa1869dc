package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/docs-publish/docs-publish/internal/ghaction"
)

// Env is everything the program takes from its surroundings, so tests can
// run it in-process with a map for an environment.
type Env struct {
	Args    []string
	Getenv  func(string) string
	Stdout  io.Writer
	Stderr  io.Writer
	Action  []byte // action.yml
	Sample  []byte // the description the demo publishes
	Version string
	Commit  string // the commit built, when the build could not record it
}

// Run runs the program with env.Args (without the program name).
func Run(ctx context.Context, env Env) error {
	meta, err := ghaction.ParseMetadata(env.Action)
	if err != nil {
		return err
	}
	if len(env.Args) > 0 {
		switch env.Args[0] {
		case "demo":
			return runDemo(ctx, env, meta, env.Args[1:])
		case "emulator":
			return runEmulator(ctx, env, env.Args[1:])
		case "version", "--version", "-version":
			fmt.Fprintln(env.Stdout, versionLine(env.Version, env.Commit))
			return nil
		case "help":
			if len(env.Args) > 1 && (env.Args[1] == "demo" || env.Args[1] == "emulator") {
				env.Args = []string{env.Args[1], "--help"} // help emulator: emulator --help
				return Run(ctx, env)
			}
			usage(env.Stdout, meta)
			return nil
		}
		if a := env.Args[0]; !strings.HasPrefix(a, "-") {
			for _, cmd := range []string{"demo", "emulator", "version", "help"} {
				if editDistance(a, cmd) <= 2 {
					return &UsageError{Msg: fmt.Sprintf("unknown command %q: did you mean %s? (see docs-publish --help)", a, cmd)}
				}
			}
		}
	}
	return runPublish(ctx, env, meta, env.Args)
}

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
	fmt.Fprintf(w, `docs-publish %s

Usage:
  docs-publish [flags]          publish a description (the GitHub Action's flow)
  docs-publish demo [flags]     run the whole flow against the built-in emulator
  docs-publish emulator [flags] run the emulator of the service, to try a workflow
  docs-publish version          the version, and the commit it was built from
  docs-publish help [demo|emulator], or a command's --help

Each input is a flag, or an environment variable %sNAME (on GitHub: the
action's with: block). Outputs are printed as name=value lines.

Flags:
`, strings.TrimSuffix(meta.Description, "."), ghaction.EnvPrefix)
	for _, in := range meta.Inputs {
		def := ""
		if in.HasDefault {
			def = " (default " + in.Default + ")"
		}
		req := ""
		if in.Required {
			req = " (required)"
		}
		fmt.Fprintf(w, "  --%s%s%s\n      %s\n      env %s\n", in.Name, req, def, in.Description, ghaction.EnvVar(in.Name))
	}
	fmt.Fprintf(w, "  --output text|json\n      How outputs are printed off GitHub (default text: name=value lines).\n")
	fmt.Fprintf(w, "  --workspace DIR\n      The folder the description, every file its $refs name, and every path written must stay in (default: GITHUB_WORKSPACE on GitHub, else the working directory).\n")
	fmt.Fprintf(w, `
Exit codes:
  %d    published (or checked, in a dry run)
  %d    the service, the network or GitHub failed the run
  %d    a bad flag or input value
  %d    the description is invalid
  %d    the change breaks the API, with fail-on-breaking
  %d  interrupted
`, ExitOK, ExitFailure, ExitUsage, ExitInvalid, ExitBreaking, ExitCancelled)
}
