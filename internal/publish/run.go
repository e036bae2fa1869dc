package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// Result is what a run did, step by step; on failure, as far as it got.
type Result struct {
	// File and ProjectID are the description's inputs, as given.
	File, ProjectID                 string
	FileName, Branch, CommitMessage string
	DocID, BuildID                  string
	DocsURL                         string // where the doc is read, when the service says
	Live                            bool
	BuildState                      string // BuildReady, BuildFailed, BuildUnchecked, or "" before a release
	ZipPath                         string // relative to the workspace
	ZipSize                         int64
	ZipSHA256                       string
	SitePath                        string // relative to the workspace
	Steps                           []StepTime
	FailedStep                      Step
	Findings                        []openapi.Finding // errors first, by file and place
	Unannotated                     int               // findings beyond GitHub's annotations
	BundlePath                      string            // relative to the workspace
	DryRun                          bool
	// ForkCheck: the run only checked, as for a fork's pull request, which
	// gets no secrets.
	ForkCheck bool
	// Changes is what the change does to the API against its base; nil when
	// the comparison is off, or the run stopped before it.
	Changes *Comparison
	// Held: the description passed its check, but another of the run's
	// did not, so nothing was sent for it.
	Held bool
	// Err is why the description failed, nil when it did not.
	Err error
}

// StepTime is how long a step took.
type StepTime struct {
	Step     Step
	Duration time.Duration
}

// Options are the parts of a run that tests and the demo replace.
type Options struct {
	HTTPClient *http.Client
	UserAgent  string
	// FirstRetry is the first retry and poll interval; zero means 1 s.
	FirstRetry time.Duration
	// Secrets scrubs the secrets from what the run writes outside the
	// reporter: the pull request comment and names of files; nil scrubs
	// nothing.
	Secrets *redact.Redactor
	// ProgressEvery is how often a line tells that the run still waits for
	// the build; zero means 15 s.
	ProgressEvery time.Duration
	// GitHubWait is the most the comparison and its comment wait on
	// GitHub's API, all calls together; zero means a quarter of the run's
	// timeout, at most 30 s.
	GitHubWait time.Duration
	// CompareWait is the most the comparison with the base may take; zero
	// means half of what remains of the run's timeout, at most 5 minutes.
	CompareWait time.Duration
	// Parallel is how many descriptions are checked, and then published,
	// at once; zero means DefaultParallel.
	Parallel int
}

// Run carries out the flow for one description: RunAll with a list of one.
func Run(ctx context.Context, cfg Config, rep report.Reporter, opts Options) (*Result, error) {
	res, err := RunAll(ctx, []Config{cfg}, rep, opts)
	return res[0], err
}

// prepare takes the steps of one description that send nothing to the
// service: it validates the inputs, loads the description and writes the
// upload, then compares it with its base. Everything that can be checked
// without the service is checked first, so bad input leaves the service
// untouched. A dry run ends here.
func (u *unit) prepare(ctx context.Context, annotations *budget, opts Options) error {
	start := time.Now()
	err := u.check(ctx, annotations)
	u.res.Steps = append(u.res.Steps, StepTime{StepCheck, time.Since(start)})
	if err != nil {
		if u.f != nil {
			u.f.dropEarlyBase()
			u.f.head.drop()
		}
		u.res.FailedStep = StepCheck
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w (%w)", err, ctx.Err())
		}
		return interruptedEarly(ctx, u.cfg, StepCheck, overTime(ctx, u.cfg, StepCheck, err))
	}
	f := u.f
	// Publishing needs the upload, not the tree: let it go, so that a run
	// of many descriptions holds no more trees than it loads at once.
	defer f.head.drop()
	f.firstPoll, f.progressEvery, f.userAgent = opts.FirstRetry, opts.ProgressEvery, opts.UserAgent
	f.secrets = opts.Secrets
	f.githubWait = githubWait(u.cfg.timeout(), opts.GitHubWait)
	f.compareWait = opts.CompareWait
	// The comparison with the base needs no docs token: it runs in a dry run
	// and for a fork's pull request too, and before anything is published,
	// so that fail-on-breaking can stop the run.
	if f.plan.Compare && f.hasBase() {
		err := f.take(ctx, StepCompare, f.compare)
		f.dropEarlyBase()
		if err != nil {
			return interruptedEarly(ctx, u.cfg, StepCompare, overTime(ctx, u.cfg, StepCompare, err))
		}
	}
	if f.plan.DryRun {
		return dryRun(u.cfg, f.plan, f.head.size, u.rep)
	}
	return nil
}

// publish takes the steps that talk to the service, through a client that
// shares gate with the other descriptions' (see docsapi.Gate). The docs are
// listed before the file is written (listing changes nothing), so a doc-id
// that cannot work, or a token the service refuses, fails the run before
// it has written anything.
func (u *unit) publish(ctx context.Context, opts Options, gate *docsapi.Gate) error {
	f := u.f
	var err error
	f.client, err = docsapi.New(f.plan.APIURL, u.cfg.Token, docsapi.Options{
		HTTPClient: opts.HTTPClient, UserAgent: opts.UserAgent, FirstRetry: opts.FirstRetry,
		RequestTimeout: time.Duration(u.cfg.RequestTimeout), Logf: u.rep.Infof, Debugf: u.rep.Debugf, Gate: gate,
	})
	if err != nil {
		return err
	}
	return f.run(ctx)
}

