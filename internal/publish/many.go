package publish

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// DefaultParallel is how many descriptions a run checks, and publishes, at
// once when the parallel input is not set.
const DefaultParallel = 4

// MaxParallel bounds the parallel input: each description under way holds
// its tree (while it is checked) and a connection to the service.
const MaxParallel = 32

// unit is one description's run within RunAll: validated, then prepared
// (loaded and compared), then published. One description is a list of one.
type unit struct {
	index int
	cfg   Config
	rep   report.Reporter // the description's own: see unitReporter
	res   *Result
	ws    *workspace.Workspace
	plan  *Plan
	f     *flow
	err   error
	alone bool // the run's only description
	// reads are files the description read, beyond its inputs, that a
	// description of the run would write (see readsOverwritten).
	reads []string
	// clashed: a file the run read is where the description's bundle
	// would go, or its own paths clash: its bundle is not kept.
	clashed bool
}

// fail records err as the unit's error, after the one it has.
func (u *unit) fail(err error) {
	if err != nil && u.err != nil {
		err = errors.Join(u.err, err)
	}
	if err != nil {
		u.err = err
	}
}

// label names a description in the log and in errors: its index in the
// config file's list, and its file; the file alone when it is the run's
// only description.
func (u *unit) label() string {
	if u.alone {
		return u.cfg.File
	}
	return fmt.Sprintf("descriptions[%d] (%s)", u.index, u.cfg.File)
}

// close lets the description's files go: the workspace, and the upload (a
// scratch file goes with it).
func (u *unit) close() {
	if u.f != nil {
		if u.f.bundle != nil {
			u.f.bundle.Abort() // not kept: nothing is left of it
		}
		u.f.closeBody()
		u.f.body = nil
	}
	if u.ws != nil {
		u.ws.Close()
		u.ws = nil
	}
}

// RunAll runs the descriptions of cfgs, one Config each, in two phases.
// First every description's inputs are validated (two descriptions that
// would write the same file of a project branch, or the same local path,
// are an input error), then each is loaded, bundled, validated and
// compared, opts.Parallel at a time: if any of them fails, nothing is sent
// to the service, and every fault of every description has been reported.
// Each bundle-path is written then, once the run's write paths are found
// clear of every file a description read, whatever the description's
// comparison or the others' found. Then they are published, opts.Parallel at a time, through clients that
// share one docsapi.Gate; one that fails does not stop the others. The
// results are in the order of cfgs. With one description the error is its
// own, as Run has always returned it; with several it is a *RunsError.
// Timeout and the inputs a config file cannot set are the same in every
// Config: cfgs[0]'s timeout bounds the whole run.
func RunAll(ctx context.Context, cfgs []Config, rep report.Reporter, opts Options) ([]*Result, error) {
	if len(cfgs) == 0 {
		return nil, &InputError{Input: "config", Msg: "lists no descriptions: give at least one entry under descriptions:"}
	}
	if t := cfgs[0].timeout(); t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	several := len(cfgs) > 1
	var writing sync.Mutex
	units := make([]*unit, len(cfgs))
	results := make([]*Result, len(cfgs))
	for i, cfg := range cfgs {
		// The inputs given, so that a description that fails its check
		// says them in its results entry; the plan fills in the rest.
		res := &Result{File: cfg.File, ProjectID: cfg.ProjectID, DocID: cfg.DocID, FileName: cfg.FileName, Branch: cfg.Branch}
		u := &unit{index: i, cfg: cfg, rep: rep, res: res, alone: !several}
		if several {
			u.rep = newUnitReporter(rep, u.label(), &writing)
		}
		units[i], results[i] = u, res
	}
	defer func() {
		for _, u := range units {
			u.close()
		}
	}()
	// The plans first: every input of every description is checked, and
	// the descriptions against each other, before anything is loaded.
	for i, u := range units {
		u.err = u.validate(units[:i])
	}
	if err := conflicts(units); err != nil {
		return results, err
	}
	targets(units)
	annotations := newBudget()
	each(units, parallel, func(u *unit) error { return u.prepare(ctx, annotations, opts) })
	// Each bundle is put in place once every description is loaded (a
	// file another reads is known then, and none is written over before),
	// whatever its comparison found or the others' outcome: a pull
	// request's dry run keeps it as an artifact of a failed check too.
	readsOverwritten(units)
	for _, u := range units {
		if !u.clashed {
			u.fail(u.keepBundle())
		}
		if ur, ok := u.rep.(*unitReporter); ok {
			ur.flush()
		}
	}
	if err := outcome(units, false); err != nil {
		return results, err
	}
	gate := docsapi.NewGate()
	each(units, parallel, func(u *unit) error {
		if u.plan.DryRun {
			return nil
		}
		defer u.close()
		return u.publish(ctx, opts, gate)
	})
	return results, outcome(units, true)
}

