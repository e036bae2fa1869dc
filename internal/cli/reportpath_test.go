package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClashingPathsTouchNothing: a run whose paths clash is an input
// error before anything is sent, and the file in the way is left as it
// was.
//   - A report path that is a file the run reads (the description, a
//     base, the agreed changes, the config file, a description the config
//     lists) or writes (a bundle) is report's error, and the report is not
//     written over it; the other descriptions of the run are held, not
//     said published.
//   - A report path that is a file, not a report, which the run reads
//     where the check before it cannot see (a file a description refers
//     to, one a description that failed its check names), or no file of
//     the run's, is not written over.
//   - A description of a run without a config file whose own paths clash
//     (a zip or a bundle over the description, a zip inside the site) is
//     the error of the input that writes, not of config.
func TestClashingPathsTouchNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		config    string
		args      []string
		untouched string // the file in the way
		want      string
		failed    int // descriptions failed, where none is held
	}{
		{"report over the description", "", []string{"--file", "api/svc0.yaml", "--report", "api/svc0.yaml"}, "api/svc0.yaml", "input report: the report file's path, api/svc0.yaml, is where file api/svc0.yaml is read", 0},
		{"report over the base", "", []string{"--file", "api/svc1.yaml", "--base-file", "api/svc1-base.yaml", "--report", "api/svc1-base.yaml"}, "api/svc1-base.yaml", "is where base-file api/svc1-base.yaml is read", 0},
		{"report over the agreed changes", "", []string{"--file", "api/svc0.yaml", "--breaking-ignore", "agreed.txt", "--report", "agreed.txt"}, "agreed.txt", "is where breaking-ignore agreed.txt is read", 0},
		{"report over the bundle", "", []string{"--file", "api/svc0.yaml", "--bundle-path", "b.json", "--report", "b.json"}, "b.json", "is where bundle-path b.json is written", 0},
		{"report over the config file", threeDescriptions, []string{"--config", "docs-publish.yml", "--report", "docs-publish.yml"}, "docs-publish.yml", "input report: the report file's path, docs-publish.yml, is the config file's", 3},
		{"report over a description whose check fails", "", []string{"--file", "api/svc0.yaml", "--extract-to", "kept", "--report", "api/svc0.yaml"}, "api/svc0.yaml", "input extract-to: kept exists and is not an empty directory", 1},
		{"report over a file the description refers to", "", []string{"--file", "api/ref.yaml", "--dry-run", "--report", "api/schemas/pet.yaml"}, "api/schemas/pet.yaml", "input report: api/schemas/pet.yaml is a file that is not a report of docs-publish, and is not written over", 0},
		{"report over another file", "", []string{"--file", "api/svc0.yaml", "--report", "notes.txt"}, "notes.txt", "input report: notes.txt is a file that is not a report of docs-publish, and is not written over", 0},
		{"report over a description the config lists", threeDescriptions, []string{"--config", "docs-publish.yml", "--report", "api/svc2.yaml"}, "api/svc2.yaml", "descriptions[2] (api/svc2.yaml): input report: the report file's path, api/svc2.yaml, is where file api/svc2.yaml is read", 0},
		{"a zip over the description", "", []string{"--file", "api/svc0.yaml", "--download-path", "api/svc0.yaml"}, "api/svc0.yaml", "input download-path: api/svc0.yaml is the path of input file too, which the run reads: give download-path a path of its own", 0},
		{"a zip over the description a config file lists", "descriptions:\n  - file: api/svc0.yaml\n    download-path: api/svc0.yaml\n", []string{"--config", "docs-publish.yml"}, "api/svc0.yaml", "input config: api/svc0.yaml would write download-path over its file, which it reads: give download-path a path of its own", 1},
		{"a bundle over the base", "", []string{"--file", "api/svc1.yaml", "--base-file", "api/svc1-base.yaml", "--bundle-path", "api/svc1-base.yaml"}, "api/svc1-base.yaml", "input bundle-path: api/svc1-base.yaml is the path of input base-file too, which the run reads: give bundle-path a path of its own", 0},
		{"a bundle over the description", "", []string{"--file", "api/svc0.yaml", "--bundle-path", "api/svc0.yaml"}, "api/svc0.yaml", "input bundle-path: api/svc0.yaml is the path of input file too, which the run reads: give bundle-path a path of its own", 0},
		{"a zip inside the site", "", []string{"--file", "api/svc0.yaml", "--extract-to", "site", "--download-path", "site/x.zip"}, "api/svc0.yaml", "input extract-to: api/svc0.yaml would write extract-to site where it also has download-path site/x.zip", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := manyEmulator(t) // its own: what it was sent is this run's alone
			files := map[string]string{"agreed.txt": "# none\n", "b.json": "{}\n", "kept/index.html": "<p>kept</p>\n", "notes.txt": "hello\n",
				"api/ref.yaml":         "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Pet: {$ref: 'schemas/pet.yaml'}\n",
				"api/schemas/pet.yaml": "type: object\n"}
			if tc.config != "" {
				files["docs-publish.yml"] = tc.config
			}
			ws := manyWorkspace(t, files)
			before, err := os.ReadFile(filepath.Join(ws, tc.untouched))
			if err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token, "DOCS_PUBLISH_PROJECT_ID": "4711", "DOCS_PUBLISH_DOC_ID": "100"}
			stdout := refusedBeforeSending(t, emu, env, tc.args, tc.want)
			if after, err := os.ReadFile(filepath.Join(ws, tc.untouched)); err != nil || string(after) != string(before) {
				t.Errorf("%s was written over (%v):\n%.200s", tc.untouched, err, after)
			}
			if strings.Contains(stdout, `"outcome":"published"`) {
				t.Errorf("a description is said published, nothing was sent:\n%s", stdout)
			}
			if tc.failed > 0 && (strings.Count(stdout, `"outcome":"failed"`) != tc.failed || strings.Contains(stdout, `"outcome":"held"`)) {
				t.Errorf("want %d descriptions failed and none held:\n%s", tc.failed, stdout)
			}
		})
	}
}

// TestReportWrittenOverTheLastOne: a run writes its report over the one an
// earlier run left at the same path (a runner that keeps its workspace).
func TestReportWrittenOverTheLastOne(t *testing.T) {
	t.Parallel()
	emu := manyEmulator(t)
	ws := manyWorkspace(t, nil)
	env := map[string]string{"GITHUB_WORKSPACE": ws, "DOCS_PUBLISH_TOKEN": emu.Config().Token, "DOCS_PUBLISH_PROJECT_ID": "4711", "DOCS_PUBLISH_DOC_ID": "100"}
	for _, file := range []string{"api/svc0.yaml", "api/svc2.yaml"} {
		if _, stderr, err := run(t, actionYAML(t), env, "--api-url", emu.URL(), "--branch", "main", "--dry-run", "--file", file, "--report", "r.json"); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, stderr)
		}
		got, err := os.ReadFile(filepath.Join(ws, "r.json"))
		if err != nil || !strings.Contains(string(got), `"file":"`+file+`"`) {
			t.Fatalf("after the run of %s the report is (%v):\n%.300s", file, err, got)
		}
	}
}
