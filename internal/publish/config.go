package publish

import (
	"time"
)

// Config is one run's settings. The env tags are go-envconfig keys; the
// inputs they come from are the same names in kebab-case (PROJECT_ID is the
// input project-id), declared with their defaults in action.yml. Required
// inputs are checked by the flow, which knows that a dry run needs none of
// the service's.
type Config struct {
	Token              string        `env:"TOKEN"`
	APIURL             string        `env:"API_URL"`
	ProjectID          string        `env:"PROJECT_ID"`
	File               string        `env:"FILE"`
	Bundle             bool          `env:"BUNDLE"`
	FailOnWarnings     bool          `env:"FAIL_ON_WARNINGS"`
	DryRun             bool          `env:"DRY_RUN"`
	BundlePath         string        `env:"BUNDLE_PATH"`
	FileName           string        `env:"FILE_NAME"`
	Branch             string        `env:"BRANCH"`
	CommitMessage      string        `env:"COMMIT_MESSAGE"`
	DocID              string        `env:"DOC_ID"`
	SetLive            bool          `env:"SET_LIVE"`
	Download           bool          `env:"DOWNLOAD"`
	DownloadPath       string        `env:"DOWNLOAD_PATH"`
	ExtractTo          string        `env:"EXTRACT_TO"`
	Timeout            time.Duration `env:"TIMEOUT"`
	RequestTimeout     time.Duration `env:"REQUEST_TIMEOUT"`
	FailOnMissingToken bool          `env:"FAIL_ON_MISSING_TOKEN"`
	WaitForBuild       bool          `env:"WAIT_FOR_BUILD"`
	BuildTimeout       time.Duration `env:"BUILD_TIMEOUT"`
	MaxDownload        ByteSize      `env:"MAX_DOWNLOAD_SIZE"`

	// Workspace is the directory file and download-path are relative to
	// (GITHUB_WORKSPACE, or the working directory off GitHub).
	Workspace string
	// Context of the run, for the default commit message.
	Repository, SHA, ServerURL, RunID string
	// EventName is the event that started the workflow (GITHUB_EVENT_NAME).
	EventName string
}