// validate opens the workspace and works out the plan of the description.
// A workspace an earlier description has open is opened again (Another):
// the description reads through its own, so that the files it reads are
// its (see readsOverwritten), and the folders the run makes to write in
// are recorded in one place, so that whichever description drops the last
// entry of one removes it.
func (u *unit) validate(earlier []*unit) error {
	ws, err := openWorkspace(u.cfg.Workspace, earlier)
	if err != nil {
		u.res.FailedStep = StepCheck
		return err
	}
	u.ws = ws
	if u.plan, err = Validate(u.cfg, ws); err != nil {
		u.res.FailedStep = StepCheck
		return err
	}
	p := u.plan
	u.res.FileName, u.res.Branch, u.res.CommitMessage = p.FileName, u.cfg.Branch, p.CommitMessage
	u.res.DryRun, u.res.ForkCheck = p.DryRun, p.ForkCheck
	return nil
}

// openWorkspace opens dir, as Another of an earlier unit's workspace when
// one is dir.
func openWorkspace(dir string, earlier []*unit) (*workspace.Workspace, error) {
	if abs, err := filepath.Abs(dir); err == nil {
		for _, o := range earlier {
			if o.ws != nil && o.ws.Dir() == abs {
				return o.ws.Another()
			}
		}
	}
	return workspace.Open(dir)
}

// each runs fn on every unit without an error, parallel at a time, and
// records what fn returns. A unit with several reports its log when fn
// ends, in one piece. Once the run's time ends, fn fails at once, each
// unit with the error of the step it would have taken.
func each(units []*unit, parallel int, fn func(*unit) error) {
	work := make(chan *unit)
	var wg sync.WaitGroup
	for range min(parallel, len(units)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				u.err = fn(u)
				if ur, ok := u.rep.(*unitReporter); ok {
					ur.flush()
				}
			}
		}()
	}
	for _, u := range units {
		if u.err == nil {
			work <- u
		}
	}
	close(work)
	wg.Wait()
}

// outcome is the error of a phase: nil when every unit passed it; the one
// unit's error as it is with one description; else a *RunsError. A phase
// before anything is sent (not sent) that a unit failed holds the others.
func outcome(units []*unit, sent bool) error {
	var failed []*UnitError
	for _, u := range units {
		if u.err != nil {
			if u.res.FailedStep == "" {
				u.res.FailedStep = StepCheck
			}
			u.res.Err = u.err
			failed = append(failed, &UnitError{Index: u.index, File: u.cfg.File, Err: u.err})
		}
	}
	switch {
	case len(failed) == 0:
		return nil
	case !sent:
		hold(units)
	}
	switch {
	case len(units) == 1:
		return units[0].err
	}
	return &RunsError{Total: len(units), Failed: failed, Sent: sent}
}

// overItsOwn says that a description would write a path (input w) over a
// file it reads (input r), naming each thing once: an error blamed on w
// names w, and a description's label names its file.
func overItsOwn(u *unit, blamedOnW bool, w, wPath, r, rPath string) string {
	what := fmt.Sprintf("%s %s", r, rPath)
	if r == "$ref" { // no input: a file the description's $refs name
		what = rPath + " (a file a $ref names)"
	}
	switch {
	case blamedOnW && wPath == rPath && r == "$ref":
		return fmt.Sprintf("%s is a file a $ref names, which the run reads: give %s a path of its own", wPath, w)
	case blamedOnW && wPath == rPath:
		return fmt.Sprintf("%s is the path of input %s too, which the run reads: give %s a path of its own", wPath, r, w)
	case blamedOnW:
		return fmt.Sprintf("%s would write over %s, which the run reads: give %s a path of its own", wPath, what, w)
	case r == "file":
		what = "file" // the label names it
	}
	if wPath == rPath {
		return fmt.Sprintf("%s would write %s over its %s, which it reads: give %s a path of its own", u.label(), w, what, w)
	}
	return fmt.Sprintf("%s would write %s %s over its %s, which it reads: give %s a path of its own", u.label(), w, wPath, what, w)
}

// conflicts is the error of the descriptions' clashes (see clashes).
func conflicts(units []*unit) error {
	clashes(units)
	return outcome(units, false)
}

