package ghaction

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadChange(t *testing.T) {
	t.Parallel()
	const base, before = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	pr := func(head string) string {
		return `{"pull_request":{"number":42,"base":{"sha":"` + base + `","repo":{"full_name":"octo/books"}},"head":{"sha":"3333333333333333333333333333333333333333","repo":` + head + `}}}`
	}
	cases := []struct {
		name, event, payload string
		want                 Change
	}{
		{"a pull request in the repository", "pull_request", pr(`{"full_name":"Octo/Books"}`), Change{PullRequest: 42, BaseSHA: base}},
		{"a pull request from a fork", "pull_request", pr(`{"full_name":"stranger/books"}`), Change{PullRequest: 42, BaseSHA: base, FromFork: true}},
		{"a pull request from a deleted fork", "pull_request", pr(`null`), Change{PullRequest: 42, BaseSHA: base, FromFork: true}},
		{"pull_request_target", "pull_request_target", pr(`{"full_name":"octo/books"}`), Change{PullRequest: 42, BaseSHA: base}},
		{"a push", "push", `{"before":"` + before + `","after":"4444444444444444444444444444444444444444"}`, Change{BaseSHA: before}},
		{"a push that created the branch", "push", `{"before":"0000000000000000000000000000000000000000"}`, Change{}},
		{"a merge group", "merge_group", `{"merge_group":{"base_sha":"` + base + `"}}`, Change{BaseSHA: base}},
		{"a manual run", "workflow_dispatch", `{"inputs":{}}`, Change{}},
		{"a before that is no commit id", "push", `{"before":"main; rm -rf /"}`, Change{}},
		{"a number that is no integer", "pull_request", `{"pull_request":{"number":4.5,"base":{"sha":"` + base + `"}}}`, Change{BaseSHA: base, FromFork: true}},
		{"a base sha of the wrong type", "pull_request", `{"pull_request":{"number":1,"base":{"sha":17}}}`, Change{PullRequest: 1, FromFork: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(path, []byte(tc.payload), 0o644); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"GITHUB_EVENT_PATH": path, "GITHUB_EVENT_NAME": tc.event}
			got, err := ReadChange(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if got, err := ReadChange(func(string) string { return "" }); err != nil || got != (Change{}) {
		t.Errorf("off GitHub: %+v, %v", got, err)
	}
}

// TestDefaultBranch: the branch an empty branch input means, from the
// runner's variables: the pull request's branch on pull_request, the ref
// name elsewhere, and on pull_request_target pr-<number> from the payload,
// whatever branch the pull request's author named.
func TestDefaultBranch(t *testing.T) {
	t.Parallel()
	const pr = `{"number":42,"pull_request":{"number":42,"head":{"ref":"main","repo":{"full_name":"mallory/books"}},"base":{"ref":"main","repo":{"full_name":"octo/books"}}}}`
	cases := []struct {
		name, event, payload, head, refName string
		want                                string
		fails                               bool
	}{
		{name: "a pull request", event: "pull_request", payload: pr, head: "feature/x", refName: "42/merge", want: "feature/x"},
		{name: "a push", event: "push", payload: `{}`, refName: "main", want: "main"},
		{name: "pull_request_target from a fork whose branch is main", event: "pull_request_target", payload: pr, head: "main", refName: "main", want: "pr-42"},
		{name: "pull_request_target without a number", event: "pull_request_target", payload: `{"pull_request":{}}`, head: "main", refName: "main", want: ""},
		{name: "pull_request_target whose payload is not JSON", event: "pull_request_target", payload: `{`, head: "main", fails: true},
		{name: "off GitHub", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"GITHUB_EVENT_NAME": tc.event, "GITHUB_HEAD_REF": tc.head, "GITHUB_REF_NAME": tc.refName}
			if tc.payload != "" {
				path := filepath.Join(t.TempDir(), "event.json")
				if err := os.WriteFile(path, []byte(tc.payload), 0o644); err != nil {
					t.Fatal(err)
				}
				env["GITHUB_EVENT_PATH"] = path
			}
			got, err := DefaultBranch(func(k string) string { return env[k] })
			if (err != nil) != tc.fails || got != tc.want {
				t.Errorf("DefaultBranch = %q, %v; want %q (fails %v)", got, err, tc.want, tc.fails)
			}
		})
	}
}
