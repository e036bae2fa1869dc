package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/namerule"
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
func parseFlags(meta *ghaction.Metadata, args []string) (map[string]string, cliOptions, error) {
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
	if err := checkArgs(fs, args, "docs-publish"); err != nil {
		return nil, opts, err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, opts, flag.ErrHelp
		}
		return nil, opts, &UsageError{Msg: fmt.Sprintf("%v (see docs-publish --help)", err)}
	}
	if fs.NArg() > 0 {
		return nil, opts, &UsageError{Msg: fmt.Sprintf("unexpected argument %q: inputs are flags such as --file spec.yaml (see docs-publish --help)", fs.Arg(0))}
	}
	if opts.output != "text" && opts.output != "json" {
		return nil, opts, &UsageError{Msg: fmt.Sprintf("--output %q: use text or json", opts.output)}
	}
	flags := map[string]string{}
	for name, v := range vals {
		flags[name] = *v
	}
	return flags, opts, nil
}

// checkArgs finds the mistakes the flag package would report less helpfully:
// a flag that does not exist (with the nearest one that does), and a
// boolean flag given its value after a space (--set-live false, which would
// set it true and leave "false" as an argument). cmd is the command, as
// its help is asked for.
func checkArgs(fs *flag.FlagSet, args []string, cmd string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			return nil // the rest are arguments
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "h" || name == "help" {
			return nil
		}
		f := fs.Lookup(name)
		if f == nil {
			msg := fmt.Sprintf("unknown flag --%s", name)
			if near := nearest(fs, name, cmd); near != "" {
				msg += fmt.Sprintf(": did you mean --%s?", near)
			}
			return &UsageError{Msg: msg + " (see " + cmd + " --help)"}
		}
		if hasValue {
			continue
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			// No command takes arguments: a word after a boolean flag is
			// meant as its value, which goes after = (yes is not one).
			if i+1 == len(args) {
				continue
			}
			next := args[i+1]
			if strings.EqualFold(next, "true") || strings.EqualFold(next, "false") {
				return &UsageError{Msg: fmt.Sprintf("write --%s=%s: a boolean flag takes its value after =, and --%s alone means true", name, next, name)}
			}
			if next != "" && !strings.HasPrefix(next, "-") {
				return &UsageError{Msg: fmt.Sprintf("--%s %q: a boolean flag takes true or false after =: write --%s=true or --%s=false (--%s alone means true)", name, next, name, name, name)}
			}
			continue
		}
		i++ // the flag's value, which may start with a dash
	}
	return nil
}

// nearest is the flag of cmd closest to a mistyped name, or "" when none
// is close: a defined flag, --help (every command's), or --version (the
// program's).
func nearest(fs *flag.FlagSet, name, cmd string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	names = append(names, "help")
	if cmd == "docs-publish" {
		names = append(names, "version")
	}
	return nearestName(name, names)
}

// nearestName is the name closest to a mistyped one, hyphens, underscores
// and case aside, or "" when none is within max(2, a third of its length)
// edits.
func nearestName(name string, names []string) string {
	best, bestDist := "", 0
	limit := max(2, len(name)/3)
	squash := func(s string) string { return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s)) }
	for _, n := range names {
		if d := namerule.EditsApart(squash(name), squash(n), limit); d <= limit && (best == "" || d < bestDist) {
			best, bestDist = n, d
		}
	}
	return best
}

// loadConfig fills a publish.Config from flags, the runner's INPUT_*
// variables, DOCS_PUBLISH_* variables and action.yml's defaults.
func loadConfig(ctx context.Context, env Env, meta *ghaction.Metadata, look inputLookuper) (publish.Config, error) {
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
	cfg.CLI = env.Getenv("GITHUB_ACTIONS") != "true"
	cfg.GitHubAPIURL = env.Getenv("GITHUB_API_URL")
	if cfg.GitHubAPIURL == "" && cfg.Repository != "" {
		cfg.GitHubAPIURL = "https://api.github.com"
	}
	if cfg.Branch == "" {
		branch, err := ghaction.DefaultBranch(env.Getenv)
		if err != nil {
			return cfg, &publish.EnvError{Var: "GITHUB_EVENT_PATH", Err: err,
				Msg: fmt.Sprintf("the event payload cannot be read (%v), and on pull_request_target branch defaults to pr-<number> from it: set branch", err)}
		}
		cfg.Branch = branch
	}
	// net/http drops a proxy it cannot read without a word: the run would
	// go direct, past a proxy the runner's owner set.
	if pe := docsapi.CheckProxyVars(env.Getenv); pe != nil {
		return cfg, &publish.EnvError{Var: pe.Var, Err: pe}
	}
	return cfg, nil
}

