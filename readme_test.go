package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/testenv"
	"go.yaml.in/yaml/v3"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeRecipesSetRequiredInputs: every step of a README workflow that
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
	for _, b := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(readme(t), -1) {
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
		t.Fatalf("found %d steps that use the action in README.md, want the quick start's and the recipes'", steps)
	}
}

// TestReadmeDocumentsEveryVariant: every variant the emulator offers (and
// lists in its --help) has a row of the README's variants table.
func TestReadmeDocumentsEveryVariant(t *testing.T) {
	t.Parallel()
	var rows []string
	for _, l := range strings.Split(readme(t), "\n") {
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
			t.Errorf("the emulator's variant %s has no row in the README's variants table", v)
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
		// who has built Go before has; the network is not needed.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.TrimSpace(cmdline), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(clone, "docs-publish")); err != nil {
		t.Errorf("the install commands left no docs-publish in the clone's root: %v", err)
	}
}
