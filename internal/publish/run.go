package publish

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// Result is what a run did, step by step; on failure, as far as it got.
type Result struct {
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
	Findings                        []openapi.Finding
	BundlePath                      string // relative to the workspace
	DryRun                          bool
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
	// ProgressEvery is how often a line tells that the run still waits for
	// the build; zero means 15 s.
	ProgressEvery time.Duration
}

// Run carries out the flow. Everything that can be checked without the
// service is checked first, so bad input leaves the service untouched. The
// docs are listed before the file is written (listing changes nothing), so
// a doc-id that cannot work, or a token the service refuses, fails the run
// before it has written anything.
func Run(ctx context.Context, cfg Config, rep report.Reporter, opts Options) (*Result, error) {
	if cfg.Token == "" && isPullRequest(cfg.EventName) && !cfg.FailOnMissingToken {
		// Pull requests from forks get no secrets. Check the description,
		// publish nothing, and say why instead of failing the check.
		cfg.DryRun = true
		rep.Annotate(report.Notice, "token is empty on a "+cfg.EventName+" event, as for a pull request from a fork, which gets no secrets: the description was checked but nothing was published. Set fail-on-missing-token: true to make this an error.", report.Where{})
	}
	res := &Result{DryRun: cfg.DryRun}
	// timeout bounds the whole run, loading the description included.
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	ws, err := workspace.Open(cfg.Workspace)
	if err != nil {
		res.FailedStep = StepCheck
		return res, err
	}
	defer ws.Close()
	start := time.Now()
	p, err := prepare(ctx, &cfg, ws, rep, res)
	res.Steps = append(res.Steps, StepTime{StepCheck, time.Since(start)})
	if err != nil {
		res.FailedStep = StepCheck
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w (%v)", err, ctx.Err())
		}
		return res, err
	}
	res.FileName, res.Branch, res.CommitMessage = p.fileName, cfg.Branch, p.commitMessage
	if cfg.DryRun {
		return res, dryRun(cfg, p, rep)
	}
	client, err := docsapi.New(cfg.APIURL, cfg.Token, docsapi.Options{
		HTTPClient: opts.HTTPClient, UserAgent: opts.UserAgent, FirstRetry: opts.FirstRetry,
		RequestTimeout: cfg.RequestTimeout, Logf: rep.Infof, Debugf: rep.Debugf,
	})
	if err != nil {
		return res, &InputError{Input: "api-url", Msg: err.Error()}
	}
	f := &flow{cfg: cfg, plan: p, ws: ws, rep: rep, client: client, res: res, firstPoll: opts.FirstRetry, progressEvery: opts.ProgressEvery}
	type stepRun struct {
		step Step
		run  func(context.Context) error
	}
	steps := []stepRun{{StepList, f.listDocs}, {StepUpdate, f.update}, {StepRelease, f.release}}
	switch {
	case cfg.Download: // waits for the build, then downloads it
		steps = append(steps, stepRun{StepDownload, f.download})
	case cfg.WaitForBuild:
		steps = append(steps, stepRun{StepWait, f.waitForBuild})
	}
	for _, st := range steps {
		f.step = st.step
		end := rep.Group(st.step.String())
		start := time.Now()
		err := st.run(ctx)
		took := time.Since(start)
		res.Steps = append(res.Steps, StepTime{st.step, took})
		if err == nil {
			rep.Infof("%s: done in %s", st.step, took.Round(time.Millisecond))
		}
		end()
		if err != nil {
			res.FailedStep = st.step
			if ctx.Err() != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("%w (%v)", err, ctx.Err())
			}
			return res, err
		}
	}
	if res.BuildState == "" {
		res.BuildState = BuildUnchecked
		rep.Infof("the build's outcome was not checked (wait-for-build: false): see the doc's builds in the web application")
	}
	return res, nil
}

func isPullRequest(event string) bool {
	return event == "pull_request" || event == "pull_request_review" || event == "pull_request_review_comment"
}

// plan is what prepare worked out from the inputs. Paths are slash paths
// relative to the workspace.
type plan struct {
	content       []byte // the description as JSON
	fileName      string
	commitMessage string
	zipPath       string // "" until the build id is known when defaulted
	sitePath      string // where to unpack the site, if anywhere
}

func required(input string) error {
	return &InputError{Input: input, Msg: "is required: set it in the step's with: block (off GitHub: --" + input + ")"}
}

