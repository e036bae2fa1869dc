package publish

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// loadDescription reads the description from the workspace (and every file
// its $refs name, all inside the workspace), bundles it and validates it,
// reporting each finding where it was written. Errors, and warnings with
// fail-on-warnings, stop the run before its first request. It gives up when
// ctx ends, wherever it is: parsing a large file cannot be interrupted, so
// it runs aside and is left to finish on its own.
func loadDescription(ctx context.Context, cfg Config, p *Plan, ws *workspace.Workspace, rep report.Reporter, annotations *budget, res *Result, out *os.File) (*described, error) {
	type loaded struct {
		d        *described
		findings []openapi.Finding
		loadErrs openapi.LoadErrors // the load errors, also among the findings
		err      error
	}
	done := make(chan loaded, 1)
	go func() {
		d, findings, err := describe(ctx, bool(cfg.Bundle), p.File, ws.FS(), out)
		// Errors at places in the description are findings like any other:
		// each is reported where it was written, with what validation
		// found in the rest.
		var faults *openapi.Faults
		var les openapi.LoadErrors
		switch {
		case errors.As(err, &faults):
			done <- loaded{findings: append(loadFindings(faults.Load), faults.Findings...), loadErrs: faults.Load}
			return
		case errors.As(err, &les):
			done <- loaded{findings: loadFindings(les), loadErrs: les}
			return
		}
		done <- loaded{d, findings, nil, err}
	}()
	var l loaded
	select {
	case l = <-done:
	case <-ctx.Done():
		// The load may yet end with a tree: let it go then.
		go func() { (<-done).d.drop() }()
	}
	// The tree is the run's only when it is returned.
	kept := false
	defer func() {
		if !kept {
			l.d.drop()
		}
	}()
	// A load that ends as the time runs out ends the run as one cut short
	// does: select picks at random between the two when both are ready.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("loading the description: %w", err)
	}
	if l.err != nil {
		return nil, l.err
	}
	res.Findings = inReportOrder(l.findings)
	errs, warns, files := countFindings(res.Findings)
	res.Unannotated = annotateFindings(rep, res.Findings, annotations)
	switch {
	case errs == 1 && len(l.loadErrs) == 1:
		// The one fault is what the final error says, where it is.
		first := res.Findings[0]
		return nil, &InputError{Input: "file", Err: l.loadErrs, Annotated: true, Msg: fmt.Sprintf("%s cannot be loaded: %s:%d:%d: %s (nothing was sent)", p.File, first.File, first.Pos.Line, first.Pos.Col, first.Msg)}
	case errs > 0:
		// The cause keeps every load error; the message sums up, as the
		// annotations say each fault.
		var cause error = ErrInvalidDescription
		if len(l.loadErrs) > 0 {
			cause = errors.Join(ErrInvalidDescription, l.loadErrs)
		}
		return nil, &InputError{Input: "file", Err: cause, Msg: fmt.Sprintf("%s has %s in %s and %s (%s): fix the errors, nothing was sent", cfg.File, report.Plural(errs, "error"), report.Plural(files, "file"), report.Plural(warns, "warning"), seeAnnotations(cfg.CLI, res.Unannotated))}
	case warns > 0 && bool(cfg.FailOnWarnings):
		return nil, &InputError{Input: "file", Err: ErrInvalidDescription, Msg: fmt.Sprintf("%s has %s and fail-on-warnings is true (%s): fix them, or set fail-on-warnings: false; nothing was sent", cfg.File, report.Plural(warns, "warning"), seeAnnotations(cfg.CLI, res.Unannotated))}
	}
	if named := l.d.prepared.Unbundled; len(named) > 0 {
		rep.Annotate(report.Notice, unbundledNote(cfg, p.FileName, named), report.Where{})
	}
	kept = true
	return l.d, nil
}

// unbundledNote says that the upload, written to the project as
// fileName, refers to files it does not hold (named, by their paths from
// it), with bundle false: the service must find them in the project.
func unbundledNote(cfg Config, fileName string, named []string) string {
	const most = 5
	list := strings.Join(named[:min(len(named), most)], ", ")
	if n := len(named) - most; n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("bundle is false, so the upload refers to %s it does not hold (%s): the service looks for them from %s among the project's files on branch %s, which must have them; or set bundle: true to lift them into the upload",
		report.Plural(len(named), "file"), list, fileName, cfg.Branch)
}

