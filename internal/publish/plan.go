package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"unicode"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/namerule"
	"github.com/docs-publish/docs-publish/internal/report"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// Plan is what a run will do, worked out from its Config before anything is
// loaded or sent. Paths are slash paths relative to the workspace.
type Plan struct {
	// DryRun: nothing is sent. ForkCheck says why when the user did not ask
	// for it: a pull request from a fork, which gets no secrets.
	DryRun, ForkCheck bool
	APIURL            *url.URL // nil in a dry run
	File              string   // the description
	FileName          string   // its name in the service project
	CommitMessage     string
	Download          bool
	ZipPath           string // "" for the default, named after the build id
	SitePath          string // where to unpack the site, if anywhere
	BundlePath        string // where to write the uploaded document, if anywhere
	ReportPath        string // where to write the report file, if anywhere
	// Compare: report what the change does to the API, against BaseFile
	// when it is set, else against the event's base commit; IgnoreFile lists
	// agreed breaking changes.
	Compare              bool
	BaseFile, IgnoreFile string
	// Target tells the pull request's comment of this description apart from
	// that of another description of the same file in the run (its project,
	// branch and name there); "" when the file is the run's only one.
	Target string
	// Warnings are things that work, but that the user likely did not mean.
	Warnings []string
	// Notices are things that work, which the user may want to know.
	Notices []string
}

