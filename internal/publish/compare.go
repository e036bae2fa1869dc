package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/gitclone"
	"github.com/docs-publish/docs-publish/internal/githubapi"
	"github.com/docs-publish/docs-publish/internal/memlimit"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// Comparison is what the change does to the API, against its base.
type Comparison struct {
	// Base names what was compared with: "the pull request's base commit
	// 1a2b3c4", "base-file api/v1.yaml".
	Base string
	// BaseCommit is the short SHA Base ends with, when the base is a commit
	// of the event's: hex, as the event's SHAs are checked where read.
	BaseCommit string
	// New: the description does not exist at the base, so every operation is
	// new and nothing is compared.
	New bool
	// Report is nil when nothing was compared.
	Report *apidiff.Report
	// Skipped says why nothing was compared, when nothing was.
	Skipped string
	// BaseFault says, in one line, what a head would have been refused for
	// that the base holds: the base is compared as it is. "" when nothing.
	BaseFault string
	// CommentURL is the pull request comment written or kept, if any.
	CommentURL string
}

// Breaking is how many changes break the API's clients.
func (c *Comparison) Breaking() int {
	if c == nil || c.Report == nil {
		return 0
	}
	return c.Report.Count(apidiff.Breaking)
}

// BreakingError is a change that breaks the API's clients, with
// fail-on-breaking set.
type BreakingError struct {
	Count  int
	DryRun bool
}

func (e *BreakingError) Error() string {
	what := "nothing was published"
	if e.DryRun {
		what = "the run fails"
	}
	return fmt.Sprintf("the change breaks the API's clients (%s, see the job summary) and fail-on-breaking is true, so %s: undo the breaking changes, or list the agreed ones in breaking-ignore",
		report.Plural(e.Count, "breaking change"), what)
}

// CompareError is a comparison that could not be made, with fail-on-breaking
// set: without it, the run cannot tell that nothing breaks.
type CompareError struct {
	Err error
}

func (e *CompareError) Error() string {
	return fmt.Sprintf("cannot compare with the base, and fail-on-breaking is true: %v", e.Err)
}

func (e *CompareError) Unwrap() error { return e.Err }

// base is where the base description is read from.
type base struct {
	fsys   fs.FS
	name   string // the description, in fsys
	label  string
	commit string // the short SHA label ends with, for a commit's base
	// ownFile: the base is a workspace file of its own (base-file), where
	// a change can be annotated; a commit's files are not, and their lines
	// are not the head's.
	ownFile bool
	// lastKeys reads the base's JSON with the last copy of a key written
	// twice winning, as its first load found it must be read.
	lastKeys bool
	// treeOnly reads the base for its tree alone, to place changes: its
	// JSON is not kept.
	treeOnly bool
}