// check loads the description and writes the upload: all that can fail
// before the first request, once the inputs are validated (u.plan).
func (u *unit) check(ctx context.Context, annotations *budget) error {
	cfg, rep, res, p, ws := u.cfg, u.rep, u.res, u.plan, u.ws
	f := &flow{cfg: cfg, plan: p, ws: ws, rep: rep, res: res, annotations: annotations}
	u.f = f
	res.DryRun, res.ForkCheck = p.DryRun, p.ForkCheck
	if p.ForkCheck {
		level, msg := MissingTokenNote(cfg, "checked")
		rep.Annotate(level, msg, report.Where{})
	}
	for _, w := range p.Warnings {
		rep.Annotate(report.Warning, w, report.Where{})
	}
	for _, n := range p.Notices {
		rep.Annotate(report.Notice, n, report.Where{})
	}
	// The upload is written to a file as it is made: beside bundle-path's
	// place when it is set, else to a scratch file no path leads to.
	var err error
	if p.BundlePath != "" {
		if f.bundle, err = ws.Create(p.BundlePath); err != nil {
			return pathInputError("bundle-path", cfg.BundlePath, err)
		}
		f.body = f.bundle.File
	} else if f.body, err = ws.Scratch(); err != nil {
		return err
	}
	f.loadBaseEarly(ctx)
	if f.head, err = loadDescription(ctx, cfg, p, ws, rep, f.annotations, res, f.body); err != nil {
		if f.bundle != nil {
			f.bundle.Abort()
			f.bundle = nil
		}
		return err
	}
	return nil
}

// keepBundle puts the upload, when it was made, in bundle-path's place:
// called once every description of the run is loaded and its write paths
// found clear of the files the run reads (see readsOverwritten).
func (u *unit) keepBundle() error {
	f := u.f
	if f == nil || f.bundle == nil {
		return nil
	}
	if err := f.bundle.Keep(); err != nil {
		return pathInputError("bundle-path", u.cfg.BundlePath, err)
	}
	u.res.BundlePath = u.plan.BundlePath
	return u.rep.SetOutput("bundle-path", u.plan.BundlePath)
}

// flow is a run under way, from its plan to its last step.
type flow struct {
	cfg           Config
	plan          *Plan
	head          *described
	body          *os.File        // the upload, written by the load
	bundle        *workspace.File // body, when bundle-path is set: kept by keepBundle
	ws            *workspace.Workspace
	rep           report.Reporter
	client        *docsapi.Client
	res           *Result
	step          Step // the step under way
	firstPoll     time.Duration
	progressEvery time.Duration
	userAgent     string
	secrets       *redact.Redactor // for the sinks outside the reporter
	annotations   *budget          // GitHub's annotations left in the run
	// The comparison's time for GitHub's API (see github).
	githubCtx  context.Context
	githubStop context.CancelFunc
	githubWait time.Duration
	// compareWait is Options.CompareWait.
	compareWait time.Duration
	early       *earlyBase // base-file's description, loading (earlybase.go)
}

// closeBody closes the upload's file: a scratch file goes with it.
func (f *flow) closeBody() {
	if f.body != nil {
		f.body.Close()
	}
}

// take runs one step: in a log group of its own, timed, and named as the
// failed step when it fails.
func (f *flow) take(ctx context.Context, st Step, run func(context.Context) error) error {
	f.step = st
	end := f.rep.Group(st.String())
	start := time.Now()
	err := run(ctx)
	took := time.Since(start)
	f.res.Steps = append(f.res.Steps, StepTime{st, took})
	if err == nil {
		f.rep.Infof("%s: done in %s", st, took.Round(time.Millisecond))
	}
	end()
	if err != nil {
		f.res.FailedStep = st
		if ctx.Err() != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("%w (%v)", err, ctx.Err())
		}
		return err
	}
	return nil
}

// run takes the steps that talk to the service, in order.
func (f *flow) run(ctx context.Context) error {
	type stepRun struct {
		step Step
		run  func(context.Context) error
	}
	steps := []stepRun{{StepList, f.listDocs}, {StepUpdate, f.update}, {StepRelease, f.release}}
	switch {
	case f.plan.Download: // waits for the build, then downloads it
		steps = append(steps, stepRun{StepDownload, f.download})
	case bool(f.cfg.WaitForBuild):
		steps = append(steps, stepRun{StepWait, f.waitForBuild})
	}
	for _, st := range steps {
		if err := f.take(ctx, st.step, st.run); err != nil {
			if ctx.Err() != nil {
				return f.interrupted(ctx, st.step, err)
			}
			return err
		}
	}
	if f.res.BuildState == "" {
		f.res.BuildState = BuildUnchecked
		f.rep.Infof("the build's outcome was not checked (wait-for-build: false): see the doc's builds in the web application")
	}
	return nil
}
