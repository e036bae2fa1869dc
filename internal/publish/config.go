package publish

import "time"

// Config is one run's settings, as the user gave them. The env tags are
// go-envconfig keys; the inputs they come from are the same names in
// kebab-case (PROJECT_ID is the input project-id), declared with their
// defaults in action.yml. Each field's type reads its own kind of value.
// Validate checks a Config as a whole and works out the Plan of the run.
type Config struct {
	Token              string   `env:"TOKEN"`
	APIURL             string   `env:"API_URL"`
	ProjectID          string   `env:"PROJECT_ID"`
	File               string   `env:"FILE"`
	Bundle             Bool     `env:"BUNDLE"`
	FailOnWarnings     Bool     `env:"FAIL_ON_WARNINGS"`
	DryRun             Bool     `env:"DRY_RUN"`
	BundlePath         string   `env:"BUNDLE_PATH"`
	FileName           string   `env:"FILE_NAME"`
	Branch             string   `env:"BRANCH"`
	CommitMessage      string   `env:"COMMIT_MESSAGE"`
	DocID              string   `env:"DOC_ID"`
	SetLive            Bool     `env:"SET_LIVE"`
	Download           Bool     `env:"DOWNLOAD"`
	DownloadPath       string   `env:"DOWNLOAD_PATH"`
	ExtractTo          string   `env:"EXTRACT_TO"`
	Timeout            Duration `env:"TIMEOUT"`
	RequestTimeout     Duration `env:"REQUEST_TIMEOUT"`
	FailOnMissingToken Bool     `env:"FAIL_ON_MISSING_TOKEN"`
	WaitForBuild       Bool     `env:"WAIT_FOR_BUILD"`
	BuildTimeout       Duration `env:"BUILD_TIMEOUT"`
	MaxDownload        ByteSize `env:"MAX_DOWNLOAD_SIZE"`
	Compare            Bool     `env:"COMPARE"`
	BaseFile           string   `env:"BASE_FILE"`
	GitHubToken        string   `env:"GITHUB_TOKEN"`
	Comment            Bool     `env:"COMMENT"`
	FailOnBreaking     Bool     `env:"FAIL_ON_BREAKING"`
	BreakingIgnore     string   `env:"BREAKING_IGNORE"`
	// The run as a whole: the file listing its descriptions, how many are
	// checked and published at once, and the report file.
	ConfigFile string   `env:"CONFIG"`
	Parallel   Parallel `env:"PARALLEL"`
	Report     string   `env:"REPORT"`

	// Workspace is the directory the description's files and every path
	// written stay in (GITHUB_WORKSPACE, --workspace, or the working
	// directory).
	Workspace string
	// Context of the run, for the default commit message.
	Repository, SHA, ServerURL, RunID string
	// EventName is the event that started the workflow (GITHUB_EVENT_NAME).
	EventName string
	// What the event says of the change, for the comparison with its base:
	// the pull request's number (0 for other events), the commit to compare
	// with ("" for none), and whether the pull request comes from a fork.
	PullRequest int
	BaseSHA     string
	FromFork    bool
	// GitHubAPIURL is GitHub's REST API (GITHUB_API_URL).
	GitHubAPIURL string
	// CLI: the run is not a GitHub Action's, so advice names flags and
	// DOCS_PUBLISH_* variables rather than the step's with: block.
	CLI bool
}

// timeout and the like as time.Duration.
func (c Config) timeout() time.Duration      { return time.Duration(c.Timeout) }
func (c Config) buildTimeout() time.Duration { return time.Duration(c.BuildTimeout) }