// compare reports what the description's change does to the API: in the
// log, as annotations at the changed operations, in the job summary, in the
// outputs, and on a pull request as one comment per description.
func (f *flow) compare(ctx context.Context) error {
	c := &Comparison{}
	f.res.Changes = c
	defer f.endGitHub()
	b, err := f.base(ctx)
	if err != nil {
		return f.cannotCompare(ctx, c, err)
	}
	c.Base, c.BaseCommit = b.label, b.commit
	f.rep.Infof("comparing with %s", b.label)
	if f.sameAsBase(b) {
		c.Report = &apidiff.Report{}
		if err := f.reportChanges(c, b, nil); err != nil {
			return err
		}
		return f.comment(ctx, c)
	}
	baseDesc, err := f.takeBase(ctx, b)
	var none *noBaseError
	switch {
	case errors.As(err, &none) && f.plan.BaseFile != "":
		// base-file is the user's input: one that names no file is a mistake,
		// not a new description.
		return &InputError{Input: "base-file", Err: none.Err, Msg: fmt.Sprintf("%s: %v: give the path of the base description, relative to the workspace", f.plan.BaseFile, none.Err)}
	case errors.As(err, &none) && errors.Is(err, fs.ErrNotExist):
		c.New = true
		f.rep.Infof("%s does not exist at %s: the description is new, so there is nothing to compare", b.name, b.label)
		return f.comment(ctx, c)
	case err != nil:
		// A file the base description refers to that the base does not
		// hold is among these: the description is there, but broken.
		return f.cannotCompare(ctx, c, fmt.Errorf("the description at %s cannot be loaded: %w", b.label, withFirstFault(err)))
	}
	defer baseDesc.drop()
	if baseDesc.fault != "" {
		c.BaseFault = "the base " + baseDesc.fault
		f.rep.Annotate(report.Notice, fmt.Sprintf("the description at %s %s", b.label, baseDesc.fault), report.Where{})
	}
	headJSON, err := f.headJSON(ctx)
	if err != nil {
		return f.cannotCompare(ctx, c, err)
	}
	baseJSON, err := baseDesc.json()
	if err != nil {
		return f.cannotCompare(ctx, c, err)
	}
	// The base's tree is let go while comparing, where it held some 8
	// bytes a byte of the base beside what the comparison keeps live: read
	// again once compared, when a change needs a place in it (baseAgain).
	again := f.letBaseGo(ctx, b, baseDesc)
	defer again.drop()
	var ignore []byte
	if f.plan.IgnoreFile != "" {
		if ignore, err = f.ignoreFile(); err != nil {
			return err
		}
	}
	// The comparison has a time of its own, so that a slow one costs the
	// publish a warning, not the run: past it, the run goes on without
	// waiting. The comparison itself is told to stop a little sooner
	// (stopAt), at its next call into the library: one that ran out while
	// it placed the changes it found gives them, with the places found so
	// far, within its time rather than after it.
	wait, from := compareWait(ctx, f.compareWait)
	cctx, stop := context.WithTimeout(ctx, wait)
	defer stop()
	sctx, stopSooner := context.WithTimeout(cctx, stopAt(wait))
	defer stopSooner()
	rep, err := runAside(cctx, func() (*apidiff.Report, error) {
		mem := compareReservation(int64(len(baseJSON) + len(headJSON)))
		defer mem.Release()
		return compareJSON(sctx, baseJSON, headJSON, bytes.NewReader(ignore))
	}, nil)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) && sctx.Err() != nil {
			err = &CompareTimeError{Wait: wait, from: from, Err: err}
		}
		return f.cannotCompare(ctx, c, err)
	}
	if n := rep.TotalAccepted(); n > 0 {
		f.rep.Infof("%s listed in %s", report.Plural(n, "agreed change"), f.plan.IgnoreFile)
	}
	if unused := rep.UnusedIgnore(); len(unused) > 0 {
		f.rep.Annotate(report.Notice, unusedIgnoreNotice(f.plan.IgnoreFile, unused), report.Where{})
	}
	c.Report = rep
	if err := f.reportChanges(c, b, again.doc); err != nil {
		return err
	}
	if err := f.comment(ctx, c); err != nil {
		return err
	}
	if n := c.Breaking(); n > 0 && bool(f.cfg.FailOnBreaking) {
		return &BreakingError{Count: n, DryRun: f.plan.DryRun}
	}
	return nil
}

// Bounds on the notice naming breaking-ignore lines that agree to no
// change: the lines it quotes, and the bytes of each.
const (
	maxUnusedNamed = 3
	maxUnusedQuote = 200
)

// unusedIgnoreNotice says which lines of the breaking-ignore file named
// file agree to no change of the comparison, as mistyped or stale lines
// do, quoting the first few.
func unusedIgnoreNotice(file string, unused []apidiff.IgnoreLine) string {
	named := unused[:min(len(unused), maxUnusedNamed)]
	nums, quotes := make([]string, len(named)), make([]string, len(named))
	for i, l := range named {
		nums[i] = strconv.Itoa(l.Number)
		quotes[i] = strconv.Quote(report.Shorten(l.Text, maxUnusedQuote))
	}
	which := "line " + nums[0] + " agrees"
	if more := len(unused) - len(named); more > 0 {
		which = fmt.Sprintf("lines %s and %d more agree", strings.Join(nums, ", "), more)
	} else if len(nums) > 1 {
		which = fmt.Sprintf("lines %s and %s agree", strings.Join(nums[:len(nums)-1], ", "), nums[len(nums)-1])
	}
	return fmt.Sprintf("breaking-ignore %s: %s to no change of this comparison (%s): a line agrees to a breaking change when it holds its method, path and text as the job summary gives them; fix it, or remove it once the change is undone",
		file, which, strings.Join(quotes, ", "))
}

