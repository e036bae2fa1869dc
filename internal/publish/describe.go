package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/spec"
)

// loadDescription reads the description, bundles it and validates it,
// reporting each finding where it was written. Errors, and warnings with
// fail-on-warnings, stop the run before its first request.
func loadDescription(cfg *Config, rep Reporter, res *Result) ([]byte, error) {
	abs, rel, err := inWorkspace(cfg.Workspace, "file", cfg.File)
	if err != nil {
		return nil, err
	}
	doc, err := spec.Load(abs, rel)
	if err != nil {
		return nil, &InputError{"file", err.Error()}
	}
	if cfg.Bundle {
		display := func(p string) string {
			if r, err := filepath.Rel(cfg.Workspace, p); err == nil && !strings.HasPrefix(r, "..") {
				return filepath.ToSlash(r)
			}
			return p
		}
		if doc, err = spec.Bundle(doc, spec.BundleOptions{Display: display}); err != nil {
			return nil, &InputError{"file", err.Error()}
		}
	}
	res.Findings = spec.Validate(doc)
	var errs, warns int
	for _, f := range res.Findings {
		rep.Annotate(string(f.Severity), f.Msg, f.File, int(f.Pos.Line), int(f.Pos.Col))
		if f.Severity == spec.Error {
			errs++
		} else {
			warns++
		}
	}
	switch {
	case errs > 0:
		return nil, &InputError{"file", fmt.Sprintf("%s has %s and %s (see the annotations): fix the errors, nothing was sent", rel, plural(errs, "error"), plural(warns, "warning"))}
	case warns > 0 && cfg.FailOnWarnings:
		return nil, &InputError{"file", fmt.Sprintf("%s has %s and fail-on-warnings is true (see the annotations): fix them, or set fail-on-warnings: false; nothing was sent", rel, plural(warns, "warning"))}
	}
	// Compact JSON is about half an indented source and no longer than a
	// compact one: start there, so the buffer grows once at most.
	size := 1 << 16
	if fi, err := os.Stat(abs); err == nil {
		size += int(fi.Size()) / 2
	}
	return doc.AppendJSON(make([]byte, 0, size)), nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeFileAtomic writes data beside path and renames it into place, so a
// reader never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".docs-publish-*.part")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// dryRun says what a run would publish, and sends nothing.
func dryRun(cfg Config, p *plan, rep Reporter) error {
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
	rep.Infof("would write %s (%d bytes of JSON) on branch %s of project %s", p.fileName, len(p.content), branch, project)
	rep.Infof("would release a build under %s with setLive %v", doc, cfg.SetLive)
	if cfg.Download {
		rep.Infof("would download the build")
	}
	return rep.SetOutput("file-name", p.fileName)
}
