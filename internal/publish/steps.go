package publish

// Step is one step of a run, as the log, the summary and errors name it.
type Step string

// The steps, in the order a run takes them.
const (
	StepCheck    Step = "check inputs"
	StepList     Step = "list docs"
	StepUpdate   Step = "update file"
	StepRelease  Step = "release build"
	StepWait     Step = "wait for build"
	StepDownload Step = "download build"
)

func (s Step) String() string { return string(s) }