// maxCompareWait bounds the comparison's time: far more than a large real
// description takes (GitHub's REST description, 13 MB, takes seconds).
const maxCompareWait = 5 * time.Minute

// waitFrom is how the comparison's time was set.
type waitFrom int

const (
	waitHalf waitFrom = iota // half of what remained of timeout
	waitMost                 // maxCompareWait, less than that half or without timeout
	waitSet                  // Options.CompareWait
)

// compareWait is the comparison's time in a run whose context is ctx, and
// how it was set: set when it is set (Options.CompareWait), else half of
// what remains of the run's timeout, at most maxCompareWait. Half, so that
// a comparison that uses all of its time leaves the publish as much as it
// took: the upload and the release take a few requests, and waiting for
// the build has build-timeout of its own within the run's.
func compareWait(ctx context.Context, set time.Duration) (time.Duration, waitFrom) {
	if set > 0 {
		return set, waitSet
	}
	if dl, ok := ctx.Deadline(); ok {
		if half := time.Until(dl) / 2; half < maxCompareWait {
			return half, waitHalf
		}
	}
	return maxCompareWait, waitMost
}

// stopAt is when, of its time wait, the comparison is told to stop: nine
// tenths in, so that what it does after (the end of a call into the
// library, which cannot be stopped in) has the last tenth.
func stopAt(wait time.Duration) time.Duration { return wait - wait/10 }

// CompareTimeError is a comparison stopped when its time (compareWait) ran
// out.
type CompareTimeError struct {
	Wait time.Duration
	from waitFrom
	Err  error // the context's
}

func (e *CompareTimeError) Error() string {
	budget, todo := "the time set for it", "set compare: false"
	switch e.from {
	case waitHalf:
		budget, todo = "half of what remained of timeout", "raise timeout, or set compare: false"
	case waitMost:
		budget = "the most a comparison may take"
	}
	return fmt.Sprintf("the comparison was stopped after %s, %s: the change reaches more of the descriptions than that time compares; %s",
		e.Wait.Round(time.Millisecond), budget, todo)
}

func (e *CompareTimeError) Unwrap() error { return e.Err }

// compareJSON compares the two descriptions' JSON: apidiff's, which a test
// replaces to see what the run holds live while it compares.
var compareJSON = apidiff.CompareAccepting

// The soft memory limit the comparison runs under (with what other work
// holds, see memlimit), unless a lower one is set (GOMEMLIMIT): the
// comparison keeps live at most apidiff.Memory of the two descriptions'
// size beyond them, its index and one part, and without a limit the
// collector lets the heap grow to twice what is live.
const (
	// compareMemoryFloor is what the reservation adds to memlimit.Floor:
	// in a test process, a limit of 32 MB and the room before any cap;
	// in the program, whose floor is what it held at its first
	// reservation (memlimit.OneRun), some 16 MB over that floor. The cap
	// (compareRoom over what is live) is always set, and the limit is the
	// lower of the two.
	compareMemoryFloor = 32 << 20
	// compareRoomFloor is the least room a comparison is given over what
	// the process holds live: what the library keeps live does not shrink
	// with the descriptions below some 0.5 MB (its smallest part, its
	// checks). Directus's pair (0.3 MB both, compact) had 20 bytes a byte
	// over what the process held, the loads' garbage counted, which left
	// the collector its proportional target (10 collections, a peak 1.6
	// MB higher than with this floor over what is live, 15); over what is
	// live, 20 bytes a byte had the collector run 26 times; and a pair
	// under 0.2 MB had no cap at all, the floor's limit with the
	// proportional target off (a peak 9 MB higher).
	compareRoomFloor = 8 << 20
	// compareRoomPerByte is the room a byte of the two descriptions adds
	// to compareRoomFloor: the collector's headroom over what the
	// comparison keeps live grows with it as it did when the room was
	// counted from what the process held, the loads' garbage with it
	// (some 3 bytes a byte of the two), which had the collector run half
	// as often as over what is live with the floor alone (a pair of 1 MB
	// whose every operation changed: 3.2 s of CPU where 2.0 to 2.4).
	compareRoomPerByte = 4
)

