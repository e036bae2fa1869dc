package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/docs-publish/docs-publish/internal/configfile"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// inputLookuper is what loadConfig reads inputs through.
type inputLookuper interface {
	Lookup(key string) (string, bool)
	LastInput() string
}

// entryLookuper reads an entry of the config file first, then the step's
// inputs, which are every entry's defaults.
type entryLookuper struct {
	entry configfile.Entry
	step  inputLookuper
	last  string
}

func (l *entryLookuper) Lookup(key string) (string, bool) {
	name := ghaction.InputName(key)
	l.last = name
	if v, ok := l.entry.Inputs[name]; ok {
		if v = strings.TrimSpace(v); v != "" {
			return v, true
		}
	}
	return l.step.Lookup(key)
}

func (l *entryLookuper) LastInput() string { return l.last }

// descriptions are the Configs of the run's descriptions: step alone
// without a config file, else one per entry of the file, each entry's
// inputs over the step's.
func descriptions(ctx context.Context, env Env, meta *ghaction.Metadata, look inputLookuper, step publish.Config) ([]publish.Config, error) {
	if step.ConfigFile == "" {
		return []publish.Config{step}, nil
	}
	if step.File != "" {
		return nil, &publish.InputError{Input: "file", Msg: "is set, and config lists the descriptions: give file in each entry of the config file, and leave it out of the step"}
	}
	data, err := readConfigFile(step)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, in := range meta.Inputs {
		names = append(names, in.Name)
	}
	entries, err := configfile.Parse(data, configfile.Keys{Inputs: names, Nearest: func(name string) string { return nearestInput(meta, name) }})
	if err != nil {
		return nil, &publish.InputError{Input: "config", Err: err, Msg: fmt.Sprintf("%s: %v", step.ConfigFile, err)}
	}
	cfgs := make([]publish.Config, len(entries))
	for i, e := range entries {
		cfg, err := loadConfig(ctx, env, meta, &entryLookuper{entry: e, step: look})
		if err == nil {
			err = tightenOnly(step, cfg)
		}
		if err != nil {
			return nil, &publish.InputError{Input: "config", Err: err, Msg: fmt.Sprintf("%s: %v", step.ConfigFile, &configfile.Error{Entry: e.Index, File: e.File(), Line: e.Line, Msg: err.Error()})}
		}
		cfg.Workspace = step.Workspace
		cfgs[i] = cfg
	}
	return cfgs, nil
}

// tightenOnly refuses an entry that lifts a guard the step sets: a file a
// pull request can change must not. An entry may turn the guards of
// configfile.Tightening on, never off; may not turn set-live on when the
// step turns it off; may not choose what a breaking change is measured
// against (base-file, breaking-ignore) when the step fails on breaking
// changes; and on pull_request_target, which runs with the repository's
// secrets for a fork's pull request too, may not choose the branch.
func tightenOnly(step, entry publish.Config) error {
	for _, g := range []struct {
		name        string
		step, entry publish.Bool
	}{{"dry-run", step.DryRun, entry.DryRun}, {"fail-on-warnings", step.FailOnWarnings, entry.FailOnWarnings},
		{"fail-on-breaking", step.FailOnBreaking, entry.FailOnBreaking}, {"compare", step.Compare, entry.Compare}} {
		if g.step && !g.entry {
			return fmt.Errorf("%s is true for the step, and a config file can turn it on but not off: set it false on the step to let entries choose", g.name)
		}
	}
	if !step.SetLive && entry.SetLive {
		return errors.New("set-live is false for the step, and a config file can turn it off but not on: set it true on the step to let entries choose")
	}
	if step.FailOnBreaking {
		for _, in := range []struct{ name, step, entry string }{{"base-file", step.BaseFile, entry.BaseFile}, {"breaking-ignore", step.BreakingIgnore, entry.BreakingIgnore}} {
			if in.entry != in.step {
				return fmt.Errorf("%s differs from the step's, which fails on breaking changes: a config file cannot choose what a change is measured against there: set %s on the step, or set fail-on-breaking in the entries that have a %s of their own rather than on the step", in.name, in.name, in.name)
			}
		}
	}
	if step.EventName == "pull_request_target" && entry.Branch != step.Branch {
		return fmt.Errorf("branch is %q, and on pull_request_target a config file (which the pull request can change) cannot choose the branch: set branch on the step", entry.Branch)
	}
	return nil
}

// readConfigFile reads the config file, which must be a regular file
// inside the workspace, within configfile.MaxSize.
func readConfigFile(cfg publish.Config) ([]byte, error) {
	ws, err := workspace.Open(cfg.Workspace)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	fail := func(err error, what string) error {
		return &publish.InputError{Input: "config", Err: err, Msg: fmt.Sprintf("%s %s", cfg.ConfigFile, what)}
	}
	rel, err := ws.Path(cfg.ConfigFile)
	var wo *workspace.OutsideError
	var nr *workspace.NotRegularError
	if err == nil {
		var f interface {
			io.Reader
			Close() error
		}
		if f, err = ws.Open(rel); err == nil {
			defer f.Close()
			data, err := io.ReadAll(io.LimitReader(f, configfile.MaxSize+1))
			if err != nil {
				return nil, fail(err, fmt.Sprintf("cannot be read (%v): check the file", err))
			}
			return data, nil
		}
	}
	switch {
	case errors.As(err, &wo):
		return nil, fail(err, "is outside the workspace: give a path inside it, relative to it (a config file is read only from the repository's checkout)")
	case errors.Is(err, fs.ErrNotExist):
		return nil, fail(err, "does not exist: check the config input (it is relative to the workspace) and that the file is checked out before this step")
	case errors.As(err, &nr):
		return nil, fail(err, "is not a regular file: give the path of the config file itself")
	}
	return nil, fail(err, fmt.Sprintf("cannot be read (%v): give the path of a file, relative to the workspace", err))
}

// nearestInput is the input closest to a mistyped name, or "".
func nearestInput(meta *ghaction.Metadata, name string) string {
	var names []string
	for _, in := range meta.Inputs {
		names = append(names, in.Name)
	}
	return nearestName(name, names)
}