// readChange fills in what the event says of the change under way, in
// every description that compares, and in every one with an empty token,
// whose pull request may come from a fork or not: the event is read once.
// An event payload that cannot be read only costs the comparison its base.
func readChange(env Env, cfgs []publish.Config, rep report.Reporter) {
	needs := func(c publish.Config) bool { return bool(c.Compare) || c.Token == "" }
	if !slices.ContainsFunc(cfgs, needs) {
		return
	}
	ch, err := ghaction.ReadChange(env.Getenv)
	if err != nil {
		if slices.ContainsFunc(cfgs, func(c publish.Config) bool { return bool(c.Compare) }) {
			rep.Annotate(report.Warning, "the event payload cannot be read, so the change has no base to compare with: "+err.Error(), report.Where{})
		}
		return
	}
	for i := range cfgs {
		if needs(cfgs[i]) {
			cfgs[i].PullRequest, cfgs[i].BaseSHA, cfgs[i].FromFork = ch.PullRequest, ch.BaseSHA, ch.FromFork
		}
	}
}

func runPublish(ctx context.Context, env Env, meta *ghaction.Metadata, args []string) error {
	rep := ghaction.NewReporter(env.Getenv, env.Stdout, env.Stderr)
	// A command line that cannot be read may show a secret in its error.
	for _, secret := range env.secrets {
		rep.Mask(secret)
	}
	flags, opts, err := parseFlags(meta, args)
	if errors.Is(err, flag.ErrHelp) {
		var help strings.Builder
		usage(&help, meta)
		rep.Print(help.String())
		return nil
	}
	if err != nil {
		rep.Annotate(report.Error, err.Error(), report.Where{})
		if opts.output == "json" && !rep.OnGitHub() {
			rep.PrintJSON(printJSON(nil, &jsonError{Message: err.Error(), ExitCode: ExitCode(ctx, err)}))
		}
		return &reported{err}
	}
	warnUnknownVars(env, meta, rep)
	look := &ghaction.Lookuper{Meta: meta, Flags: flags, Getenv: env.Getenv}
	// Mask the token before anything else can print it.
	for _, secret := range []string{"TOKEN", "GITHUB_TOKEN"} {
		if tok, ok := look.Lookup(secret); ok && !slices.Contains(env.secrets, tok) {
			rep.Mask(tok)
		}
	}
	start := time.Now()
	cfg, err := loadConfig(ctx, env, meta, look)
	if opts.workspace != "" {
		cfg.Workspace = opts.workspace
	}
	var cfgs []publish.Config
	if err == nil {
		cfgs, err = descriptions(ctx, env, meta, look, cfg)
	}
	var results []*publish.Result
	ran := err == nil
	if ran {
		readChange(env, cfgs, rep)
		results, err = publish.RunAll(ctx, cfgs, rep, publish.Options{UserAgent: "docs-publish/" + env.Version, Secrets: rep.Secrets(), Parallel: int(cfg.Parallel)})
	}
	if len(results) == 0 {
		cfgs, results = []publish.Config{cfg}, []*publish.Result{{FailedStep: publish.StepCheck}}
	}
	res := results[0]
	var ie *publish.InterruptedError
	if err != nil && ctx.Err() != nil && !errors.As(err, &ie) {
		err = fmt.Errorf("cancelled during %s: %w", res.FailedStep, err)
	}
	if len(results) > 1 {
		writeSummaries(rep, cfgs, results, err, time.Since(start))
	} else {
		writeSummary(rep, cfgs[0], res, err, time.Since(start))
	}
	if ran {
		err = setResults(rep, results, err)
	}
	if cfg.Report != "" && ran {
		err = writeReportFile(rep, cfg, results, err)
	}
	if oerr := rep.OutputError(); oerr != nil && err == nil {
		err = outputsLost(oerr, results)
	}
	if opts.output == "json" && !rep.OnGitHub() {
		var je *jsonError
		if err != nil {
			step := res.FailedStep.String()
			if len(results) > 1 {
				step = ""
			}
			je = &jsonError{Step: step, Message: err.Error(), ExitCode: ExitCode(ctx, err)}
		}
		rep.PrintJSON(printJSON(rep.Outputs(), je))
	} else {
		rep.PrintOutputs()
	}
	if err != nil {
		switch {
		case !annotatedAtItsPlaces(err):
			rep.Annotate(report.Error, err.Error(), whereOf(err))
		case !rep.OnGitHub():
			// Off GitHub the finding is a log line like any other: the
			// run ends with its error line, as it does for findings
			// found by validation.
			rep.Annotate(report.Error, err.Error(), report.Where{})
		}
		return &reported{err}
	}
	return nil
}