// compareRoom is the collector's room over what the process holds live
// for comparing descriptions of n bytes together: half as much again as
// what the comparison keeps live (apidiff.Memory), so that the collector
// runs once the comparison allocated half of that, and compareRoomFloor
// and compareRoomPerByte a byte at least. Where the room was 20 bytes a
// byte of the two, a comparison whose every operation changed held no
// more live, in parts cut to the library's budget, and the peak of the
// process grew by that room, 20 bytes a byte, beside its limit of 10.
func compareRoom(n int64) int64 {
	return max(compareRoomFloor+compareRoomPerByte*n, apidiff.Memory(n)*3/2)
}

// compareReservation is the collector's room for comparing descriptions of
// n bytes together, read by then: the library's garbage is collected
// sooner while it compares, so that the run's peak follows what it keeps
// live. The comparison adds its own (compareRoom) where the floor's limit
// left small ones more (Directus's: a peak 4 MB higher, for the same CPU
// time), counted from what is live, whatever the descriptions' size: the
// loads' garbage, counted in, was more than the room of small ones, and
// counted in from some size up (it was 410 kB of both) raised the peak
// there by what the garbage held (3 MB where the room added 8 bytes a
// byte). The collection that tells what is live costs little once the
// base's tree is let go (baseAgain): it marks the head's tree and the two
// JSON texts.
func compareReservation(n int64) *memlimit.Reservation {
	room := compareRoom(n)
	mem := memlimit.Reserve(compareMemoryFloor - memlimit.Floor + room)
	mem.CapLive(room)
	return mem
}

// cannotCompare reports a comparison that could not be made: a warning, or
// with fail-on-breaking an error. A pull request's comment from an earlier
// run is rewritten to say so, rather than left to say what no longer holds.
func (f *flow) cannotCompare(ctx context.Context, c *Comparison, err error) error {
	if ctx.Err() != nil {
		return err
	}
	err = f.githubSilent(err)
	c.Skipped = err.Error()
	if cerr := f.comment(ctx, c); cerr != nil {
		return cerr
	}
	if f.cfg.FailOnBreaking {
		return &CompareError{Err: err}
	}
	f.rep.Annotate(report.Warning, "API changes not reported: "+err.Error(), report.Where{})
	return nil
}

// maxGitHubWait bounds the time the comparison and its comment wait on
// GitHub's API, all calls together: the comparison is a report, and a
// GitHub that does not answer costs the publish a warning and this long at
// most (a quarter of timeout, when that is less).
const maxGitHubWait = 30 * time.Second

// githubWait is the comparison's time for GitHub's API in a run with
// timeout (0 for none): set when it is set (Options.GitHubWait), else
// maxGitHubWait or a quarter of timeout, whichever is less.
func githubWait(timeout, set time.Duration) time.Duration {
	if set > 0 {
		return set
	}
	if timeout > 0 {
		return min(maxGitHubWait, timeout/4)
	}
	return maxGitHubWait
}

// github is ctx bounded by the comparison's time for GitHub's API, which
// starts with its first call.
func (f *flow) github(ctx context.Context) context.Context {
	if f.githubCtx == nil {
		f.githubCtx, f.githubStop = context.WithTimeout(ctx, f.githubWait)
	}
	return f.githubCtx
}

// endGitHub ends the comparison's time for GitHub's API.
func (f *flow) endGitHub() {
	if f.githubStop != nil {
		f.githubStop()
	}
}

