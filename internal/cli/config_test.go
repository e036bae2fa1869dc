package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/emulator/emulatortest"
	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// manyEmulator is the emulator with three more docs in project 4711: doc
// 10<i> renders svc<i>.yml on main.
func manyEmulator(t *testing.T) *emulator.Server {
	t.Helper()
	return emulatortest.Start(t, "", 10*time.Millisecond, func(c *emulator.Config) {
		for i := range 3 {
			id := fmt.Sprint(100 + i)
			c.Projects[0].Docs = append(c.Projects[0].Docs, emulator.Doc{ID: id, Domain: emulator.DomainFor("4711", id), File: fmt.Sprintf("svc%d.yml", i), Branch: "main"})
		}
	})
}

// manyWorkspace is a workspace with api/svc0..2.yaml (the sample), a
// changed api/svc1.yaml's base, and files, each path relative to it.
func manyWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	ws := t.TempDir()
	spec, err := os.ReadFile("../../testdata/specs/bookstore.openapi3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"api/svc0.yaml": string(spec), "api/svc1.yaml": string(spec), "api/svc2.yaml": string(spec),
		// The base of svc1 has an operation the head does not: a breaking change.
		"api/svc1-base.yaml": strings.Replace(string(spec), "paths:\n", "paths:\n  /gone:\n    get:\n      responses:\n        '200':\n          description: ok\n", 1)}
	for name, content := range files {
		all[name] = content
	}
	for name, content := range all {
		p := filepath.Join(ws, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

const threeDescriptions = `descriptions:
  - file: api/svc0.yaml
    doc-id: "100"
  - file: api/svc1.yaml
    doc-id: "101"
    base-file: api/svc1-base.yaml
  - file: api/svc2.yaml
    doc-id: "102"
`

// TestConfigFilePublishesEveryDescription: a config file of three
// entries publishes each as its entry says over the step's inputs; the
// results output lists them in order, the counts add up, and the report
// file, valid against docs/report.schema.json, holds the API changes.
func TestConfigFilePublishesEveryDescription(t *testing.T) {
	t.Parallel()
	emu := manyEmulator(t)
	ws := manyWorkspace(t, map[string]string{"docs-publish.yml": threeDescriptions})
	env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token, "DOCS_PUBLISH_PROJECT_ID": "4711"}
	stdout, stderr, err := run(t, actionYAML(t), env, "--api-url", emu.URL(), "--branch", "main", "--config", "docs-publish.yml",
		"--report", "out/report.json", "--parallel", "2", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var outs struct {
		Results []struct {
			File            string `json:"file"`
			BuildID         string `json:"build-id"`
			DocID           string `json:"doc-id"`
			Outcome         string `json:"outcome"`
			BreakingChanges *int   `json:"breaking-changes"`
		} `json:"results"`
		Descriptions int `json:"description-count"`
		Published    int `json:"published-count"`
		Failed       int `json:"failed-count"`
	}
	if err := json.Unmarshal([]byte(stdout), &outs); err != nil {
		t.Fatalf("--output json printed %q: %v", stdout, err)
	}
	if len(outs.Results) != 3 || outs.Descriptions != 3 || outs.Published != 3 || outs.Failed != 0 {
		t.Fatalf("outputs %+v", outs)
	}
	for i, r := range outs.Results {
		if r.File != fmt.Sprintf("api/svc%d.yaml", i) || r.DocID != fmt.Sprint(100+i) || r.BuildID == "" || r.Outcome != "published" {
			t.Errorf("results[%d] = %+v", i, r)
		}
	}
	if b := outs.Results[1].BreakingChanges; b == nil || *b != 1 {
		t.Errorf("results[1] breaking-changes = %v, want 1", b)
	}
	if !strings.Contains(stderr, "docs-publish: 3 of 3 descriptions published") {
		t.Errorf("no plain-text summary of the three:\n%s", stderr)
	}
	data, err := os.ReadFile(filepath.Join(ws, "out/report.json"))
	if err != nil {
		t.Fatal(err)
	}
	validateReport(t, data)
	if !strings.Contains(string(data), `"id":"api-path-removed-without-deprecation"`) {
		t.Errorf("the report lacks svc1's breaking change:\n%s", data)
	}
}

// validateReport validates a report file against docs/report.schema.json.
func validateReport(t *testing.T, data []byte) {
	t.Helper()
	if err := checkReport(data); err != nil {
		t.Errorf("the report file is not valid against its schema: %v\n%s", err, data)
	}
}

func checkReport(data []byte) error {
	schemaText, err := os.ReadFile("../../docs/report.schema.json")
	if err != nil {
		return err
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaText))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", schemaDoc); err != nil {
		return err
	}
	schema, err := c.Compile("report.schema.json")
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return schema.Validate(doc)
}

