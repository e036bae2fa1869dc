package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/ghaction"
)

// emulatorFlags are the emulator's flags, in the order its help lists them.
type emulatorFlags struct {
	addr, seed, variant, certFile string
	docs, fails                   listFlag
	quiet                         bool
}

// listFlag is a flag that may be given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// runEmulator serves the emulator until interrupted, for trying a workflow
// or a script locally.
func runEmulator(ctx context.Context, env Env, args []string) error {
	cfg, f, err := emulatorConfig(args)
	if errors.Is(err, flag.ErrHelp) {
		emulatorUsage(env.Stdout)
		return nil
	}
	if err != nil {
		// Flags and the seed file: what the user gave cannot be used.
		return &UsageError{Err: fmt.Errorf("emulator: %w", err)}
	}
	if !f.quiet {
		cfg.Log = prefixWriter{env.Stderr, "emulator: "}
	}
	var emu *emulator.Server
	if f.certFile != "" {
		emu, err = emulator.StartTLS(cfg, f.addr, f.certFile)
	} else {
		emu, err = emulator.StartOn(cfg, f.addr)
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("emulator: %w: another program listens there (another emulator?): stop it, or give --addr another port, or port 0 for a free one (--addr 127.0.0.1:0)", err)
	}
	if err != nil {
		return fmt.Errorf("emulator: %w", err)
	}
	defer emu.Close()
	if f.certFile == "" && !emu.Loopback() {
		fmt.Fprintf(env.Stderr, "emulator: warning: listening on %s beyond loopback over plain http: the token travels in clear, and docs-publish sends a token over plain http to loopback only (use --tls-cert to serve https)\n", emu.Addr())
	}
	printEmulator(env.Stdout, emu, f)
	<-ctx.Done()
	return nil
}

// emulatorConfig reads the flags and the seed file into the emulator's
// configuration.
func emulatorConfig(args []string) (emulator.Config, emulatorFlags, error) {
	cfg := emulator.Default()
	cfg.Prefix = emulator.ServicePrefix // a seed file or --prefix may say otherwise
	var f emulatorFlags
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "")
	fs.StringVar(&f.seed, "seed", "", "")
	token := fs.String("token", "", "")
	prefix := fs.String("prefix", "", "")
	delay := fs.Duration("build-delay", 0, "")
	fs.Var(&f.docs, "doc", "")
	fs.Var(&f.fails, "fail-build", "")
	fs.StringVar(&f.variant, "variant", "default", "")
	fs.StringVar(&f.certFile, "tls-cert", "", "")
	fs.BoolVar(&f.quiet, "quiet", false, "")
	if err := checkArgs(fs, args, "docs-publish emulator"); err != nil {
		return cfg, f, err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, f, err
		}
		return cfg, f, fmt.Errorf("%w (see docs-publish emulator --help)", err)
	}
	if fs.NArg() > 0 {
		return cfg, f, fmt.Errorf("unexpected argument %q (see docs-publish emulator --help)", fs.Arg(0))
	}
	if f.seed != "" {
		data, err := os.ReadFile(f.seed)
		if err != nil {
			return cfg, f, fmt.Errorf("--seed: %w", err)
		}
		if cfg, err = emulator.ParseSeed(data, cfg); err != nil {
			return cfg, f, fmt.Errorf("--seed %s: %w", f.seed, err)
		}
	}
	// Flags given win over the seed file.
	var err error
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "token":
			cfg.Token = *token
		case "prefix":
			cfg.Prefix = *prefix
		case "build-delay":
			cfg.BuildDelay = *delay
		}
	})
	// "v1" and "/v1/" mean the path prefix /v1, however written.
	if cfg.Prefix = strings.Trim(cfg.Prefix, "/"); cfg.Prefix != "" {
		cfg.Prefix = "/" + cfg.Prefix
	}
	if cfg.BuildDelay < 0 {
		return cfg, f, fmt.Errorf("--build-delay %s: give a duration of 0 or more, such as 2s", cfg.BuildDelay)
	}
	if cfg.Projects, err = docFlags(cfg.Projects, f.docs, f.seed != ""); err != nil {
		return cfg, f, err
	}
	for _, v := range f.fails {
		id, msg, _ := strings.Cut(v, "=")
		if msg == "" {
			msg = "the emulator was told to fail its builds (--fail-build)"
		}
		if err := cfg.FailBuilds(id, msg); err != nil {
			return cfg, f, fmt.Errorf("--fail-build %s: %w", v, err)
		}
	}
	if cfg.Variant, err = emulator.ParseVariant(f.variant); err != nil {
		return cfg, f, fmt.Errorf("--variant: %w", err)
	}
	return cfg, f, nil
}