// githubSilent says so when err comes of GitHub's API using up the
// comparison's time for it.
func (f *flow) githubSilent(err error) error {
	if f.githubCtx != nil && errors.Is(f.githubCtx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("GitHub's API did not answer within %s, which the report may take (%v)", f.githubWait, err)
	}
	return err
}

// isNotRegular says whether err is a path that is no regular file.
func isNotRegular(err error) bool {
	var nr *workspace.NotRegularError
	return errors.As(err, &nr)
}

// hasBase says whether the run has a base to compare with: base-file, or
// the event's base commit. Without one there is no comparison step at all,
// rather than one that did nothing; the log says why.
func (f *flow) hasBase() bool {
	if f.plan.BaseFile != "" || f.cfg.BaseSHA != "" {
		return true
	}
	const why = "nothing compared: this event has no base commit (a pull request's base, or the commit before a push): set base-file to compare with a file"
	if f.cfg.CLI {
		f.rep.Debugf("%s", why)
	} else {
		f.rep.Infof("%s", why)
	}
	return false
}

// base works out where the base description is: base-file, or the file's
// path at the event's base commit, from the local clone when it holds the
// commit, else through GitHub's API.
func (f *flow) base(ctx context.Context) (*base, error) {
	if f.plan.BaseFile != "" {
		return &base{fsys: f.ws.FS(), name: f.plan.BaseFile, label: "base-file " + f.plan.BaseFile, ownFile: true}, nil
	}
	sha := f.cfg.BaseSHA
	what := "the commit before the push"
	if f.cfg.PullRequest > 0 {
		what = "the pull request's base commit"
	}
	commit := shortSHA(sha)
	label := what + " " + commit
	repoDir, name := f.inRepository(f.plan.File)
	files, err := gitclone.Commit(f.ws.Dir(), filepath.Join(f.ws.Dir(), filepath.FromSlash(repoDir)), sha)
	if err == nil {
		f.rep.Debugf("reading %s from the local clone", label)
		return &base{fsys: files, name: name, label: label, commit: commit}, nil
	}
	switch {
	case errors.Is(err, gitclone.ErrRefused):
		clone := "the workspace"
		if repoDir != "" {
			clone = repoDir
		}
		f.rep.Annotate(report.Notice, fmt.Sprintf("the local clone in %s is not read for %s: %v; the base is read through GitHub's API, or give base-file", clone, label, err), report.Where{})
	case !errors.Is(err, gitclone.ErrNoCommit):
		f.rep.Debugf("the local clone cannot give %s: %v", label, err)
	}
	if f.cfg.GitHubToken == "" || f.cfg.Repository == "" || f.cfg.GitHubAPIURL == "" {
		return nil, fmt.Errorf("%s is not in the local clone, and without github-token (and GITHUB_REPOSITORY, GITHUB_API_URL) it cannot be read through GitHub's API: fetch it (actions/checkout with fetch-depth: 0), give github-token, or set base-file", label)
	}
	gh, err := githubapi.New(f.cfg.GitHubAPIURL, f.cfg.GitHubToken, f.cfg.Repository, githubapi.Options{UserAgent: f.userAgent, FirstRetry: f.firstPoll})
	if err != nil {
		return nil, err
	}
	f.rep.Debugf("reading %s through GitHub's API", label)
	return &base{fsys: gh.Files(f.github(ctx), sha), name: name, label: label, commit: commit}, nil
}

// inRepository finds the clone a workspace file is in (the workspace
// itself, or a folder of it that holds a .git, as actions/checkout with
// path: leaves it) and the file's path in that clone.
func (f *flow) inRepository(file string) (repoDir, name string) {
	for dir := path.Dir(file); ; dir = path.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(f.ws.Dir(), filepath.FromSlash(dir), ".git")); err == nil {
			if dir == "." {
				return "", file
			}
			return dir, file[len(dir)+1:]
		}
		if dir == "." {
			// No clone here: the workspace is taken for the repository's top.
			return "", file
		}
	}
}