// TestReportSchemaHasTeeth: reports that break the format's promises are
// refused by the schema the real report passes.
func TestReportSchemaHasTeeth(t *testing.T) {
	t.Parallel()
	good := `{"version":1,"counts":{"descriptions":1,"published":0,"checked":0,"held":0,"failed":1},"descriptions":[{"file":"a.yaml","project-id":"1","doc-id":"","file-name":"a.yml","branch":"main","build-id":"","live":false,"build-state":"","zip-path":"","docs-url":"","breaking-changes":null,"api-changes":null,"outcome":"failed","error":{"step":"list docs","message":"m"},"findings":[],"changes":[],"omitted-changes":0,"accepted-changes":[],"compared":""}]}`
	if err := checkReport([]byte(good)); err != nil {
		t.Fatalf("a valid report refused: %v", err)
	}
	for name, bad := range map[string]string{
		"failed without an error": strings.Replace(good, `"error":{"step":"list docs","message":"m"},`, "", 1),
		"an unknown outcome":      strings.Replace(good, `"outcome":"failed"`, `"outcome":"maybe"`, 1),
		"an id as a number":       strings.Replace(good, `"project-id":"1"`, `"project-id":1`, 1),
		"a member more":           strings.Replace(good, `"live":false`, `"live":false,"extra":1`, 1),
		"another version":         strings.Replace(good, `"version":1`, `"version":2`, 1),
	} {
		if err := checkReport([]byte(bad)); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

// TestConfigFileRefused: a config file that cannot be used, or that tries
// to set what only the step may, is an input error (exit 2) before
// anything is sent, naming the entry by its index and file.
func TestConfigFileRefused(t *testing.T) {
	t.Parallel()
	emu := manyEmulator(t)
	cases := []struct {
		name   string
		config string
		args   []string
		want   string
	}{
		{"unknown key", "descriptions:\n  - file: api/svc0.yaml\n  - file: api/svc1.yaml\n    projet-id: \"1\"\n", nil, `descriptions[1] (api/svc1.yaml): unknown key "projet-id": did you mean project-id?`},
		{"token", "descriptions:\n  - file: api/svc0.yaml\n    token: stolen\n", nil, "descriptions[0] (api/svc0.yaml): token cannot be set in the config file"},
		{"api-url", "descriptions:\n  - file: api/svc0.yaml\n    api-url: https://evil.example\n", nil, "api-url cannot be set in the config file"},
		{"no file", "descriptions:\n  - file: api/svc0.yaml\n  - doc-id: \"101\"\n", nil, "descriptions[1]: has no file"},
		{"missing description", "descriptions:\n  - file: api/svc0.yaml\n  - file: api/nope.yaml\n", nil, "descriptions[1] (api/nope.yaml): input file: api/nope.yaml does not exist"},
		{"same file of a project branch", "descriptions:\n  - file: api/svc0.yaml\n    file-name: x.yml\n  - file: api/svc1.yaml\n    file-name: x.yml\n", nil, "descriptions[1] (api/svc1.yaml) would write file x.yml on branch main of project 4711, as descriptions[0] (api/svc0.yaml) does"},
		{"same local path", "descriptions:\n  - file: api/svc0.yaml\n    bundle-path: b.json\n  - file: api/svc1.yaml\n    download-path: b.json\n", nil, "descriptions[1] (api/svc1.yaml) would write download-path b.json, as descriptions[0]"},
		{"the same description twice", "descriptions:\n  - file: api/svc0.yaml\n  - file: api/svc0.yaml\n", nil, "descriptions[1] (api/svc0.yaml) would write file svc0.yml"},
		{"a bad value", "descriptions:\n  - file: api/svc0.yaml\n    set-live: maybe\n", nil, `descriptions[0] (api/svc0.yaml): input set-live: "maybe" is not valid`},
		{"a guard turned off", "descriptions:\n  - file: api/svc0.yaml\n    fail-on-breaking: false\n", []string{"--fail-on-breaking"}, "descriptions[0] (api/svc0.yaml): fail-on-breaking is true for the step"},
		{"dry run turned off", "descriptions:\n  - file: api/svc0.yaml\n    dry-run: false\n", []string{"--dry-run"}, "dry-run is true for the step"},
		{"file on the step too", threeDescriptions, []string{"--file", "api/svc0.yaml"}, "input file: is set, and config lists the descriptions"},
		{"outside the workspace", "", []string{"--config", "../outside.yml"}, `input config: ../outside.yml is outside the workspace`},
		{"no such config", "", []string{"--config", "nope.yml"}, "input config: nope.yml does not exist"},
		{"report where a description writes", "descriptions:\n  - file: api/svc0.yaml\n  - file: api/svc1.yaml\n    bundle-path: r.json\n", []string{"--report", "r.json"}, "descriptions[1] (api/svc1.yaml): input report: the report file's path, r.json, is where bundle-path r.json is written"},
		{"set-live turned on", "descriptions:\n  - file: api/svc0.yaml\n    set-live: true\n", []string{"--set-live=false"}, "descriptions[0] (api/svc0.yaml): set-live is false for the step"},
		{"its own base under a gate", "descriptions:\n  - file: api/svc0.yaml\n    base-file: api/svc0.yaml\n", []string{"--fail-on-breaking"}, "descriptions[0] (api/svc0.yaml): base-file differs from the step's, which fails on breaking changes"},
		{"its own agreed changes under a gate", "descriptions:\n  - file: api/svc0.yaml\n    breaking-ignore: api/svc1.yaml\n", []string{"--fail-on-breaking"}, "breaking-ignore differs from the step's"},
		{"a branch on pull_request_target", "descriptions:\n  - file: api/svc0.yaml\n    branch: release\n", nil, `descriptions[0] (api/svc0.yaml): branch is "release", and on pull_request_target a config file`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{}
			if tc.config != "" {
				files["docs-publish.yml"] = tc.config
			}
			ws := manyWorkspace(t, files)
			env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token, "DOCS_PUBLISH_PROJECT_ID": "4711"}
			if strings.Contains(tc.name, "pull_request_target") {
				env["GITHUB_EVENT_NAME"] = "pull_request_target"
			}
			refusedBeforeSending(t, emu, env, append([]string{"--config", "docs-publish.yml"}, tc.args...), tc.want)
		})
	}
}