// clashes finds descriptions that would overwrite each other: the same
// file of the same project and branch, or the same place in the workspace
// (a bundle, a zip, a site, the report): the same path, one inside the
// other (a bundle in another's site), or one reached through a link to the
// other's folder; or a place a description writes where another's files
// are read (its description, base, agreed changes, the config file, and
// once loaded the files its $refs name: unit.reads). The later of a pair
// gets an *InputError that names the earlier. The report file may be no
// file the run reads or writes, the config file among them, nor a file
// there already that is not a report: its error wraps ErrReportInTheWay,
// and the report is then not written.
func clashes(units []*unit) {
	type claim struct {
		u     *unit // nil for the report file
		input string
		path  string
		real  string // where it leads, links followed
		write bool
	}
	var claims []claim
	var reportAt *unit // whose plan says where the report goes
	service := map[string]*unit{}
	// The input a description's own clash is blamed on: w, the one that
	// writes, or the config file that set both.
	own := func(u *unit, w claim) string {
		if u.cfg.ConfigFile != "" {
			return "config"
		}
		return w.input
	}
	clash := func(c claim) {
		for _, o := range claims {
			if !c.write && !o.write || !nested(o.real, c.real) {
				continue
			}
			switch {
			case o.u == nil:
				c.u.err = reportInTheWay(o.path, fmt.Sprintf("where %s %s is %s", c.input, c.path, map[bool]string{true: "written", false: "read"}[c.write]))
			case o.u == c.u && c.write && o.write:
				c.u.err = &InputError{Input: own(c.u, c), Msg: fmt.Sprintf("%s would write %s %s where it also has %s %s: give each a place of its own", c.u.label(), c.input, c.path, o.input, o.path)}
			case o.u == c.u:
				w, r := c, o
				if !c.write {
					w, r = o, c
				}
				c.u.err = &InputError{Input: own(c.u, w), Msg: overItsOwn(c.u, own(c.u, w) == w.input, w.input, w.path, r.input, r.path)}
			case c.write && o.write:
				c.u.err = &InputError{Input: "config", Msg: fmt.Sprintf("%s would write %s %s, as %s does with %s %s: give each description its own", c.u.label(), c.input, c.path, o.u.label(), o.input, o.path)}
			case c.write:
				c.u.err = &InputError{Input: "config", Msg: fmt.Sprintf("%s would write %s %s, where %s reads its %s %s: write elsewhere", c.u.label(), c.input, c.path, o.u.label(), o.input, o.path)}
			default:
				c.u.err = &InputError{Input: "config", Msg: fmt.Sprintf("%s reads %s %s, where %s would write %s %s: give each description its own", c.u.label(), c.input, c.path, o.u.label(), o.input, o.path)}
			}
			return
		}
		claims = append(claims, c)
	}
	for _, u := range units {
		// The report is the run's: every description has the same, which
		// the first claims, as the config file is.
		if u.plan == nil || u.ws == nil || u.plan.ReportPath == "" {
			continue
		}
		report := claim{nil, "report", u.plan.ReportPath, leadsTo(u.ws, u.plan.ReportPath), true}
		if rel := configPath(u); rel != "" && nested(report.real, leadsTo(u.ws, rel)) {
			// Every description's: none can be published as it asks.
			for _, u := range units {
				if u.err == nil {
					u.err = reportInTheWay(report.path, "the config file's")
				}
			}
			return
		}
		claims = append(claims, report)
		reportAt = u
		break
	}
	for _, u := range units {
		if u.plan == nil || u.err != nil {
			continue
		}
		p := u.plan
		if !p.DryRun {
			key := u.cfg.ProjectID + "\x00" + u.cfg.Branch + "\x00" + p.FileName
			if o, ok := service[key]; ok {
				u.err = &InputError{Input: "config", Msg: fmt.Sprintf("%s would write file %s on branch %s of project %s, as %s does: give each description its own", u.label(), p.FileName, u.cfg.Branch, u.cfg.ProjectID, o.label())}
				continue
			}
			service[key] = u
		}
		for _, c := range []struct {
			input, path string
			write       bool
		}{{"bundle-path", p.BundlePath, true}, {"download-path", p.ZipPath, true}, {"extract-to", p.SitePath, true},
			{"file", p.File, false}, {"base-file", p.BaseFile, false}, {"breaking-ignore", p.IgnoreFile, false}, {"config", configPath(u), false}} {
			if c.path != "" && u.err == nil {
				clash(claim{u, c.input, c.path, leadsTo(u.ws, c.path), c.write})
			}
		}
		for _, r := range u.reads {
			if u.err == nil {
				clash(claim{u, "$ref", r, leadsTo(u.ws, r), false})
			}
		}
	}
	if reportAt != nil && !slices.ContainsFunc(units, func(u *unit) bool { return errors.Is(u.err, ErrReportInTheWay) }) {
		// No file of the run's there, but maybe another: found before
		// anything is sent, where the write would find it after.
		if err := checkOverReport(reportAt.ws, reportAt.plan.ReportPath); err != nil {
			for _, u := range units {
				if u.err == nil {
					u.err = err
				}
			}
		}
	}
}

