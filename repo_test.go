package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction"
)

var update = flag.Bool("update", false, "rewrite generated files (README tables)")

// TestDockerfileKeepsContainerRules: the runner starts the container as root
// in the workspace with its own working directory; USER or WORKDIR break
// writing to the workspace and GITHUB_OUTPUT, a shell-form ENTRYPOINT loses
// signals, and a dynamic binary does not run on scratch.
func TestDockerfileKeepsContainerRules(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var entrypoints []string
	for i, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "USER":
			t.Errorf("line %d: USER: the action must run as root to write the workspace", i+1)
		case "WORKDIR":
			t.Errorf("line %d: WORKDIR: the runner sets the working directory to the workspace", i+1)
		case "ENTRYPOINT":
			entrypoints = append(entrypoints, strings.TrimSpace(strings.TrimPrefix(line, fields[0])))
		}
	}
	if len(entrypoints) != 1 || !regexp.MustCompile(`^\["/[^"]+"\]$`).MatchString(entrypoints[0]) {
		t.Errorf("ENTRYPOINT %v: want one exec-form entry with an absolute path", entrypoints)
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "ca-certificates"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("Dockerfile lacks %s", want)
		}
	}
}

// TestReadmeTables: the README's input and output tables are generated from
// action.yml (go test . -update rewrites them), so they cannot drift.
func TestReadmeTables(t *testing.T) {
	t.Parallel()
	meta, err := ghaction.ParseMetadata(actionYAML)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| input | required | default | description |\n|---|---|---|---|\n")
	for _, in := range meta.Inputs {
		req := ""
		if in.Required {
			req = "yes"
		}
		def := ""
		if in.HasDefault {
			def = "`" + cell(in.Default) + "`" // a | in a table splits the cell, even in code
		}
		b.WriteString("| `" + in.Name + "` | " + req + " | " + def + " | " + cell(in.Description) + " |\n")
	}
	b.WriteString("\n| output | description |\n|---|---|\n")
	for _, o := range meta.Outputs {
		b.WriteString("| `" + o.Name + "` | " + cell(o.Description) + " |\n")
	}
	const begin, end = "<!-- inputs:begin (generated from action.yml) -->\n", "<!-- inputs:end -->"
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", begin, end)
	}
	want := s[:i+len(begin)] + b.String() + s[j:]
	if *update {
		if err := os.WriteFile("README.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != s {
		t.Error("README.md tables differ from action.yml: run go test . -run TestReadmeTables -update")
	}
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}

// actionlint finds actionlint: $ACTIONLINT, the PATH, or, when the run opts
// in to the network, `go run` of the pinned version through the module
// proxy. A run that opted in fails when it cannot fetch it: it asked for
// the check.
func actionlint(t *testing.T) []string {
	t.Helper()
	if p := os.Getenv("ACTIONLINT"); p != "" {
		return []string{p}
	}
	if p, err := exec.LookPath("actionlint"); err == nil {
		return []string{p}
	}
	if os.Getenv("DOCS_PUBLISH_NETWORK_TESTS") != "1" {
		t.Skip("actionlint is not on the PATH; set DOCS_PUBLISH_NETWORK_TESTS=1 to fetch it through the module proxy")
	}
	out, err := exec.Command("go", "run", actionlintModule, "-version").CombinedOutput()
	if err != nil {
		t.Fatalf("DOCS_PUBLISH_NETWORK_TESTS=1, and actionlint could not be fetched: go run %s: %v\n%s", actionlintModule, err, out)
	}
	return []string{"go", "run", actionlintModule}
}

const actionlintModule = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"

// TestReadmeWorkflowsPassActionlint: every workflow in the README is a
// complete file that actionlint accepts.
func TestReadmeWorkflowsPassActionlint(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	dir := t.TempDir()
	var files []string
	for i, b := range blocks {
		if !strings.Contains(b[1], "\njobs:") {
			continue
		}
		p := filepath.Join(dir, fmt.Sprintf("readme-%d.yml", i))
		os.WriteFile(p, []byte(b[1]), 0o644)
		files = append(files, p)
	}
	if len(files) < 9 {
		t.Fatalf("found %d workflows in README.md, want the quick start and eight recipes", len(files))
	}
	cmd := actionlint(t)
	out, err := exec.Command(cmd[0], append(cmd[1:], files...)...).CombinedOutput()
	if err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

// TestActionRunsAPrebuiltImage: a released action must not build the
// Dockerfile in every job; the repository's self-test swaps it back.
func TestActionRunsAPrebuiltImage(t *testing.T) {
	t.Parallel()
	if !regexp.MustCompile(`(?m)^  image: docker://ghcr\.io/[a-z0-9-]+/docs-publish:v\d+$`).Match(actionYAML) {
		t.Error("action.yml runs.image is not docker://ghcr.io/<owner>/docs-publish:v<major>")
	}
	ci, err := os.ReadFile(".github/workflows/ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"image: Dockerfile|' action.yml", "uses: ./"} {
		if !strings.Contains(string(ci), want) {
			t.Errorf("the self-test job does not %q", want)
		}
	}
}

// TestTestsAreHermetic: the README's test command fetches nothing unless the
// run opts in. A stand-in npm on the PATH records any call; the large
// real-world test must skip without calling it.
func TestTestsAreHermetic(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test in a child process")
	}
	bin := t.TempDir()
	called := filepath.Join(t.TempDir(), "npm-was-called")
	npm := "#!/bin/sh\ntouch " + called + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestLargeRealWorldDescriptions", "./internal/openapi")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "DOCS_PUBLISH_NETWORK_TESTS=", "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir())
	cmd.Env = append(cmd.Env, "GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if _, err := os.Stat(called); err == nil {
		t.Error("go test called npm without DOCS_PUBLISH_NETWORK_TESTS=1")
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