// Validate checks a Config as a whole and works out the Plan of its run. It
// reads the workspace (to check that paths stay inside it) and changes
// nothing. Every error is an *InputError naming the input, or an *EnvError
// naming the runner's variable, and what to do.
func Validate(cfg Config, ws *workspace.Workspace) (*Plan, error) {
	p := &Plan{DryRun: bool(cfg.DryRun)}
	for _, tok := range []struct{ input, value string }{{"token", cfg.Token}, {"github-token", cfg.GitHubToken}} {
		// Never quoted: the value is a secret. Left in, a line break
		// makes every request fail before it is sent, until the timeout.
		if strings.IndexFunc(tok.value, isControl) >= 0 {
			return nil, &InputError{Input: tok.input, Msg: "holds a control character, such as a line break pasted inside it (the value is a secret, so it is not shown): give the token alone, on one line"}
		}
	}
	if cfg.Token == "" && isPullRequest(cfg.EventName) && !bool(cfg.FailOnMissingToken) && !p.DryRun {
		// Pull requests from forks get no secrets. Check the description,
		// publish nothing, and say why instead of failing the check.
		p.DryRun, p.ForkCheck = true, true
	}
	if cfg.File == "" {
		return nil, required(cfg, "file")
	}
	file, err := ws.Path(cfg.File)
	if err != nil {
		return nil, pathInputError("file", cfg.File, err)
	}
	p.File = file
	if !p.DryRun {
		if err := checkService(cfg, p); err != nil {
			return nil, err
		}
	} else {
		p.Warnings = append(p.Warnings, previewService(cfg)...)
	}
	p.FileName = cfg.FileName
	if p.FileName == "" {
		p.FileName = defaultFileName(cfg.File)
	} else if !strings.HasSuffix(p.FileName, ".yml") {
		p.Warnings = append(p.Warnings, fmt.Sprintf("file-name %q does not end in .yml: the service names every OpenAPI file with .yml, even with JSON content", p.FileName))
	}
	if err := checkSegment("file-name", p.FileName); err != nil {
		return nil, err
	}
	p.CommitMessage = cfg.CommitMessage
	if p.CommitMessage == "" {
		p.CommitMessage = cfg.defaultCommitMessage(p.FileName)
	}
	if err := planOutputs(cfg, ws, p); err != nil {
		return nil, err
	}
	if err := planCompare(cfg, ws, p); err != nil {
		return nil, err
	}
	if cfg.GitHubToken != "" && cfg.GitHubAPIURL != "" {
		if err := checkGitHubAPIURL(cfg.GitHubAPIURL); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// planCompare checks the inputs of the comparison with the base.
func planCompare(cfg Config, ws *workspace.Workspace, p *Plan) error {
	p.Compare = bool(cfg.Compare)
	if !p.Compare {
		for _, in := range []struct {
			name string
			set  bool
		}{{"base-file", cfg.BaseFile != ""}, {"breaking-ignore", cfg.BreakingIgnore != ""}, {"fail-on-breaking", bool(cfg.FailOnBreaking)}} {
			if in.set {
				p.Warnings = append(p.Warnings, in.name+" is set, but compare is false: nothing is compared")
			}
		}
		return nil
	}
	for _, in := range []struct {
		name, value string
		to          *string
	}{{"base-file", cfg.BaseFile, &p.BaseFile}, {"breaking-ignore", cfg.BreakingIgnore, &p.IgnoreFile}} {
		if in.value == "" {
			continue
		}
		rel, err := ws.Path(in.value)
		if err != nil {
			return pathInputError(in.name, in.value, err)
		}
		// Both are read before anything is sent: say now that one is not
		// there, whatever the event.
		st, err := ws.Stat(rel)
		if in.name == "breaking-ignore" && errors.Is(err, fs.ErrNotExist) && !isLink(ws, rel) {
			// The list of agreed breaks starts empty: a workflow can
			// name the file before the first break is agreed.
			p.Notices = append(p.Notices, fmt.Sprintf("breaking-ignore %q does not exist, so no breaking change is ignored: create it to list agreed breaks, one a line (or check the path, relative to the workspace)", in.value))
			continue
		}
		if err == nil && !st.Mode().IsRegular() {
			err = &workspace.NotRegularError{Path: in.value, Mode: st.Mode()}
		}
		if err != nil {
			return &InputError{Input: in.name, Err: err, Msg: unreadable(in.name, in.value, err)}
		}
		*in.to = rel
	}
	return nil
}

// unreadable says why the file an input names cannot be read, in the
// words the file input's error uses, without the system call's name.
func unreadable(input, value string, err error) string {
	var nr *workspace.NotRegularError
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return doesNotExist(input, value)
	case errors.As(err, &nr):
		return nr.Error() + ": give the path of a file, relative to the workspace"
	case errors.As(err, &pe):
		err = pe.Err // the path and the call are the user's value and our business
	}
	return fmt.Sprintf("%s cannot be read (%v): give the path of a file, relative to the workspace, that the run may read", value, err)
}

// checkService checks the inputs that only a run that sends needs.
func checkService(cfg Config, p *Plan) error {
	if cfg.Token == "" && cfg.CLI {
		return &InputError{Input: "token", Msg: "is empty: set DOCS_PUBLISH_TOKEN to the service's access token (an environment variable keeps it out of the shell's history and the process list)"}
	}
	if cfg.Token == "" && cfg.EventName == "pull_request_target" {
		return &InputError{Input: "token", Msg: "is empty on a pull_request_target event, which gets the repository's secrets even for a fork's pull request: check that the secret exists and that the step names it, e.g. token: ${{ secrets.DOCS_TOKEN }}"}
	}
	if cfg.Token == "" {
		return &InputError{Input: "token", Msg: "is empty: pass the service's access token from a secret, e.g. token: ${{ secrets.DOCS_TOKEN }}"}
	}
	if cfg.APIURL == "" {
		return required(cfg, "api-url")
	}
	u, err := checkAPIURL(cfg.APIURL)
	if err != nil {
		return err
	}
	p.APIURL = u
	if cfg.ProjectID == "" {
		return required(cfg, "project-id")
	}
	if err := checkSegment("project-id", cfg.ProjectID); err != nil {
		return err
	}
	if cfg.Branch == "" {
		return &InputError{Input: "branch", Msg: "is empty and this run has no branch to default to (pr-<number> on pull_request_target, GITHUB_HEAD_REF on a pull request, else GITHUB_REF_NAME): set branch to the project branch to write"}
	}
	if cfg.DocID != "" {
		return checkDocID(cfg.DocID)
	}
	return nil
}

// checkDocID checks that doc-id can be sent as an id.
func checkDocID(id string) error {
	if err := docsapi.CheckID(id); err != nil {
		return &InputError{Input: "doc-id", Err: err, Msg: err.Error() + ": give the id of one of the project's docs, as the service lists it"}
	}
	return nil
}

// previewService is what a dry run, a preview, says of the service's
// inputs it does not need: each one that is set and that a real run would
// refuse, as a warning. One that is not set is said in the dry run's lines.
func previewService(cfg Config) []string {
	var warns []string
	refused := func(err error) {
		if err != nil {
			warns = append(warns, "a real run would stop here: "+err.Error())
		}
	}
	if cfg.APIURL != "" {
		_, err := checkAPIURL(cfg.APIURL)
		refused(err)
	}
	if cfg.ProjectID != "" {
		refused(checkSegment("project-id", cfg.ProjectID))
	}
	if cfg.DocID != "" {
		refused(checkDocID(cfg.DocID))
	}
	return warns
}

// planOutputs checks the paths the run writes: inside the workspace, also
// through links, before anything is sent.
func planOutputs(cfg Config, ws *workspace.Workspace, p *Plan) error {
	// extract-to and download-path ask for the zip: they imply download.
	p.Download = bool(cfg.Download) || cfg.ExtractTo != "" || cfg.DownloadPath != ""
	if cfg.ExtractTo != "" {
		rel, err := writable(ws, "extract-to", cfg.ExtractTo, ws.CheckFolder, cfg.ConfigFile != "")
		if err != nil {
			return err
		}
		if rel == "." {
			return &InputError{Input: "extract-to", Msg: "is the workspace itself: give a new directory inside it, such as site"}
		}
		empty, err := ws.IsEmptyOrAbsent(rel)
		if err != nil {
			return pathInputError("extract-to", cfg.ExtractTo, err)
		}
		if !empty {
			return &InputError{Input: "extract-to", Msg: fmt.Sprintf("%s exists and is not an empty directory: give a new directory, or remove it in an earlier step", rel)}
		}
		p.SitePath = rel
	}
	if cfg.DownloadPath != "" && p.Download {
		rel, err := writable(ws, "download-path", cfg.DownloadPath, ws.CheckFile, cfg.ConfigFile != "")
		if err != nil {
			return err
		}
		p.ZipPath = rel
	}
	if cfg.BundlePath != "" {
		rel, err := writable(ws, "bundle-path", cfg.BundlePath, ws.CheckFile, cfg.ConfigFile != "")
		if err != nil {
			return err
		}
		p.BundlePath = rel
	}
	if cfg.Report != "" {
		rel, err := writable(ws, "report", cfg.Report, ws.CheckFile, false)
		if err != nil {
			return err
		}
		p.ReportPath = rel
	}
	return nil
}

// writable is the workspace path of an input's value, where writing stays
// inside the workspace, check (ws.CheckFile for a file, ws.CheckFolder
// for a folder) finds nothing in the way, and writePlace allows it (see
// there; fromFile: a config file may have set it).
func writable(ws *workspace.Workspace, input, value string, check func(string) error, fromFile bool) (string, error) {
	rel, err := ws.Path(value)
	if err != nil {
		return "", pathInputError(input, value, err)
	}
	// Before the check, which makes the folders and the file to learn
	// whether it can, and removes them: nothing is made where the run
	// must not write.
	if err := writePlace(ws, input, value, rel, fromFile); err != nil {
		return "", err
	}
	if err := check(rel); err != nil {
		return "", pathInputError(input, value, err)
	}
	return rel, nil
}

// ErrNotWritable is the cause of the error of a path the run does not
// write, wherever it was set: in git's or GitHub's folder, or hidden with a
// config file.
var ErrNotWritable = errors.New("the run does not write there")

// writePlace refuses a place the run must not write, by the path as given
// and by where it leads through links: a folder named .git or .github, in
// any case and at any depth, where a file can run code (a hook, a config's
// fsmonitor), hand over what actions/checkout stored there (the token in
// .git/config) or change a workflow, whoever set the path. With a config
// file, which a pull request can change, a write path follows the rule of
// the files a description's $refs name: no hidden file or folder (.env,
// .npmrc, .gitattributes), where tools keep settings and credentials. The
// step's author, whom the workflow trusts, may write a hidden folder such
// as .cache without a config file.
// gitsFolder reports whether the name seg is git's or GitHub's folder on
// some file system: .git or .github in any case, also as Windows reads it
// (trailing dots and spaces dropped, the 8.3 short names GIT~1 and
// GITHUB~1) and as macOS's HFS+ reads it (invisible characters such as
// U+200C ignored), as git itself refuses them.
func gitsFolder(seg string) bool {
	name := strings.ToLower(strings.TrimRight(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
			return -1
		}
		return r
	}, seg), ". "))
	if name == ".git" || name == ".github" {
		return true
	}
	short, n, ok := strings.Cut(name, "~")
	return ok && (short == "git" || short == "github") && n != "" && strings.Trim(n, "0123456789") == ""
}

