package publish

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

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
func loadDescription(ctx context.Context, cfg Config, p *Plan, ws *workspace.Workspace, rep report.Reporter, res *Result, out *os.File) (*described, error) {
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
		// each is reported where it was written.
		var les openapi.LoadErrors
		if errors.As(err, &les) {
			done <- loaded{findings: loadFindings(les), loadErrs: les}
			return
		}
		done <- loaded{d, findings, nil, err}
	}()
	var l loaded
	select {
	case l = <-done:
	case <-ctx.Done():
		return nil, fmt.Errorf("loading the description: %w", ctx.Err())
	}
	if l.err != nil {
		return nil, l.err
	}
	res.Findings = l.findings
	var errs, warns int
	for i, f := range res.Findings {
		if i < maxAnnotated {
			rep.Annotate(levelOf(f.Severity), f.Msg, report.Where{File: f.File, Line: int(f.Pos.Line), Col: int(f.Pos.Col)})
		}
		if f.Severity == openapi.Error {
			errs++
		} else {
			warns++
		}
	}
	if n := len(res.Findings); n > maxAnnotated {
		rep.Annotate(report.Notice, fmt.Sprintf("%d more findings in the description are not annotated (the first %d are): the job summary lists them", n-maxAnnotated, maxAnnotated), report.Where{})
	}
	switch {
	case len(l.loadErrs) > 0:
		// The cause keeps every load error; the first is where the run's
		// final error points. Its finding says it with the advice.
		first := res.Findings[0]
		more := ""
		if len(l.loadErrs) > 1 {
			more = fmt.Sprintf(" (and %d more, see the annotations)", len(l.loadErrs)-1)
		}
		return nil, &InputError{Input: "file", Err: l.loadErrs, Msg: fmt.Sprintf("%s cannot be loaded: %s:%d:%d: %s%s: fix it, nothing was sent", p.File, first.File, first.Pos.Line, first.Pos.Col, first.Msg, more)}
	case errs > 0:
		return nil, &InputError{Input: "file", Err: ErrInvalidDescription, Msg: fmt.Sprintf("%s has %s and %s (see the annotations): fix the errors, nothing was sent", cfg.File, plural(errs, "error"), plural(warns, "warning"))}
	case warns > 0 && bool(cfg.FailOnWarnings):
		return nil, &InputError{Input: "file", Err: ErrInvalidDescription, Msg: fmt.Sprintf("%s has %s and fail-on-warnings is true (see the annotations): fix them, or set fail-on-warnings: false; nothing was sent", cfg.File, plural(warns, "warning"))}
	}
	return l.d, nil
}

// maxAnnotated is how many findings become annotations: GitHub shows ten
// of each level per step, and a page of them helps no one more.
const maxAnnotated = 50

// described is a description as it is published: its tree, which knows
// where each value was written (after the single pass, only what
// validation read of it), and the JSON that is uploaded, read from body.
type described struct {
	doc     *openapi.Node
	body    io.ReaderAt
	size    int64
	bundled bool
	onePass bool // the single pass read it: one JSON file, naming no other
}

// json is the whole upload, read from body.
func (d *described) json() ([]byte, error) {
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
	return &described{doc: p.Root, body: out, size: p.Size, bundled: bundle, onePass: p.OnePass}, p.Findings, nil
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
	var les openapi.LoadErrors
	if errors.As(err, &les) {
		return les // at places in the description: findings
	}
	// The file itself could not be read: an error at no position of it.
	itself := errors.As(err, &le) && le.File == name && le.Pos.Line == 0
	switch {
	case itself && errors.Is(err, fs.ErrNotExist):
		return &InputError{Input: "file", Err: err, Msg: name + " does not exist: check the file input (it is relative to the workspace) and that the file is checked out or generated before this step"}
	case itself && errors.As(err, &wo):
		return &InputError{Input: "file", Err: err, Msg: le.Error() + ": give a path inside the workspace"}
	case itself && errors.As(err, &nr):
		return &InputError{Input: "file", Err: err, Msg: le.Error() + ": give the path of the description file itself, such as api/openapi.yaml"}
	case itself && errors.Is(err, openapi.ErrNotDescription):
		return &InputError{Input: "file", Err: err, Msg: le.Error() + ": " + pointAtDescription}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("loading the description: %w", err)
	case errors.As(err, &le) && le.Pos.Line > 0:
		return openapi.LoadErrors{le} // at a place: a finding
	}
	return &InputError{Input: "file", Msg: err.Error(), Err: err}
}

// outsideInput is a path input that leaves the workspace.
func outsideInput(input, value string, err error) error {
	var wo *workspace.OutsideError
	if errors.As(err, &wo) && wo.Link {
		return &InputError{Input: input, Err: err, Msg: fmt.Sprintf("%q leads outside the workspace through a symbolic link: give a path inside it, so later steps can read the file", value)}
	}
	if errors.As(err, &wo) {
		return &InputError{Input: input, Err: err, Msg: fmt.Sprintf("%q is outside the workspace: give a path inside it, so later steps can read the file", value)}
	}
	return &InputError{Input: input, Err: err, Msg: err.Error()}
}

// levelOf is the annotation level of a finding's severity.
func levelOf(s openapi.Severity) report.Level {
	if s == openapi.Error {
		return report.Error
	}
	return report.Warning
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
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