// annotatedAtItsPlaces says whether err is about one fault the run
// annotated at its place already (InputError.Annotated): on GitHub,
// annotating err too would say it again at the same place. The job summary
// and the results output give err whole. One of several descriptions still
// ends with an annotation that sums them up.
func annotatedAtItsPlaces(err error) bool {
	var ie *publish.InputError
	var re *publish.RunsError
	return !errors.As(err, &re) && errors.As(err, &ie) && ie.Annotated
}

// whereOf points an error at the place in the description it is about. A
// run stopped by its description's findings is about all of them, each
// annotated at its own place. An error about a file as a whole (missing, a
// link that leads outside) has no place: its message names the file.
func whereOf(err error) report.Where {
	var le *openapi.LoadError
	var re *publish.RunsError
	if errors.As(err, &re) {
		return report.Where{} // about several descriptions, each annotated already
	}
	if !errors.Is(err, publish.ErrInvalidDescription) && errors.As(err, &le) && le.Pos.Line > 0 {
		return report.Where{File: le.File, Line: int(le.Pos.Line), Col: int(le.Pos.Col)}
	}
	return report.Where{}
}

// jsonError is a failure as --output json prints it.
type jsonError struct {
	Step     string `json:"step,omitempty"`
	Message  string `json:"message"`
	ExitCode int    `json:"exit_code"`
}

// outputKinds are the outputs that --output json gives as JSON booleans and
// numbers; the others are strings (ids too: they may be any string, or
// numbers too large for a double).
var outputKinds = map[string]string{"live": "bool", "zip-size": "number", "breaking-changes": "number", "api-changes": "number",
	"results": "json", "description-count": "number", "published-count": "number", "failed-count": "number"}

// outputsLost is a run whose outputs could not be written to GITHUB_OUTPUT:
// a later step would read none of them, so the step fails, saying what was
// published all the same.
func outputsLost(err error, results []*publish.Result) error {
	return fmt.Errorf("the step's outputs cannot be written to GITHUB_OUTPUT, so later steps cannot read them (%w); %s. Check that the runner's file commands are mounted into the container", err, whatWasDone(results))
}

// whatWasDone says what a run published, for an error that comes after.
func whatWasDone(results []*publish.Result) string {
	if len(results) > 1 {
		var published []string
		for _, r := range results {
			if r.BuildID != "" {
				published = append(published, fmt.Sprintf("%s (doc %s, build %s)", r.File, r.DocID, r.BuildID))
			}
		}
		if len(published) == 0 {
			return "nothing was published"
		}
		return "published all the same: " + strings.Join(published, ", ")
	}
	res := results[0]
	done := "nothing was published"
	switch {
	case res.DryRun:
		done = "it was a dry run: nothing was published"
	case res.BuildID != "":
		done = fmt.Sprintf("the docs were published all the same: doc %s, build %s (live: %v)", res.DocID, res.BuildID, res.Live)
		if res.ZipPath != "" {
			done += ", saved as " + res.ZipPath
		}
	}
	return done
}

// printJSON is the outputs as one JSON object, in the order they were
// set, with an "error" member when the run failed.
func printJSON(outs []ghaction.KV, failure *jsonError) string {
	var b bytes.Buffer
	b.WriteString("{")
	for i, kv := range outs {
		if i > 0 {
			b.WriteString(",")
		}
		k, _ := json.Marshal(kv.Name)
		b.Write(k)
		b.WriteString(":")
		b.Write(typedValue(kv))
	}
	if failure != nil {
		if len(outs) > 0 {
			b.WriteString(",")
		}
		e, _ := json.Marshal(failure)
		b.WriteString(`"error":`)
		b.Write(e)
	}
	b.WriteString("}\n")
	return b.String()
}

func typedValue(kv ghaction.KV) []byte {
	switch outputKinds[kv.Name] {
	case "bool":
		if kv.Value == "true" || kv.Value == "false" {
			return []byte(kv.Value)
		}
	case "number":
		if _, err := strconv.ParseInt(kv.Value, 10, 64); err == nil {
			return []byte(kv.Value)
		}
	case "json":
		if json.Valid([]byte(kv.Value)) {
			return []byte(kv.Value)
		}
	}
	v, _ := json.Marshal(kv.Value)
	return v
}
