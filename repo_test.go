package main

import (
	"flag"
	"os"
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
			def = "`" + in.Default + "`"
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
