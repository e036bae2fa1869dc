package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/testenv"
	"go.yaml.in/yaml/v3"
)

func readme(t *testing.T) string {
	t.Helper()
	return pages(t, "README.md")
}

// pages is the text of the README and the pages under docs/ named, one
// after the other: the claims tested live on them.
func pages(t *testing.T, names ...string) string {
	t.Helper()
	var all strings.Builder
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
		all.WriteString("\n")
	}
	return all.String()
}

// workflowPages are where the quick start's and the recipes' workflows are.
var workflowPages = []string{"README.md", "docs/recipes.md"}

// TestReadmeRecipesSetRequiredInputs: every step of a README or recipe workflow that
// uses the action sets every input action.yml marks required, so a recipe
// that works without an input (the API-changes check needs no token) and
// action.yml cannot disagree.
func TestReadmeRecipesSetRequiredInputs(t *testing.T) {
	t.Parallel()
	meta, err := ghaction.ParseMetadata(actionYAML)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, b := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(pages(t, workflowPages...), -1) {
		var wf struct {
			Name string
			Jobs map[string]struct {
				Steps []struct {
					Uses string
					With map[string]any
				}
			}
		}
		if err := yaml.Unmarshal([]byte(b[1]), &wf); err != nil || wf.Jobs == nil {
			continue // not a workflow
		}
		for _, job := range wf.Jobs {
			for _, st := range job.Steps {
				if !strings.HasPrefix(st.Uses, "docs-publish/docs-publish@") {
					continue
				}
				steps++
				for _, in := range meta.Inputs {
					if _, set := st.With[in.Name]; in.Required && !set {
						t.Errorf("workflow %q leaves out %s, which action.yml marks required", wf.Name, in.Name)
					}
				}
			}
		}
	}
	if steps < 9 {
		t.Fatalf("found %d steps that use the action in %v, want the quick start's and the recipes'", steps, workflowPages)
	}
}

// TestReadmeDocumentsEveryVariant: every variant the emulator offers (and
// lists in its --help) has a row of the variants table of the emulator's page.
func TestReadmeDocumentsEveryVariant(t *testing.T) {
	t.Parallel()
	var rows []string
	for _, l := range strings.Split(pages(t, "docs/emulator.md"), "\n") {
		if name, _, ok := strings.Cut(strings.TrimPrefix(l, "| "), " | "); ok && strings.HasPrefix(l, "| `") {
			rows = append(rows, name)
		}
	}
	for _, v := range append(emulator.VariantNames(), "random:<seed>") {
		found := false
		for _, r := range rows {
			found = found || strings.Contains(r, "`"+v+"`")
		}
		if !found {
			t.Errorf("the emulator's variant %s has no row in docs/emulator.md's variants table", v)
		}
	}
}

// TestReadmeInstallCommandBuilds: the README's "Install the CLI" commands,
// run as a newcomer runs them in a fresh clone (the tracked files, nothing
// built), give a docs-publish that answers --help.
func TestReadmeInstallCommandBuilds(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // builds the program in a copy of the repository
	m := regexp.MustCompile("(?s)## Install the CLI\n.*?```sh\n(.*?)```").FindStringSubmatch(readme(t))
	if m == nil {
		t.Fatal(`README.md has no "Install the CLI" section with a sh block`)
	}
	files, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skip("not in a git clone: no tracked files to copy")
	}
	clone := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // tracked, but deleted in the working tree
		}
		p := filepath.Join(clone, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range strings.Split(m[1], "\n") {
		cmdline, _, _ := strings.Cut(line, "#")
		if strings.TrimSpace(cmdline) == "" {
			continue
		}
		cmd := exec.Command("sh", "-c", cmdline)
		cmd.Dir = clone
		// The module cache and build cache of this machine, as a newcomer
		// who has built Go before has; the network is not needed. The
		// run's own build flags stay (CI's -trimpath finds the packages
		// it compiled in the build cache).
		cmd.Env = append(os.Environ(), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=readonly"), "GOPROXY=off", "GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.TrimSpace(cmdline), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(clone, "docs-publish")); err != nil {
		t.Errorf("the install commands left no docs-publish in the clone's root: %v", err)
	}
}

// TestReadmeReadsInFiveMinutes: the README stays short, and every relative
// link of the README and of the pages under docs/ names a file that exists,
// and a heading of it when the link has an anchor.
func TestReadmeReadsInFiveMinutes(t *testing.T) {
	t.Parallel()
	if n := len(readme(t)); n > 20<<10 {
		t.Errorf("README.md is %d bytes, want at most 20 KiB: move reference material to a page under docs/", n)
	}
	files, err := filepath.Glob("docs/*.md")
	if err != nil || len(files) < 9 {
		t.Fatalf("docs/ holds %d pages (%v), want one a topic", len(files), err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, file := range append([]string{"README.md"}, files...) {
		for _, m := range link.FindAllStringSubmatch(pages(t, file), -1) {
			target, anchor, _ := strings.Cut(m[1], "#")
			if strings.Contains(target, "://") || strings.HasPrefix(m[1], "mailto:") {
				continue
			}
			path := file
			if target != "" {
				path = filepath.Join(filepath.Dir(file), target)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				if _, serr := os.Stat(path); serr == nil {
					continue // a folder, or a file that is not text
				}
				t.Errorf("%s links to %s, which does not exist", file, m[1])
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !slices.Contains(headingAnchors(string(b)), anchor) {
				t.Errorf("%s links to %s: %s has no such heading", file, m[1], path)
			}
		}
	}
}

// headingAnchors are the anchors GitHub gives a Markdown text's headings:
// lower case, punctuation but hyphens dropped, spaces as hyphens.
func headingAnchors(md string) []string {
	var out []string
	drop := regexp.MustCompile(`[^\p{L}\p{N}\- _]`)
	for _, l := range strings.Split(md, "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") {
			out = append(out, strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-"))
		}
	}
	return out
}