func writePlace(ws *workspace.Workspace, input, value, rel string, fromFile bool) error {
	real := path.Join(leadsTo(ws, path.Dir(rel)), path.Base(rel))
	for _, p := range []string{rel, real} {
		through := ""
		if p != rel {
			through = " through a symbolic link to " + p + ","
		}
		for _, seg := range strings.Split(p, "/") {
			if gitsFolder(seg) {
				return &InputError{Input: input, Err: ErrNotWritable, Msg: fmt.Sprintf("%q leads%s into %s, where git and GitHub keep the repository's settings, hooks and workflows, which a write there could change: refused; give a path outside it, such as %s", value, through, seg, writeExample(input))}
			}
		}
		if h := namerule.Hidden(p); fromFile && h != "" {
			return &InputError{Input: input, Err: ErrNotWritable, Msg: fmt.Sprintf("%q leads%s into a hidden file or folder (%s), where tools keep settings and credentials, and the run reads a config file, which a pull request can change: refused; give a path without a leading dot, such as %s", value, through, h, writeExample(input))}
		}
	}
	return nil
}

// writeExample is a path to suggest for an input that writes.
func writeExample(input string) string {
	if name := writtenFile[input]; name != "" {
		return path.Join("docs-publish", name)
	}
	return "site"
}