// reportInTheWay is the error of a report file at path, which is where
// another file of the run is (what says which).
func reportInTheWay(path, what string) *InputError {
	return &InputError{Input: "report", Msg: fmt.Sprintf("the report file's path, %s, is %s: give the report a path of its own", path, what), Err: ErrReportInTheWay}
}

// hold marks every description that passed its check, and is not a dry
// run, as held: another's failed check stops the run before anything is
// sent.
func hold(units []*unit) {
	for _, u := range units {
		if u.err == nil && u.plan != nil && !u.plan.DryRun {
			u.res.Held = true
		}
	}
}

// leadsTo is where name, a slash path in the workspace, leads: its nearest
// folder that exists with links followed, and the rest of name after it.
func leadsTo(ws *workspace.Workspace, name string) string {
	rest := ""
	for dir := path.Clean(name); ; dir = path.Dir(dir) {
		if to, err := ws.RealPath(dir); err == nil {
			return path.Join(to, rest)
		}
		if dir == "." || dir == "/" {
			return path.Clean(name)
		}
		rest = path.Join(path.Base(dir), rest)
	}
}

// nested says whether a and b are one place, or one is inside the other.
func nested(a, b string) bool {
	return a == b || a == "." || b == "." || strings.HasPrefix(b, a+"/") || strings.HasPrefix(a, b+"/")
}

// targets sets the Plan.Target of each description whose file another
// description of the run has too (the same description published to two
// projects, say), so that each keeps a pull request comment of its own.
func targets(units []*unit) {
	files := map[string]int{}
	for _, u := range units {
		files[u.plan.File]++
	}
	for _, u := range units {
		if files[u.plan.File] > 1 {
			u.plan.Target = fmt.Sprintf("project %s, branch %s, file %s", u.cfg.ProjectID, u.cfg.Branch, u.plan.FileName)
		}
	}
}

// UnitError is the failure of one description of several.
type UnitError struct {
	Index int    // in the config file's list
	File  string // the description
	Err   error
}

func (e *UnitError) Error() string {
	return fmt.Sprintf("descriptions[%d] (%s): %v", e.Index, e.File, e.Err)
}

func (e *UnitError) Unwrap() error { return e.Err }

// RunsError is a run of several descriptions of which one or more failed.
// Sent says whether the others were published: a failure in the check
// phase sends nothing for any.
type RunsError struct {
	Total  int
	Failed []*UnitError
	Sent   bool
}

func (e *RunsError) Error() string {
	var b strings.Builder
	cut := 0 // the descriptions cut short by a signal or the timeout
	for _, f := range e.Failed {
		if ie := (*InterruptedError)(nil); errors.As(f, &ie) {
			cut++
		}
	}
	switch {
	case cut > 0 && cut == len(e.Failed):
		fmt.Fprintf(&b, "the run was cancelled: %d of %d descriptions cut short (see the job summary)", cut, e.Total)
	case e.Sent && len(e.Failed) == e.Total:
		fmt.Fprintf(&b, "all %d descriptions failed (see the job summary)", e.Total)
	case e.Sent:
		fmt.Fprintf(&b, "%d of %d descriptions failed, the others were published (see the job summary)", len(e.Failed), e.Total)
	default:
		fmt.Fprintf(&b, "%d of %d descriptions failed the check, so nothing was sent for any of them (see the job summary)", len(e.Failed), e.Total)
	}
	for _, f := range e.Failed {
		b.WriteString("; ")
		b.WriteString(f.Error())
	}
	return b.String()
}

// Unwrap gives the descriptions' errors, in the config file's order.
func (e *RunsError) Unwrap() []error {
	errs := make([]error, len(e.Failed))
	for i, f := range e.Failed {
		errs[i] = f
	}
	return errs
}