// prepare checks every input and loads the description: all that can fail
// before the first request. A dry run needs nothing of the service.
func prepare(ctx context.Context, cfg *Config, ws *workspace.Workspace, rep report.Reporter, res *Result) (*plan, error) {
	if cfg.File == "" {
		return nil, required("file")
	}
	if !cfg.DryRun {
		if cfg.Token == "" {
			return nil, &InputError{Input: "token", Msg: "is empty: pass the service's access token from a secret, e.g. token: ${{ secrets.DOCS_TOKEN }}"}
		}
		if cfg.APIURL == "" {
			return nil, required("api-url")
		}
		if _, err := checkAPIURL(cfg.APIURL); err != nil {
			return nil, err
		}
		if cfg.ProjectID == "" {
			return nil, required("project-id")
		}
		if err := checkSegment("project-id", cfg.ProjectID); err != nil {
			return nil, err
		}
	}
	p := &plan{fileName: cfg.FileName}
	if p.fileName == "" {
		p.fileName = defaultFileName(cfg.File)
	} else if !strings.HasSuffix(p.fileName, ".yml") {
		rep.Annotate(report.Warning, fmt.Sprintf("file-name %q does not end in .yml: the service names every OpenAPI file with .yml, even with JSON content", p.fileName), report.Where{})
	}
	if err := checkSegment("file-name", p.fileName); err != nil {
		return nil, err
	}
	if cfg.Branch == "" && !cfg.DryRun {
		return nil, &InputError{Input: "branch", Msg: "is empty and this run has no ref name (GITHUB_REF_NAME) to default to: set branch to the project branch to write"}
	}
	if cfg.DocID != "" {
		if err := checkSegment("doc-id", cfg.DocID); err != nil {
			return nil, err
		}
	}
	p.commitMessage = cfg.CommitMessage
	if p.commitMessage == "" {
		p.commitMessage = cfg.defaultCommitMessage(p.fileName)
	}
	if cfg.ExtractTo != "" {
		cfg.Download = true
		rel, err := ws.Path(cfg.ExtractTo)
		if err != nil {
			return nil, outsideInput("extract-to", cfg.ExtractTo, err)
		}
		if rel == "." {
			return nil, &InputError{Input: "extract-to", Msg: "is the workspace itself: give a new directory inside it, such as site"}
		}
		empty, err := ws.IsEmptyOrAbsent(rel)
		if err == nil {
			err = ws.CheckWritable(rel)
		}
		if err != nil {
			return nil, outsideInput("extract-to", cfg.ExtractTo, err)
		}
		if !empty {
			return nil, &InputError{Input: "extract-to", Msg: fmt.Sprintf("%s exists and is not an empty directory: give a new directory, or remove it in an earlier step", rel)}
		}
		p.sitePath = rel
	}
	if cfg.Download && cfg.DownloadPath != "" {
		rel, err := ws.Path(cfg.DownloadPath)
		if err == nil {
			err = ws.CheckWritable(rel)
		}
		if err != nil {
			return nil, outsideInput("download-path", cfg.DownloadPath, err)
		}
		p.zipPath = rel
	}
	var bundlePath string
	if cfg.BundlePath != "" {
		var err error
		bundlePath, err = ws.Path(cfg.BundlePath)
		if err == nil {
			err = ws.CheckWritable(bundlePath)
		}
		if err != nil {
			return nil, outsideInput("bundle-path", cfg.BundlePath, err)
		}
	}
	content, err := loadDescription(ctx, cfg, ws, rep, res)
	if err != nil {
		return nil, err
	}
	p.content = content
	if bundlePath != "" {
		if err := ws.WriteFile(bundlePath, content); err != nil {
			return nil, outsideInput("bundle-path", cfg.BundlePath, err)
		}
		res.BundlePath = bundlePath
		if err := rep.SetOutput("bundle-path", bundlePath); err != nil {
			return nil, err
		}
	}
	return p, nil
}

type flow struct {
	cfg           Config
	plan          *plan
	ws            *workspace.Workspace
	rep           report.Reporter
	client        *docsapi.Client
	res           *Result
	step          Step // the step under way
	firstPoll     time.Duration
	progressEvery time.Duration
}

