package cli

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
	"github.com/docs-publish/docs-publish/internal/ghaction"
)

// TestEachProblemAnnotatedOnce runs the action as the runner does (every
// input set, its default or the case's value) and counts the ::error
// annotations: a description that cannot be loaded is annotated once, at
// its place, and so is each failing description of a config file; the
// run's other errors keep their one annotation.
func TestEachProblemAnnotatedOnce(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	emu := emulatortest.Start(t, "", 10*time.Millisecond, nil)
	refToMissing := "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    $ref: missing.yml\n"
	files := map[string]string{
		"good.yaml":    string(spec),
		"syntax.yaml":  "openapi: 3.0.3\ninfo: [\n  title: T\n",
		"ref.yaml":     refToMissing,
		"empty.yaml":   "",
		"twofold.yaml": strings.Replace(refToMissing, "paths:\n", "paths:\n  /b:\n    $ref: gone.yml\n", 1),
		"several.yml": "descriptions:\n  - file: ref.yaml\n  - file: syntax.yaml\n    file-name: b.yml\n" +
			"  - file: good.yaml\n    file-name: c.yml\n  - file: nope.yaml\n    file-name: d.yml\n",
	}
	dryRun := map[string]string{"dry-run": "true", "token": "", "api-url": ""}
	cases := []struct {
		name   string
		inputs map[string]string
		want   []string // the ::error lines, each by a part of it that no other has
	}{
		{"a YAML syntax error", map[string]string{"file": "syntax.yaml"},
			[]string{"::error col=7,file=syntax.yaml,line=2::invalid YAML"}},
		{"a $ref to a missing file", map[string]string{"file": "ref.yaml"},
			[]string{"::error col=11,file=ref.yaml,line=5::$ref missing.yml: missing.yml does not exist"}},
		{"an empty file", map[string]string{"file": "empty.yaml"},
			[]string{"::error col=1,file=empty.yaml,line=1::is empty"}},
		{"a dry run that cannot load its description", mergeInputs(dryRun, map[string]string{"file": "ref.yaml"}),
			[]string{"::error col=11,file=ref.yaml,line=5::"}},
		// Two faults: each at its place, and the run's error sums up.
		{"two $refs to missing files", map[string]string{"file": "twofold.yaml"},
			[]string{"file=twofold.yaml,line=5::$ref gone.yml", "file=twofold.yaml,line=7::$ref missing.yml", "::error title=docs-publish::input file: twofold.yaml has 2 errors in 1 file"}},
		{"a config file with two descriptions that cannot be loaded", mergeInputs(dryRun, map[string]string{"config": "several.yml"}),
			[]string{"::error col=11,file=ref.yaml,line=5::", "::error col=7,file=syntax.yaml,line=2::",
				"::error title=docs-publish::3 of 4 descriptions failed the check"}},
		// The base's faults are not the run's findings: the run's error
		// is their one annotation.
		{"a base that cannot be loaded, with fail-on-breaking", map[string]string{"file": "good.yaml", "base-file": "ref.yaml", "fail-on-breaking": "true"},
			[]string{"::error col=11,file=ref.yaml,line=5::cannot compare with the base, and fail-on-breaking is true"}},
		{"an input error", map[string]string{"file": "good.yaml", "set-live": "maybe"},
			[]string{"::error title=docs-publish::input set-live"}},
		{"a service error", map[string]string{"file": "good.yaml", "project-id": "999"},
			[]string{"::error title=docs-publish::list docs of project 999"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, runnerFiles := t.TempDir(), t.TempDir()
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			inputs := mergeInputs(map[string]string{"token": emu.Config().Token, "api-url": emu.URL(), "project-id": "4711"}, tc.inputs)
			stdout := runAsRunner(t, ws, runnerFiles, inputs)
			var errs []string
			for _, l := range strings.Split(stdout, "\n") {
				if strings.HasPrefix(l, "::error") {
					errs = append(errs, l)
				}
			}
			// The descriptions of a config file are checked at once:
			// their annotations come in any order.
			ok := len(errs) == len(tc.want)
			for _, w := range tc.want {
				ok = ok && slices.IndexFunc(errs, func(l string) bool { return strings.Contains(l, w) }) >= 0
			}
			if !ok {
				t.Errorf("error annotations:\n%s\nwant %d, one with each of:\n%s\nlog:\n%s", strings.Join(errs, "\n"), len(tc.want), strings.Join(tc.want, "\n"), stdout)
			}
		})
	}
}

// mergeInputs is a's inputs with b's over them.
func mergeInputs(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// runAsRunner runs the program through Main with the environment the
// runner gives a container action: every input of action.yml set, given
// or its default, and the runner's files in runnerFiles. It returns stdout
// and stderr together.
func runAsRunner(t *testing.T, ws, runnerFiles string, inputs map[string]string) string {
	t.Helper()
	out, _ := runAsRunnerWith(t, ws, runnerFiles, inputs, nil)
	return out
}

// runAsRunnerWith is runAsRunner with extra over the runner's variables; it
// also gives the exit code.
func runAsRunnerWith(t *testing.T, ws, runnerFiles string, inputs, extra map[string]string) (string, int) {
	t.Helper()
	action := actionYAML(t)
	meta, err := ghaction.ParseMetadata(action)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_EVENT_NAME": "push",
		"GITHUB_REF_NAME": "main", "GITHUB_REPOSITORY": "octo/api", "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
		"GITHUB_OUTPUT": filepath.Join(runnerFiles, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(runnerFiles, "summary"),
	}
	maps.Copy(env, extra)
	for _, in := range meta.Inputs {
		v, given := inputs[in.Name]
		if !given {
			v = ghaction.EvalDefault(in.Default, func(k string) string { return env[k] })
		}
		env[ghaction.RunnerVar(in.Name)] = v
	}
	for name := range inputs {
		if _, ok := meta.Input(name); !ok {
			t.Fatalf("the test sets input %q, which action.yml does not declare", name)
		}
	}
	var out bytes.Buffer
	code := Main(context.Background(), Env{Getenv: func(k string) string { return env[k] }, Stdout: &out, Stderr: &out, Action: action, Version: "test"})
	return out.String(), code
}