// docFlags adds the --doc PROJECT/DOC[=FILE[@BRANCH]] flags: without a
// seed file they replace the default project, with one they add to it.
func docFlags(projects []emulator.Project, docs []string, seeded bool) ([]emulator.Project, error) {
	if len(docs) == 0 {
		return projects, nil
	}
	cfg := emulator.Config{}
	if seeded {
		cfg.Projects = projects
	}
	for _, v := range docs {
		where, what, _ := strings.Cut(v, "=")
		project, doc, ok := strings.Cut(where, "/")
		if !ok || project == "" || doc == "" {
			return nil, fmt.Errorf("--doc %q: write PROJECT/DOC, optionally =FILE@BRANCH, such as 4711/18=openapi.yml@develop", v)
		}
		d := emulator.Doc{ID: doc, Domain: emulator.DomainFor(project, doc)}
		if i := strings.LastIndex(what, "@"); i >= 0 {
			what, d.Branch = what[:i], what[i+1:]
		}
		d.File = what
		if err := cfg.AddDoc(project, d); err != nil {
			return nil, fmt.Errorf("--doc %s: %w", v, err)
		}
	}
	return cfg.Projects, nil
}

// printEmulator tells how to reach the emulator and what it holds.
func printEmulator(w io.Writer, emu *emulator.Server, f emulatorFlags) {
	cfg := emu.Config()
	fmt.Fprintf(w, "docs-publish emulator listening on %s\n  api-url:     %s\n  token:       %s\n  build-delay: %s\n  variant:     %s\n",
		emu.Addr(), emu.URL(), cfg.Token, cfg.BuildDelay, f.variant)
	for _, p := range cfg.Projects {
		branches := "any branch"
		if len(p.Branches) > 0 {
			branches = "branches " + strings.Join(p.Branches, ", ")
		}
		fmt.Fprintf(w, "\nproject-id %s (%s)\n", p.ID, branches)
		for _, d := range p.Docs {
			fmt.Fprintf(w, "  doc-id %s renders %s on branch %s; its live build: %s\n", d.ID, d.File, d.Branch, emu.SiteURL(d.ID))
			switch {
			case d.Domain == "":
				fmt.Fprintf(w, "    no domain, so the docs-url output is empty: give the doc a domain in the seed file\n")
			case cfg.Variant.Fields == emulator.FieldsAbsent:
				fmt.Fprintf(w, "    domain: %s, which variant %s leaves out of docs.list: the docs-url output is empty\n", d.Domain, f.variant)
			default:
				fmt.Fprintf(w, "    domain: %s\n", d.Domain)
			}
			if d.Fail != "" {
				fmt.Fprintf(w, "    every build fails: %s\n", d.Fail)
			}
		}
	}
	if p, ok := firstDoc(cfg); ok {
		docID := ""
		if len(p.Docs) > 1 {
			docID = " --doc-id " + p.Docs[0].ID
		}
		file, found := tryFile()
		// file-name is the file the doc renders: a run that writes another
		// file releases a build that fails.
		// The token in the environment, as a real one should be: a
		// command's arguments are in the process list, for any user.
		fmt.Fprintf(w, "\nTry: %s=%s %s --api-url %s --project-id %s%s --file %s --file-name %s --branch %s --download\n",
			ghaction.EnvVar("token"), cfg.Token, command(os.Args[0]), emu.URL(), p.ID, docID, file, p.Docs[0].File, p.Docs[0].Branch)
		if !found {
			fmt.Fprintf(w, "  (there is no %s here: give your description's path with --file)\n", file)
		}
	}
	if !f.quiet {
		fmt.Fprintf(w, "Requests are logged on stderr. ")
	}
	fmt.Fprintf(w, "Stop with Ctrl-C.\n")
}

// tryFiles are the descriptions the Try: line names, the first found in
// the current folder: a description of one's own, else the repository's
// sample, so that the line works as printed from a clone's top folder.
var tryFiles = []string{"openapi.yaml", "openapi.yml", "openapi.json", "testdata/specs/bookstore.openapi3.yaml"}