// withFirstFault is err, saying what the first error is when err only
// counts the errors of a description (the base's are not annotated).
func withFirstFault(err error) error {
	var faults *openapi.Faults
	if !errors.As(err, &faults) {
		return err
	}
	if len(faults.Load) > 0 {
		return fmt.Errorf("%w, the first: %v", err, faults.Load[0])
	}
	for _, fd := range faults.Findings {
		if fd.Severity == openapi.Error {
			return fmt.Errorf("%w, the first: %s:%d:%d: %s", err, fd.File, fd.Pos.Line, fd.Pos.Col, fd.Msg)
		}
	}
	return err
}

// noBaseError is loadBase's error when the base holds no regular file
// where the description is (Err says what is there, if anything).
type noBaseError struct{ Err error }

func (e *noBaseError) Error() string { return e.Err.Error() }
func (e *noBaseError) Unwrap() error { return e.Err }

// loadBase reads the base description and bundles it into the JSON a run
// would have published: a *noBaseError when the description itself is not
// there or is no regular file.
//
// A base is compared as it is, as oasdiff reads it: a key written twice in
// a JSON file is read with its last copy winning, and what validation finds
// wrong does not stop the comparison. The described's fault says in one
// line what the base holds that a head would be refused for.
func loadBase(ctx context.Context, b *base) (*described, error) {
	return runAside(ctx, func() (*described, error) {
		// As the head is read: a JSON description that names no other file
		// in a single pass.
		out := b.sink()
		fsys := b.fsys
		if b.lastKeys {
			fsys = withLastKeys(fsys)
		}
		p, err := openapi.Prepare(ctx, fsys, b.name, openapi.PrepareOptions{Bundle: true}, out)
		var le *openapi.LoadError
		if errors.As(err, &le) && le.File == b.name && le.Pos.Line == 0 && (errors.Is(err, fs.ErrNotExist) || isNotRegular(err)) {
			return nil, &noBaseError{Err: le.Err}
		}
		fault, lastKeys := "", b.lastKeys
		if errors.Is(err, jsontext.ErrDuplicateName) && !lastKeys {
			fault = fmt.Sprintf("has a key written twice (%v), read as JSON parsers read it: the last copy wins", err)
			out, lastKeys = b.sink(), true
			p, err = openapi.Prepare(ctx, withLastKeys(b.fsys), b.name, openapi.PrepareOptions{Bundle: true}, out)
		}
		if err != nil {
			return nil, err
		}
		if fault == "" {
			fault = firstError(p.Findings)
		}
		d := &described{doc: p.Root, size: p.Size, bundled: true, onePass: p.OnePass, fault: fault, lastKeys: lastKeys, prepared: p}
		if m, ok := out.(*memSink); ok {
			d.held = m.buf // json() hands it over; a base is not uploaded
		}
		return d, nil
	}, (*described).drop)
}

// sink is where loadBase writes b's JSON: in memory, or nowhere when b is
// read for its tree alone.
func (b *base) sink() openapi.Sink {
	if b.treeOnly {
		return discardSink{}
	}
	return &memSink{}
}

// firstError says what validation found wrong, "" when it found no error.
func firstError(findings []openapi.Finding) string {
	n, first := 0, -1
	for i, fd := range findings {
		if fd.Severity == openapi.Error {
			if n++; first < 0 {
				first = i
			}
		}
	}
	if n == 0 {
		return ""
	}
	fd := findings[first]
	return fmt.Sprintf("has %s that a head would be refused for (the first: %s:%d:%d: %s), compared as it is",
		report.Plural(n, "error"), fd.File, fd.Pos.Line, fd.Pos.Col, fd.Msg)
}