func required(cfg Config, input string) error {
	if cfg.CLI {
		return &InputError{Input: input, Msg: "is required: give --" + input + ", or set " + envVar(input)}
	}
	return &InputError{Input: input, Msg: "is required: set it in the step's with: block"}
}

// envVar is the variable the CLI reads an input from.
func envVar(input string) string {
	return "DOCS_PUBLISH_" + strings.ToUpper(strings.ReplaceAll(input, "-", "_"))
}

// isPullRequest reports whether event is one a fork's pull request runs
// with no secrets, where an empty token means only checking. Not
// pull_request_target: it runs with the base repository's secrets even for
// a fork, so an empty token there is a missing or misnamed secret, which
// must fail rather than pass green with nothing published.
func isPullRequest(event string) bool {
	return event == "pull_request" || event == "pull_request_review" || event == "pull_request_review_comment"
}

// MissingTokenNote says why a pull request's run with an empty token only
// checked its description (did: what was done with it, such as
// "checked"). A pull request from a fork gets no secrets, by design: a
// notice. One from a branch of the repository gets its secrets, so the
// secret is likely missing or misnamed: a warning, not an error, since
// Dependabot's pull requests come from the repository too and get
// Dependabot's secrets only. Without an event payload the origin is
// unknown: the notice.
func MissingTokenNote(cfg Config, did string) (report.Level, string) {
	const strict = "Set fail-on-missing-token: true to make this an error."
	if cfg.PullRequest == 0 || cfg.FromFork {
		return report.Notice, fmt.Sprintf("token is empty on a %s event, as for a pull request from a fork, which gets no secrets: the description was %s, but nothing was published. %s", cfg.EventName, did, strict)
	}
	return report.Warning, fmt.Sprintf("token is empty on a %s event for pull request #%d, which comes from a branch of this repository and so gets its secrets: the description was %s, but nothing was published. "+
		"Check that the secret exists and that the step names it as it is spelt, e.g. token: ${{ secrets.DOCS_TOKEN }}; "+
		"if Dependabot opened the pull request, its runs get Dependabot secrets only: add the secret under Dependabot secrets too. %s", cfg.EventName, cfg.PullRequest, did, strict)
}

// isLink reports whether name is a link, as one whose target is missing:
// such a breaking-ignore is a mistake to name, not a list not yet made.
func isLink(ws *workspace.Workspace, name string) bool {
	st, err := ws.Lstat(name)
	return err == nil && st.Mode()&fs.ModeSymlink != 0
}