// inReportOrder sorts findings as they are annotated and listed: errors
// first, then by file, line and column; findings at one place keep their
// order.
func inReportOrder(fs []openapi.Finding) []openapi.Finding {
	slices.SortStableFunc(fs, func(a, b openapi.Finding) int {
		if ae, be := a.Severity == openapi.Error, b.Severity == openapi.Error; ae != be {
			if ae {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return fs
}

// countFindings counts errors, warnings, and the files with errors.
func countFindings(fs []openapi.Finding) (errs, warns, files int) {
	in := map[string]bool{}
	for _, f := range fs {
		if f.Severity != openapi.Error {
			warns++
			continue
		}
		errs++
		in[f.File] = true
	}
	return errs, warns, len(in)
}

// annotateFindings annotates the findings (in report order) while the
// run's budget has room, logs the others, one line each, and returns how
// many were not annotated.
func annotateFindings(rep report.Reporter, findings []openapi.Finding, annotations *budget) int {
	var rest []string
	for _, f := range findings {
		if !annotations.annotate(rep, levelOf(f.Severity), f.Msg, report.Where{File: f.File, Line: int(f.Pos.Line), Col: int(f.Pos.Col)}) {
			rest = append(rest, f.String())
		}
	}
	listUnannotated(rep, "findings in the description", "the job summary and the log", rest)
	return len(rest)
}

// seeAnnotations points at where the findings are: off GitHub (cli),
// there are no annotations, and the log has listed every finding above.
func seeAnnotations(cli bool, unannotated int) string {
	switch {
	case cli:
		return "listed above"
	case unannotated == 0:
		return "see the annotations"
	}
	return fmt.Sprintf("see the annotations, and the job summary or the log for the %d not annotated", unannotated)
}

// described is a description as it is published: its tree, which knows
// where each value was written (after the single pass, only what
// validation read of it), and the JSON that is uploaded, read from body.
type described struct {
	doc     *openapi.Node
	body    io.ReaderAt
	size    int64
	bundled bool
	onePass bool // the single pass read it: one JSON file, naming no other
	// fault says what a base holds that a head would be refused for.
	fault string
	// lastKeys: a base read with the last copy of a key written twice
	// winning.
	lastKeys bool
	// prepared holds doc's room in the collector's limit.
	prepared *openapi.Prepared
	// held is the upload when it is held in memory (a base's), which json
	// hands over rather than copies.
	held []byte
}

// drop lets the tree go, and its room in the collector's limit; the
// upload stays.
func (d *described) drop() {
	if d != nil {
		d.doc = nil
		d.prepared.Release()
		d.prepared = nil // its Root is the tree
	}
}

// json is the whole upload, read from body; one held in memory is handed
// over, and d holds it no more.
func (d *described) json() ([]byte, error) {
	if d.held != nil {
		b := d.held
		d.held, d.body = nil, nil
		return b, nil
	}
	b := make([]byte, d.size)
	if _, err := d.body.ReadAt(b, 0); err != nil && !(err == io.EOF && d.size == 0) {
		return nil, fmt.Errorf("read the upload back: %w", err)
	}
	return b, nil
}

// describe loads the description name from fsys, bundles it and validates
// it, writing the upload to out.
func describe(ctx context.Context, bundle bool, name string, fsys fs.FS, out *os.File) (*described, []openapi.Finding, error) {
	p, err := openapi.Prepare(ctx, fsys, name, openapi.PrepareOptions{Bundle: bundle}, out)
	if err != nil {
		return nil, nil, loadError(name, err)
	}
	return &described{doc: p.Root, body: out, size: p.Size, bundled: bundle, onePass: p.OnePass, prepared: p}, p.Findings, nil
}

// loadFindings are load errors as findings.
func loadFindings(les openapi.LoadErrors) []openapi.Finding {
	out := make([]openapi.Finding, len(les))
	for i, le := range les {
		msg := le.Msg
		if errors.Is(le, openapi.ErrNotDescription) {
			msg += ": " + pointAtDescription
		}
		out[i] = openapi.Finding{Severity: openapi.Error, Msg: msg, File: le.File, Pos: le.Pos}
	}
	return out
}

// pointAtDescription is the advice for a file input that names a file
// that is not an API description.
const pointAtDescription = "point the file input at a Swagger 2.0 or OpenAPI 3.x description"

// loadError says what to do about a description that cannot be loaded: the
// file itself (missing, outside, not a file) is an input error; errors at
// places in it are LoadErrors, reported as findings.
func loadError(name string, err error) error {
	var le *openapi.LoadError
	var wo *workspace.OutsideError
	var nr *workspace.NotRegularError
	var faults *openapi.Faults
	var les openapi.LoadErrors
	if errors.As(err, &faults) {
		return faults // at places in the description, with the findings of the rest
	}
	if errors.As(err, &les) {
		return les // at places in the description: findings
	}
	// The file itself could not be read: an error at no position of it.
	itself := errors.As(err, &le) && le.File == name && le.Pos.Line == 0
	switch {
	case itself && errors.Is(err, fs.ErrNotExist):
		return &InputError{Input: "file", Err: err, Msg: doesNotExist("file", name)}
	case itself && errors.As(err, &wo):
		return &InputError{Input: "file", Err: err, Msg: namedOnce(le) + ": give a path inside the workspace"}
	case itself && errors.As(err, &nr):
		return &InputError{Input: "file", Err: err, Msg: namedOnce(le) + ": give the path of the description file itself, such as api/openapi.yaml"}
	case itself && errors.Is(err, openapi.ErrNotDescription):
		return &InputError{Input: "file", Err: err, Msg: le.Error() + ": " + pointAtDescription}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("loading the description: %w", err)
	case errors.As(err, &le) && le.Pos.Line > 0:
		return openapi.LoadErrors{le} // at a place: a finding
	}
	return &InputError{Input: "file", Msg: err.Error(), Err: err}
}

// doesNotExist says that the file an input names is not there, and what to
// do.
func doesNotExist(input, value string) string {
	return value + " does not exist: check the " + input + " input (it is relative to the workspace) and that the file is checked out or generated before this step"
}

// namedOnce is a load error of a file as a whole, naming the file once: a
// message that starts with the file's name (a link that leads outside, a
// folder) is not prefixed with it again.
func namedOnce(le *openapi.LoadError) string {
	if strings.HasPrefix(le.Msg, le.File+" ") {
		return le.Msg
	}
	return le.Error()
}

// pathInputError is a path input that cannot be used: it leaves the
// workspace, or (for the paths the run writes) a folder or a file is in the
// way, or the system refuses the write. Each says what the path is and what
// to do, in words that fit a file the run reads or one it writes.
func pathInputError(input, value string, err error) error {
	_, writes := writtenFile[input]
	var wo *workspace.OutsideError
	var isf *workspace.IsFolderError
	var nf *workspace.NotFolderError
	var we *workspace.WriteError
	msg := err.Error()
	switch {
	case errors.As(err, &wo):
		where := "is outside the workspace"
		if wo.Link {
			where = "leads outside the workspace through a symbolic link"
		}
		advice := "only files in the workspace are read (on GitHub, the repository's checkout; elsewhere the working directory, or --workspace): give a path inside it, relative to it"
		if writes {
			advice = "give a path inside it, so later steps can read what the run writes"
		}
		msg = fmt.Sprintf("%q %s: %s", value, where, advice)
	case errors.As(err, &isf):
		msg = fmt.Sprintf("%q is an existing folder, and %s names the file to write: give a file's path, such as %s, or remove the folder first", value, input, path.Join(value, writtenFile[input]))
	case errors.As(err, &nf):
		msg = fmt.Sprintf("%q cannot be made, because %s is a file, not a folder: give a path whose folders are folders, or do not exist yet", value, nf.Folder)
	case errors.As(err, &we):
		msg = fmt.Sprintf("%s: give a path in the workspace that the run can write to (the workspace's folders belong to the runner's user)", we.Error())
	}
	return &InputError{Input: input, Err: err, Msg: msg}
}

// writtenFile holds the inputs that name a path the run writes, each with
// an example of a file's name for it ("" for a folder).
var writtenFile = map[string]string{"download-path": "docs.zip", "bundle-path": "openapi.json", "extract-to": "", "report": "docs-publish-report.json"}

// levelOf is the annotation level of a finding's severity.
func levelOf(s openapi.Severity) report.Level {
	if s == openapi.Error {
		return report.Error
	}
	return report.Warning
}

// dryRun says what a run would publish, and sends nothing.
func dryRun(cfg Config, p *Plan, size int64, rep report.Reporter) error {
	end := rep.Group("dry run")
	defer end()
	doc := "the project's only doc"
	if cfg.DocID != "" {
		doc = "doc " + cfg.DocID
	}
	branch := cfg.Branch
	if branch == "" {
		branch = "(no branch: set branch)"
	}
	project := cfg.ProjectID
	if project == "" {
		project = "(no project-id)"
	}
	rep.Infof("dry run: nothing was sent to the service")
	rep.Infof("would write %s (%d bytes of JSON) on branch %s of project %s", p.FileName, size, branch, project)
	rep.Infof("would release a build under %s with setLive %v", doc, cfg.SetLive)
	if p.Download {
		rep.Infof("would download the build")
	}
	return rep.SetOutput("file-name", p.FileName)
}
