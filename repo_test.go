package main

import (
	bin "encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/testenv"
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

// TestReadmeWorkflowsPassActionlint: every workflow in the README and the
// recipes is a complete file that actionlint accepts.
func TestReadmeWorkflowsPassActionlint(t *testing.T) {
	t.Parallel()
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(pages(t, workflowPages...), -1)
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
		t.Fatalf("found %d workflows in %v, want the quick start and eight recipes", len(files), workflowPages)
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
	testenv.Long(t) // runs go test in a child process
	bin := t.TempDir()
	called := filepath.Join(t.TempDir(), "npm-was-called")
	npm := "#!/bin/sh\ntouch " + called + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestLargeRealWorldDescriptions", "./internal/openapi")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), testenv.NetworkVar+"=", testenv.LongVar+"=1", "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir())
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

// maxTrackedSize is the largest file the repository keeps without being
// named in largeOrBinaryAllowed: descriptions, goldens and sources stay far
// below it; a build output or a dumped data set does not.
const maxTrackedSize = 3 << 20

// largeOrBinaryAllowed names (path.Match patterns) the tracked files that
// may exceed maxTrackedSize or hold machine code: fixtures and screenshots,
// each with the reason it is kept. An entry that matches no tracked file is
// an error, so the list cannot outlive its files.
var largeOrBinaryAllowed = map[string]string{
	"testdata/screenshots/*.png": "the demo site as the README shows it",
}

// TestNoBuildOutputsTracked: git holds sources, not what building them
// makes. A compiled binary (ELF, Mach-O, PE, WebAssembly, an object
// archive) or a file over a few MB fails, unless largeOrBinaryAllowed names
// it; .gitignore keeps the usual outputs out.
func TestNoBuildOutputsTracked(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v): nothing to check", err)
	}
	used := map[string]bool{}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		allowed := false
		for pattern := range largeOrBinaryAllowed {
			if ok, _ := path.Match(pattern, name); ok {
				allowed, used[pattern] = true, true
			}
		}
		if allowed {
			continue
		}
		f, err := os.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the working tree: it goes with the next commit
		} else if err != nil {
			t.Fatal(err)
		}
		info, err := f.Stat()
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		if kind := compiledKind(head[:n]); kind != "" {
			t.Errorf("%s is a compiled binary (%s): build outputs do not belong in git (git rm --cached it and add it to .gitignore)", name, kind)
		}
		if info.Size() > maxTrackedSize {
			t.Errorf("%s is %.1f MB, over the %d MB a tracked file may be: name it in largeOrBinaryAllowed with a reason if it must be kept", name, float64(info.Size())/(1<<20), maxTrackedSize>>20)
		}
	}
	for pattern := range largeOrBinaryAllowed {
		if !used[pattern] {
			t.Errorf("largeOrBinaryAllowed: %q matches no tracked file: remove it", pattern)
		}
	}
}

// compiledKind names the executable or object format a file starts with,
// or is empty.
func compiledKind(head []byte) string {
	b := string(head)
	switch {
	case strings.HasPrefix(b, "\x7fELF"):
		return "ELF"
	case strings.HasPrefix(b, "\xfe\xed\xfa\xce"), strings.HasPrefix(b, "\xfe\xed\xfa\xcf"),
		strings.HasPrefix(b, "\xce\xfa\xed\xfe"), strings.HasPrefix(b, "\xcf\xfa\xed\xfe"):
		return "Mach-O"
	case strings.HasPrefix(b, "\xca\xfe\xba\xbe"):
		return "Mach-O universal or Java class"
	case strings.HasPrefix(b, "\x00asm"):
		return "WebAssembly"
	case strings.HasPrefix(b, "!<arch>\n"):
		return "object archive"
	case strings.HasPrefix(b, "MZ") && len(head) >= 0x40:
		// A PE file: the DOS stub's e_lfanew points at "PE\0\0".
		off := int(bin.LittleEndian.Uint32(head[0x3c:]))
		if off+4 <= len(head) && string(head[off:off+4]) == "PE\x00\x00" {
			return "PE"
		}
	}
	return ""
}

func TestCompiledKind(t *testing.T) {
	t.Parallel()
	pe := make([]byte, 0x90)
	copy(pe, "MZ")
	bin.LittleEndian.PutUint32(pe[0x3c:], 0x80)
	copy(pe[0x80:], "PE\x00\x00")
	self, err := os.Executable() // this test binary, built for this machine
	if err != nil {
		t.Fatal(err)
	}
	selfHead := make([]byte, 512)
	f, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.ReadFull(f, selfHead)
	f.Close()
	for _, tc := range []struct {
		name string
		head []byte
		want bool
	}{
		{"this test binary", selfHead[:n], true},
		{"ELF", []byte("\x7fELF\x02\x01\x01"), true},
		{"Mach-O 64", []byte("\xcf\xfa\xed\xfe\x07\x00\x00\x01"), true},
		{"PE", pe, true},
		{"WebAssembly", []byte("\x00asm\x01\x00\x00\x00"), true},
		{"Go archive", []byte("!<arch>\n__.PKGDEF"), true},
		{"text starting MZ", []byte("MZ is a postcode prefix, not a program\n" + strings.Repeat(".", 64)), false},
		{"YAML", []byte("openapi: 3.0.3\n"), false},
		{"PNG", []byte("\x89PNG\r\n\x1a\n"), false},
		{"empty", nil, false},
	} {
		if got := compiledKind(tc.head) != ""; got != tc.want {
			t.Errorf("%s: compiled %v, want %v", tc.name, got, tc.want)
		}
	}
}