// headJSON is the description as published, bundled: with bundle: false the
// upload keeps its $refs, which the comparison cannot follow.
func (f *flow) headJSON(ctx context.Context) ([]byte, error) {
	if f.head.bundled {
		return f.head.json()
	}
	scratch, err := f.ws.Scratch()
	if err != nil {
		return nil, err
	}
	defer scratch.Close()
	d, err := runAside(ctx, func() (*described, error) {
		d, _, err := describe(ctx, true, f.plan.File, f.ws.FS(), scratch)
		return d, err
	}, (*described).drop)
	if err != nil {
		return nil, fmt.Errorf("the description cannot be bundled for the comparison: %w", err)
	}
	defer d.drop() // its upload is all the comparison reads
	return d.json()
}

// maxIgnoreFile bounds breaking-ignore.
const maxIgnoreFile = 1 << 20

// ignoreFile reads breaking-ignore, which lists the breaking changes to
// move aside.
func (f *flow) ignoreFile() ([]byte, error) {
	// Read as the description's files are: a pull request can make it a
	// link to a hidden file.
	data, err := openapi.ReadFile(f.ws.FS(), f.plan.IgnoreFile, maxIgnoreFile)
	if err == nil {
		return data, nil
	}
	why := err.Error()
	switch {
	case errors.Is(err, openapi.ErrLimit):
		why = fmt.Sprintf("it is more than %d bytes", maxIgnoreFile)
	case errors.Is(err, openapi.ErrNotAllowed):
		why += "; give breaking-ignore the file itself, not a link to it"
	}
	return nil, &InputError{Input: "breaking-ignore", Err: err, Msg: fmt.Sprintf("%s cannot be read: %s", f.plan.IgnoreFile, why)}
}

// reportChanges logs the counts, sets the outputs, and annotates the
// breaking changes where they are written (where.go) while the run's
// budget of annotations has room, listing the others in the log.
func (f *flow) reportChanges(c *Comparison, b *base, baseDoc func() *openapi.Node) error {
	r := c.Report
	f.rep.Infof("API changes against %s: %s, %s, %s", c.Base, report.Plural(r.Count(apidiff.Breaking), "breaking change"),
		report.Plural(r.Count(apidiff.Warning), "warning"), report.Plural(r.Count(apidiff.Info), "other change"))
	level := report.Warning
	if f.cfg.FailOnBreaking {
		level = report.Error
	}
	p := &placer{f: f, b: b, baseDoc: baseDoc}
	as := p.annotations(r.Changes)
	var rest []string
	for _, a := range as {
		if !f.annotations.annotate(f.rep, level, a.message(), a.where) {
			rest = append(rest, report.Shorten(a.message(), maxLoggedChange))
		}
	}
	listUnannotated(f.rep, "breaking changes", "the job summary and the log", rest)
	if err := f.rep.SetOutput("breaking-changes", fmt.Sprint(r.Count(apidiff.Breaking))); err != nil {
		return err
	}
	return f.rep.SetOutput("api-changes", fmt.Sprint(r.Total()))
}

// maxLoggedChange bounds the log line of a breaking change not annotated,
// so that names of any length keep the log a fraction of the description.
const maxLoggedChange = 1000

// changeLine is a change in one line: "DELETE /books/{id}: api removed
// without deprecation (api-removed-without-deprecation)".
func changeLine(ch apidiff.Change) string {
	s := ch.Text + " (" + ch.ID + ")"
	if ch.Path != "" {
		s = ch.Operation + " " + ch.Path + ": " + s
	}
	return s
}