func (f *flow) update(ctx context.Context) error {
	desc := fmt.Sprintf("update file %s on branch %s", f.plan.fileName, f.cfg.Branch)
	f.rep.Infof("project %s, file %s, branch %s, %d bytes of JSON", f.cfg.ProjectID, f.plan.fileName, f.cfg.Branch, len(f.plan.content))
	f.rep.Debugf("commit message: %s", f.plan.commitMessage)
	err := f.client.UpdateFile(ctx, f.cfg.ProjectID, f.plan.fileName, docsapi.FileUpdate{
		Content: f.plan.content, Branch: f.cfg.Branch, CommitMessage: f.plan.commitMessage,
	})
	if err != nil {
		hint := hintFor(err)
		if h, ok := notFound(err, fmt.Sprintf("project %s or branch %s may not exist: check project-id (in the project settings of the web application) and that the branch exists in the project", f.cfg.ProjectID, f.cfg.Branch)); ok {
			hint = h
		}
		return &StepError{Step: StepUpdate, Desc: desc, Err: err, Hint: hint}
	}
	if err := f.rep.SetOutput("file-name", f.plan.fileName); err != nil {
		return err
	}
	return nil
}

func (f *flow) listDocs(ctx context.Context) error {
	desc := "list docs of project " + f.cfg.ProjectID
	docs, err := f.client.ListDocs(ctx, f.cfg.ProjectID)
	if err != nil {
		hint := hintFor(err)
		if h, ok := notFound(err, fmt.Sprintf("project %s may not exist: check project-id (in the project settings of the web application)", f.cfg.ProjectID)); ok {
			hint = h
		}
		return &StepError{Step: StepList, Desc: desc, Err: err, Hint: hint}
	}
	d, err := chooseDoc(docs, f.cfg.DocID, f.cfg.ProjectID)
	if err != nil {
		return &StepError{Step: StepList, Desc: desc, Err: err}
	}
	f.res.DocID = string(d.ID)
	if d.URL != "" {
		f.res.DocsURL = d.URL
		f.rep.Infof("doc %s, read at %s", d.ID, d.URL)
		if err := f.rep.SetOutput("docs-url", d.URL); err != nil {
			return err
		}
	} else {
		f.rep.Infof("doc %s", d.ID)
	}
	return f.rep.SetOutput("doc-id", f.res.DocID)
}

// chooseDoc picks the doc to release under: the given doc-id if the project
// has it, else the project's only doc.
func chooseDoc(docs []docsapi.Doc, want, projectID string) (docsapi.Doc, error) {
	var listed []string
	for _, d := range docs {
		s := string(d.ID)
		if label := cmp.Or(d.Domain, d.Name); label != "" {
			s += " (" + label + ")"
		}
		listed = append(listed, s)
	}
	list := strings.Join(listed, ", ")
	if want != "" {
		if i := slices.IndexFunc(docs, func(d docsapi.Doc) bool { return string(d.ID) == want }); i >= 0 {
			return docs[i], nil
		}
		if len(docs) == 0 {
			return docsapi.Doc{}, fmt.Errorf("doc-id %s is not a doc of this project, which has no docs: create a documentation domain and a first build in the web application's publish interface", want)
		}
		return docsapi.Doc{}, fmt.Errorf("doc-id %s is not a doc of this project: set doc-id to one of: %s", want, list)
	}
	switch len(docs) {
	case 0:
		return docsapi.Doc{}, fmt.Errorf("project %s has no docs: create a documentation domain and a first build once in the web application's publish interface, then run again", projectID)
	case 1:
		return docs[0], nil
	}
	return docsapi.Doc{}, fmt.Errorf("project %s has %d docs and doc-id is empty: set doc-id to one of: %s", projectID, len(docs), list)
}

func (f *flow) release(ctx context.Context) error {
	desc := fmt.Sprintf("release build under doc %s", f.res.DocID)
	b, err := f.client.Release(ctx, docsapi.ID(f.res.DocID), f.cfg.SetLive)
	if err != nil {
		hint := hintFor(err)
		if h, ok := notFound(err, fmt.Sprintf("doc %s may not exist: check doc-id", f.res.DocID)); ok {
			hint = h
		}
		if docsapi.IsUncertain(err) {
			hint = fmt.Sprintf("a build may have been started under doc %s; it was not sent again, so that no second build is made. Check the doc's builds in the web application before running again", f.res.DocID)
		}
		return &StepError{Step: StepRelease, Desc: desc, Err: err, Hint: hint}
	}
	f.res.BuildID, f.res.Live = string(b.ID), f.cfg.SetLive
	state := "kept unpublished"
	if f.cfg.SetLive {
		state = "made live when it completes"
	}
	f.rep.Infof("build %s under doc %s, %s", b.ID, f.res.DocID, state)
	if b.Status != "" {
		f.rep.Debugf("build %s status: %s", b.ID, b.Status)
	}
	if err := f.rep.SetOutput("build-id", f.res.BuildID); err != nil {
		return err
	}
	return f.rep.SetOutput("live", fmt.Sprint(f.res.Live))
}
