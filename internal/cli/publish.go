package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/sethvargo/go-envconfig"
)

// boolFlag lets --download stand alone as well as --download=false.
type boolFlag struct{ v *string }

func (b boolFlag) String() string {
	if b.v == nil {
		return ""
	}
	return *b.v
}
func (b boolFlag) Set(s string) error { *b.v = s; return nil }
func (b boolFlag) IsBoolFlag() bool   { return true }

// cliOptions are the flags that are not inputs of the action.
type cliOptions struct {
	output    string // text or json
	workspace string // the folder the description's files and the outputs stay in
}

// parseFlags reads one flag per input of action.yml, and the CLI's own.
func parseFlags(env Env, meta *ghaction.Metadata, args []string) (map[string]string, cliOptions, error) {
	fs := flag.NewFlagSet("docs-publish", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	vals := map[string]*string{}
	for _, in := range meta.Inputs {
		v := new(string)
		vals[in.Name] = v
		if in.Default == "true" || in.Default == "false" {
			fs.Var(boolFlag{v}, in.Name, in.Description)
		} else {
			fs.StringVar(v, in.Name, "", in.Description)
		}
	}
	var opts cliOptions
	fs.StringVar(&opts.output, "output", "text", "")
	fs.StringVar(&opts.workspace, "workspace", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(env.Stdout, meta)
			return nil, opts, flag.ErrHelp
		}
		return nil, opts, fmt.Errorf("%v (see docs-publish --help)", err)
	}
	if fs.NArg() > 0 {
		return nil, opts, fmt.Errorf("unexpected argument %q: inputs are flags such as --file spec.yaml (see docs-publish --help)", fs.Arg(0))
	}
	if opts.output != "text" && opts.output != "json" {
		return nil, opts, fmt.Errorf("--output %q: use text or json", opts.output)
	}
	flags := map[string]string{}
	for name, v := range vals {
		flags[name] = *v
	}
	return flags, opts, nil
}

// loadConfig fills a publish.Config from flags, the runner's INPUT_*
// variables, DOCS_PUBLISH_* variables and action.yml's defaults.
func loadConfig(ctx context.Context, env Env, meta *ghaction.Metadata, look *ghaction.Lookuper) (publish.Config, error) {
	var cfg publish.Config
	if err := envconfig.ProcessWith(ctx, &envconfig.Config{Target: &cfg, Lookuper: look}); err != nil {
		// go-envconfig reads the fields one by one and stops at the first
		// value it cannot decode: the input it looked up last.
		var ve *publish.ValueError
		if errors.As(err, &ve) {
			return cfg, &publish.InputError{Input: look.LastInput(), Msg: ve.Error(), Err: ve}
		}
		return cfg, err
	}
	cfg.Workspace = env.Getenv("GITHUB_WORKSPACE")
	if cfg.Workspace == "" {
		wd, err := os.Getwd()
		if err != nil {
			return cfg, err
		}
		cfg.Workspace = wd
	}
	cfg.Repository = env.Getenv("GITHUB_REPOSITORY")
	cfg.SHA = env.Getenv("GITHUB_SHA")
	cfg.ServerURL = env.Getenv("GITHUB_SERVER_URL")
	cfg.RunID = env.Getenv("GITHUB_RUN_ID")
	cfg.EventName = env.Getenv("GITHUB_EVENT_NAME")
	cfg.GitHubAPIURL = env.Getenv("GITHUB_API_URL")
	if cfg.GitHubAPIURL == "" && cfg.Repository != "" {
		cfg.GitHubAPIURL = "https://api.github.com"
	}
	return cfg, nil
}

// readChange fills in what the event says of the change under way. An
// event payload that cannot be read only costs the comparison its base.
func readChange(env Env, cfg *publish.Config, rep report.Reporter) {
	ch, err := ghaction.ReadChange(env.Getenv)
	if err != nil {
		rep.Annotate(report.Warning, "the event payload cannot be read, so the change has no base to compare with: "+err.Error(), report.Where{})
		return
	}
	cfg.PullRequest, cfg.BaseSHA, cfg.FromFork = ch.PullRequest, ch.BaseSHA, ch.FromFork
}

func runPublish(ctx context.Context, env Env, meta *ghaction.Metadata, args []string) error {
	rep := ghaction.NewReporter(env.Getenv, env.Stdout, env.Stderr)
	flags, opts, err := parseFlags(env, meta, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		rep.Annotate(report.Error, err.Error(), report.Where{})
		return ErrReported
	}
	look := &ghaction.Lookuper{Meta: meta, Flags: flags, Getenv: env.Getenv}
	// Mask the token before anything else can print it.
	for _, secret := range []string{"TOKEN", "GITHUB_TOKEN"} {
		if tok, ok := look.Lookup(secret); ok {
			rep.Mask(tok)
		}
	}
	start := time.Now()
	cfg, err := loadConfig(ctx, env, meta, look)
	if opts.workspace != "" {
		cfg.Workspace = opts.workspace
	}
	var res *publish.Result
	if err == nil && cfg.Compare {
		readChange(env, &cfg, rep)
	}
	if err == nil {
		res, err = publish.Run(ctx, cfg, rep, publish.Options{UserAgent: "docs-publish/" + env.Version})
	}
	if res == nil {
		res = &publish.Result{FailedStep: publish.StepCheck}
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("cancelled during %s: %w", res.FailedStep, err)
	}
	writeSummary(rep, env.Stderr, cfg, res, err, time.Since(start))
	if opts.output == "json" && !rep.OnGitHub() {
		printJSON(env.Stdout, rep.Outputs())
	} else {
		rep.PrintOutputs()
	}
	if err != nil {
		rep.Annotate(report.Error, err.Error(), whereOf(err))
		return ErrReported
	}
	return nil
}

// whereOf points an error at the place in the description it is about.
func whereOf(err error) report.Where {
	var le *openapi.LoadError
	if errors.As(err, &le) {
		return report.Where{File: le.File, Line: int(le.Pos.Line), Col: int(le.Pos.Col)}
	}
	return report.Where{}
}

func printJSON(w io.Writer, outs []ghaction.KV) {
	var b strings.Builder
	b.WriteString("{")
	for i, kv := range outs {
		if i > 0 {
			b.WriteString(",")
		}
		k, _ := json.Marshal(kv.Name)
		v, _ := json.Marshal(kv.Value)
		b.Write(k)
		b.WriteString(":")
		b.Write(v)
	}
	b.WriteString("}\n")
	io.WriteString(w, b.String())
}