// refusedBeforeSending runs the program with env and args against emu, on
// the main branch, and fails t unless it ends in an input error (exit 2)
// that says want, with no request sent to emu. It returns stdout.
func refusedBeforeSending(t *testing.T, emu *emulator.Server, env map[string]string, args []string, want string) string {
	t.Helper()
	before := len(emu.Requests())
	stdout, stderr, err := run(t, actionYAML(t), env, append([]string{"--api-url", emu.URL(), "--branch", "main"}, args...)...)
	if code := ExitCode(context.Background(), err); code != ExitUsage {
		t.Errorf("exit %d (%v), want %d", code, err, ExitUsage)
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to say %q\n%s", err, want, stderr)
	}
	if n := len(emu.Requests()) - before; n != 0 {
		t.Errorf("%d requests sent", n)
	}
	return stdout
}

// TestSeveralDescriptionsExitWithTheWorstClass: the exit code of a run of
// several is the worst class among its descriptions', each description's
// failure named; nothing is sent when one is invalid.
func TestSeveralDescriptionsExitWithTheWorstClass(t *testing.T) {
	t.Parallel()
	invalid := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/nope'}\n"
	// The entry with a base of its own fails on its breaking changes: a
	// step that did would keep the base its own.
	gated := strings.Replace(threeDescriptions, "    base-file: api/svc1-base.yaml\n", "    base-file: api/svc1-base.yaml\n    fail-on-breaking: true\n", 1)
	cases := []struct {
		name   string
		config string
		files  map[string]string
		args   []string
		code   int
		sent   bool
	}{
		{"one invalid", threeDescriptions, map[string]string{"api/svc2.yaml": invalid}, nil, ExitInvalid, false},
		{"invalid and breaking", gated, map[string]string{"api/svc2.yaml": invalid}, nil, ExitInvalid, false},
		{"breaking", gated, nil, nil, ExitBreaking, false},
		{"one doc missing", strings.Replace(threeDescriptions, `doc-id: "102"`, `doc-id: "999"`, 1), nil, nil, ExitFailure, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := manyEmulator(t) // its own: the cases count what reached it
			files := map[string]string{"docs-publish.yml": tc.config}
			for k, v := range tc.files {
				files[k] = v
			}
			ws := manyWorkspace(t, files)
			env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token, "DOCS_PUBLISH_PROJECT_ID": "4711"}
			before := emu.RequestsTo("/files/")
			args := append([]string{"--api-url", emu.URL(), "--branch", "main", "--config", "docs-publish.yml", "--report", "report.json"}, tc.args...)
			_, stderr, err := run(t, actionYAML(t), env, args...)
			if code := ExitCode(context.Background(), err); code != tc.code {
				t.Errorf("exit %d (%v), want %d\n%s", code, err, tc.code, stderr)
			}
			if sent := emu.RequestsTo("/files/") > before; sent != tc.sent {
				t.Errorf("files sent: %v, want %v", sent, tc.sent)
			}
			data, rerr := os.ReadFile(filepath.Join(ws, "report.json"))
			if rerr != nil {
				t.Fatalf("no report file after a failed run: %v", rerr)
			}
			validateReport(t, data)
		})
	}
}