// tryFile is the description the Try: line names, and whether it is here.
func tryFile() (string, bool) {
	for _, f := range tryFiles {
		if st, err := os.Stat(filepath.FromSlash(f)); err == nil && st.Mode().IsRegular() {
			return f, true
		}
	}
	return tryFiles[0], false
}

// command is how to run docs-publish again from the folder the emulator
// was started in, given how it was started (os.Args[0]): "go run ." when
// go run built it (into a go-build folder), else the program as it was
// named, found on PATH or by its path.
func command(arg0 string) string {
	for _, part := range strings.Split(filepath.ToSlash(arg0), "/") {
		if strings.HasPrefix(part, "go-build") {
			return "go run ."
		}
	}
	if arg0 == "" {
		return "docs-publish"
	}
	if strings.ContainsAny(arg0, " \t\n'\"$`\\;&|<>()*?[]#~!{}") {
		// Quoted for a shell, so that the line pastes as printed.
		return "'" + strings.ReplaceAll(arg0, "'", `'\''`) + "'"
	}
	return arg0
}

// firstDoc is the first project with a doc.
func firstDoc(cfg emulator.Config) (emulator.Project, bool) {
	for _, p := range cfg.Projects {
		if len(p.Docs) > 0 {
			return p, true
		}
	}
	return emulator.Project{}, false
}

// prefixWriter starts each line it is given with a prefix.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	_, err := io.WriteString(p.w, p.prefix+string(b))
	return len(b), err
}

func emulatorUsage(w io.Writer) {
	fmt.Fprint(w, `docs-publish emulator: an in-memory stand-in for the documentation service

Usage:
  docs-publish emulator [flags]

It serves the service's four endpoints (file updates, the docs list,
releases, downloads) for trying a workflow or a script locally, and the live
build of each doc as a site to browse at /sites/<doc id>/. Each request is
logged on stderr: method, path, status and duration, never the token.

On loopback it answers only requests addressed to its own address or to
localhost (a web page cannot reach it through a host name of its own), and it
keeps at most 256 MiB of file versions, letting the oldest go first.

Flags:
  --addr HOST:PORT (default 127.0.0.1:8080)
      Address to listen on, as in Go: ":8080" is every interface; port 0 picks
      a free one. Beyond loopback, serve https (--tls-cert): docs-publish sends
      a token over plain http to loopback only.
  --seed FILE
      The projects, docs, token and build delay, in JSON or YAML (below).
  --doc PROJECT/DOC[=FILE[@BRANCH]]
      A doc of a project, rendering FILE (default openapi.yml) on BRANCH
      (default main). Repeat it for several docs and projects; it replaces the
      default project 4711 with doc 17, or adds to the seed file's.
  --fail-build DOC[=MESSAGE]
      Every build of DOC fails, with MESSAGE. Repeatable.
  --token TOKEN (default: a random one at each start)
      The bearer token the emulator accepts, printed when it starts.
  --prefix PATH (default `+emulator.ServicePrefix+`)
      Path prefix of the API; "" serves it at the root.
  --build-delay DURATION (default 300ms)
      How long a build takes after its release.
  --variant NAME (default default)
      How the emulator answers where the service interface is silent: one of
`+wrap(strings.Join(emulator.VariantNames(), ", ")+", or random:SEED for a reproducible mix.", "      ", 78)+`
  --tls-cert FILE
      Serve https with a self-signed certificate written to FILE (trust it
      with SSL_CERT_FILE), e.g. --addr 0.0.0.0:8443 for a container.
  --quiet
      Do not log the requests.

Seed file (flags given win over it):
  token: emulator-token
  build-delay: 2s
  projects:
    - id: "4711"
      branches: [main, develop]   # default: the branches its docs render
      docs:
        - {id: "17", file: openapi.yml, branch: main}
        - {id: "18", file: openapi.yml, branch: develop, fail: the theme does not build}
`)
}

// wrap breaks text into lines of at most width, each starting with indent.
func wrap(text, indent string, width int) string {
	var b, line strings.Builder
	for _, word := range strings.Fields(text) {
		if line.Len() > 0 && len(indent)+line.Len()+1+len(word) > width {
			b.WriteString(indent + line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(word)
	}
	if line.Len() > 0 {
		b.WriteString(indent + line.String())
	}
	return b.String()
}
