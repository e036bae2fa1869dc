package ghaction

import (
	"fmt"
	"strings"

	"github.com/sethvargo/go-githubactions"
)

// Change is what the event that started the workflow says of the change
// under way, for the comparison with its base.
type Change struct {
	// PullRequest is the pull request's number; 0 for other events.
	PullRequest int
	// BaseSHA is the commit to compare with: a pull request's base, the
	// commit before a push, a merge group's base; "" when there is none (a
	// new branch, a manual run).
	BaseSHA string
	// FromFork says the pull request comes from another repository, whose
	// runs get a read-only GITHUB_TOKEN.
	FromFork bool
}

// ReadChange reads the event payload the runner wrote (GITHUB_EVENT_PATH).
// Off GitHub, or for an event without a base, it is the zero Change.
func ReadChange(getenv func(string) string) (Change, error) {
	if getenv("GITHUB_EVENT_PATH") == "" {
		return Change{}, nil
	}
	ctx, err := githubactions.New(githubactions.WithGetenv(getenv)).Context()
	if err != nil {
		return Change{}, err
	}
	ev := ctx.Event
	var ch Change
	if pr, ok := ev["pull_request"].(map[string]any); ok {
		if n, ok := pr["number"].(float64); ok && n > 0 && n == float64(int(n)) {
			ch.PullRequest = int(n)
		}
		ch.BaseSHA = commitID(str(pr, "base", "sha"))
		head, base := str(pr, "head", "repo", "full_name"), str(pr, "base", "repo", "full_name")
		// A fork that was deleted leaves head.repo null: from a fork, too.
		ch.FromFork = head == "" || !strings.EqualFold(head, base)
		return ch, nil
	}
	if mg, ok := ev["merge_group"].(map[string]any); ok {
		ch.BaseSHA = commitID(str(mg, "base_sha"))
		return ch, nil
	}
	if before := commitID(str(ev, "before")); before != "" && ctx.EventName == "push" {
		ch.BaseSHA = before
	}
	return ch, nil
}

// DefaultBranch is the project branch a run writes to when the branch
// input is empty: the pull request's own branch (GITHUB_HEAD_REF) on
// pull_request events, where the ref name is <number>/merge; the ref name
// (GITHUB_REF_NAME) on others. On pull_request_target it is pr-<number>,
// from the event payload: that workflow runs with the repository's
// secrets, and the pull request's branch is a name its author chose (main
// included), so it never decides where the run writes. "" when the run has
// none (off GitHub without those variables, or a pull_request_target
// payload without a number).
func DefaultBranch(getenv func(string) string) (string, error) {
	if getenv("GITHUB_EVENT_NAME") != "pull_request_target" {
		if head := getenv("GITHUB_HEAD_REF"); head != "" {
			return head, nil
		}
		return getenv("GITHUB_REF_NAME"), nil
	}
	ch, err := ReadChange(getenv)
	if err != nil || ch.PullRequest == 0 {
		return "", err
	}
	return fmt.Sprintf("pr-%d", ch.PullRequest), nil
}

// str is the string at a path of nested JSON objects, or "".
func str(v map[string]any, path ...string) string {
	for i, k := range path {
		if i == len(path)-1 {
			s, _ := v[k].(string)
			return s
		}
		next, ok := v[k].(map[string]any)
		if !ok {
			return ""
		}
		v = next
	}
	return ""
}

// commitID is sha when it is a full commit id other than all zeros (a push
// that created its branch has no commit before), else "".
func commitID(sha string) string {
	if len(sha) != 40 || strings.Trim(sha, "0") == "" {
		return ""
	}
	for _, c := range sha {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return ""
		}
	}
	return sha
}