// TestReportFileScrubsSecrets: the report file is a sink: a message that
// echoes the token, plainly or escaped as a server may, is scrubbed in
// the file, which stays valid against its schema; a run of one
// description writes it too.
func TestReportFileScrubsSecrets(t *testing.T) {
	t.Parallel()
	const secret = "tok-report-secret-9f3a"
	for _, tc := range []struct{ name, echoed string }{{"plain", secret}, {"JSON escape", `tok\u002dreport-secret-9f3a`}, {"HTML entity", "tok&#45;report-secret-9f3a"}, {"percent", "tok%2Dreport-secret-9f3a"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := t.TempDir()
			rep := ghaction.NewReporter(func(string) string { return "" }, io.Discard, io.Discard)
			rep.Mask(secret)
			results := []*publish.Result{{File: "api/openapi.yaml", ProjectID: "4711", FileName: "openapi.yml", Branch: "main", FailedStep: publish.StepList,
				Err: errors.New("service answered 401: token " + tc.echoed + " rejected")}}
			runErr := results[0].Err
			if err := writeReportFile(rep, publish.Config{Workspace: ws, Report: "out/report.json"}, results, runErr); err != runErr {
				t.Fatalf("writeReportFile: %v", err)
			}
			data, err := os.ReadFile(filepath.Join(ws, "out/report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), "report-secret") || strings.Contains(string(data), "secret-9f3a") {
				t.Errorf("the report file holds the token:\n%s", data)
			}
			if !strings.Contains(string(data), `"outcome":"failed"`) || !strings.Contains(string(data), "rejected") {
				t.Errorf("the report lost its content:\n%s", data)
			}
			validateReport(t, data)
		})
	}
}