// comment keeps the pull request's comment for this description up to
// date: created once there is something to say, then rewritten on each
// run, down to "no API changes" when a later push takes the changes away.
func (f *flow) comment(ctx context.Context, c *Comparison) error {
	if f.cfg.PullRequest == 0 || !bool(f.cfg.Comment) {
		return nil
	}
	switch {
	case f.cfg.FromFork:
		f.rep.Annotate(report.Notice, fmt.Sprintf("the report is not posted on pull request #%d: it comes from a fork, whose GITHUB_TOKEN cannot write comments. The job summary has it.", f.cfg.PullRequest), report.Where{})
		return nil
	case f.cfg.GitHubToken == "" || f.cfg.Repository == "" || f.cfg.GitHubAPIURL == "":
		f.rep.Annotate(report.Notice, fmt.Sprintf("the report is not posted on pull request #%d: github-token is empty. The job summary has it.", f.cfg.PullRequest), report.Where{})
		return nil
	}
	gh, err := githubapi.New(f.cfg.GitHubAPIURL, f.cfg.GitHubToken, f.cfg.Repository, githubapi.Options{UserAgent: f.userAgent, FirstRetry: f.firstPoll, Secrets: f.secrets})
	if err != nil {
		return err
	}
	create := c.Report != nil && c.Report.Total()+c.Report.TotalAccepted() > 0
	act, link, err := gh.StickyComment(f.github(ctx), f.cfg.PullRequest, commentMarker(f.plan.File, f.plan.Target), commentBody(c, f.plan.File, f.plan.Target), create)
	if err != nil {
		err = f.githubSilent(err)
	}
	switch {
	case ctx.Err() != nil:
		return err
	case githubapi.IsUnreachable(err):
		f.rep.Annotate(report.Warning, fmt.Sprintf("the report is not posted on pull request #%d: %v. Check that the runner reaches GitHub's API (GITHUB_API_URL; a self-hosted runner may need HTTPS_PROXY), or set comment: false. The job summary has the report.", f.cfg.PullRequest, err), report.Where{})
	case githubapi.IsForbidden(err):
		f.rep.Annotate(report.Warning, fmt.Sprintf("the report is not posted on pull request #%d: github-token may not write comments (%v). Give the job permissions: pull-requests: write. The job summary has the report.", f.cfg.PullRequest, err), report.Where{})
	case err != nil:
		f.rep.Annotate(report.Warning, fmt.Sprintf("the report is not posted on pull request #%d: %v. The job summary has it.", f.cfg.PullRequest, err), report.Where{})
	case act != githubapi.CommentNone:
		c.CommentURL = link
		note := fmt.Sprintf("pull request #%d: comment %s", f.cfg.PullRequest, act)
		if link != "" { // an answer may leave its html_url out
			note += " (" + link + ")"
		}
		f.rep.Infof("%s", note)
	}
	return nil
}

// maxComment is the most a comment body may hold: GitHub refuses more than
// 65,536 characters, and the marker and heading take some.
const maxComment = 60_000

// commentBody is the report as the pull request's comment says it: with a
// heading, and with fewer rows when a long report would not fit.
func commentBody(c *Comparison, file, target string) string {
	head := "### API changes in " + report.EscapeMarkdown(file)
	if target != "" {
		head += " (" + report.EscapeMarkdown(target) + ")"
	}
	head += "\n\n"
	for _, rows := range []int{maxChangeRows, 50, 10, 0} {
		body := head + changesMarkdown(c, file, rows)
		if rows < maxChangeRows {
			body += "\nThe report is cut short to fit a comment: the job summary lists every change.\n"
		}
		if len(body) <= maxComment {
			return body
		}
	}
	return head + "The report is too long for a comment: the job summary lists every change.\n"
}

// commentMarker names the description's comment, hidden in the comment's
// first line: by its file, and by its Plan.Target when the run has the file
// more than once (a lone file's marker is the one earlier runs wrote).
func commentMarker(file, target string) string {
	// Escaped so that neither can end the HTML comment.
	m := "<!-- docs-publish api-changes " + url.PathEscape(file)
	if target != "" {
		m += " " + url.PathEscape(target)
	}
	return m + " -->"
}

// runAside runs fn, which cannot be interrupted, and gives up waiting for it
// when ctx ends; what fn gives then, now or once it ends, goes to discard
// (nil: nothing to let go).
func runAside[T any](ctx context.Context, fn func() (T, error), discard func(T)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		if discard != nil {
			go func() { discard((<-done).v) }()
		}
		var zero T
		return zero, ctx.Err()
	}
	// As loadDescription: when both are ready, ctx's end wins.
	if err := ctx.Err(); err != nil {
		if discard != nil {
			discard(r.v)
		}
		var zero T
		return zero, err
	}
	return r.v, r.err
}
