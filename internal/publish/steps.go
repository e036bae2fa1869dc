package publish

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/report"
)

// Step is one step of a run, as the log, the summary and errors name it.
type Step string

// The steps, in the order a run takes them.
const (
	StepCheck    Step = "check inputs"
	StepCompare  Step = "compare with base"
	StepList     Step = "list docs"
	StepUpdate   Step = "update file"
	StepRelease  Step = "release build"
	StepWait     Step = "wait for build"
	StepDownload Step = "download build"
)

func (s Step) String() string { return string(s) }

// The steps that talk to the service.

func (f *flow) update(ctx context.Context) error {
	desc := fmt.Sprintf("update file %s on branch %s", f.plan.FileName, f.cfg.Branch)
	f.rep.Infof("project %s, file %s, branch %s, %d bytes of JSON", f.cfg.ProjectID, f.plan.FileName, f.cfg.Branch, f.head.size)
	f.rep.Debugf("commit message: %s", f.plan.CommitMessage)
	err := f.client.UpdateFile(ctx, f.cfg.ProjectID, f.plan.FileName, docsapi.FileUpdate{
		Content: io.NewSectionReader(f.head.body, 0, f.head.size), Branch: f.cfg.Branch, CommitMessage: f.plan.CommitMessage,
	})
	if err != nil {
		hint := hintFor(ctx, err, f.cfg)
		if h, ok := notFound(err, fmt.Sprintf("project %q or branch %q may not exist: check project-id (in the project settings of the web application) and that the branch exists in the project", f.cfg.ProjectID, f.cfg.Branch)); ok {
			hint = h
		}
		return &StepError{Step: StepUpdate, Desc: desc, Err: err, Hint: hint}
	}
	if err := f.rep.SetOutput("file-name", f.plan.FileName); err != nil {
		return err
	}
	return nil
}

func (f *flow) listDocs(ctx context.Context) error {
	desc := "list docs of project " + f.cfg.ProjectID
	docs, err := f.client.ListDocs(ctx, f.cfg.ProjectID)
	if err != nil {
		hint := hintFor(ctx, err, f.cfg)
		if h, ok := notFound(err, fmt.Sprintf("project %q may not exist: check project-id (in the project settings of the web application)", f.cfg.ProjectID)); ok {
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

// maxListed is how many docs an error lists.
const maxListed = 20

// chooseDoc picks the doc to release under: the given doc-id if the project
// has it, else the project's only doc. A doc whose id cannot be used is
// refused only when it would be the one: the others are not listed, only
// counted.
func chooseDoc(docs []docsapi.Doc, want, projectID string) (docsapi.Doc, error) {
	usable := slices.DeleteFunc(slices.Clone(docs), func(d docsapi.Doc) bool { return d.IDErr != nil })
	var listed []string
	for _, d := range usable[:min(len(usable), maxListed)] {
		s := string(d.ID)
		if label := cmp.Or(d.Domain, d.Name); label != "" {
			s += " (" + label + ")"
		}
		listed = append(listed, s)
	}
	list := strings.Join(listed, ", ")
	if len(usable) > maxListed {
		list += fmt.Sprintf(" and %d more", len(usable)-maxListed)
	}
	if n := len(docs) - len(usable); n > 0 {
		list += fmt.Sprintf(" (%s whose id docs-publish cannot use left out)", report.Plural(n, "doc"))
	}
	if want != "" {
		if i := slices.IndexFunc(usable, func(d docsapi.Doc) bool { return string(d.ID) == want }); i >= 0 {
			return usable[i], nil
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
		if err := docs[0].IDErr; err != nil {
			return docsapi.Doc{}, fmt.Errorf("the project's only doc has an id docs-publish cannot use: %w: an id must be 1 to %d characters without control characters, so that it cannot change a log line, an output or a file name; report the id to the service's support", err, docsapi.MaxID)
		}
		return docs[0], nil
	}
	return docsapi.Doc{}, fmt.Errorf("project %s has %d docs and doc-id is empty: set doc-id to one of: %s", projectID, len(docs), list)
}

func (f *flow) release(ctx context.Context) error {
	desc := fmt.Sprintf("release build under doc %s", f.res.DocID)
	b, err := f.client.Release(ctx, docsapi.ID(f.res.DocID), bool(f.cfg.SetLive))
	if err != nil {
		hint := hintFor(ctx, err, f.cfg)
		if h, ok := notFound(err, fmt.Sprintf("doc %q may not exist: check doc-id", f.res.DocID)); ok {
			hint = h
		}
		if docsapi.IsUncertain(err) {
			hint = fmt.Sprintf("a build may have been started under doc %s; it was not sent again, so that no second build is made. Check the doc's builds in the web application before running again", f.res.DocID)
		}
		return &StepError{Step: StepRelease, Desc: desc, Err: err, Hint: hint}
	}
	f.res.BuildID, f.res.Live = string(b.ID), bool(f.cfg.SetLive)
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
