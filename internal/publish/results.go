package publish

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/workspace"
)

// The outcomes of a description, as the results output and the report
// file name them.
const (
	OutcomePublished = "published" // released (and built, when waited for)
	OutcomeChecked   = "checked"   // a dry run, or a fork's pull request: nothing sent
	OutcomeHeld      = "held"      // checked, but another description failed its check: nothing sent
	OutcomeFailed    = "failed"
)

// Outcome is one description's run as the results output gives it. Ids
// are strings, as the service's may be any string; the counts of API
// changes are null when nothing was compared.
type Outcome struct {
	File            string        `json:"file"`
	ProjectID       string        `json:"project-id"`
	DocID           string        `json:"doc-id"`
	FileName        string        `json:"file-name"`
	Branch          string        `json:"branch"`
	BuildID         string        `json:"build-id"`
	Live            bool          `json:"live"`
	BuildState      string        `json:"build-state"`
	ZipPath         string        `json:"zip-path"`
	DocsURL         string        `json:"docs-url"`
	BreakingChanges *int          `json:"breaking-changes"`
	APIChanges      *int          `json:"api-changes"`
	Outcome         string        `json:"outcome"`
	Error           *OutcomeError `json:"error,omitempty"`
}

// OutcomeError is where and why a description failed.
type OutcomeError struct {
	Step    string `json:"step"`
	Message string `json:"message"`
}

// OutcomeOf is what r says of its description.
func OutcomeOf(r *Result) Outcome {
	o := Outcome{
		File: r.File, ProjectID: r.ProjectID, DocID: r.DocID, FileName: r.FileName, Branch: r.Branch,
		BuildID: r.BuildID, Live: r.Live, BuildState: r.BuildState, ZipPath: r.ZipPath, DocsURL: r.DocsURL,
	}
	if c := r.Changes; c != nil && c.Report != nil {
		breaking, total := c.Report.Count(apidiff.Breaking), c.Report.Total()
		o.BreakingChanges, o.APIChanges = &breaking, &total
	}
	switch {
	case r.Err != nil:
		o.Outcome = OutcomeFailed
		o.Error = &OutcomeError{Step: r.FailedStep.String(), Message: r.Err.Error()}
	case r.Held:
		o.Outcome = OutcomeHeld
	case r.DryRun:
		o.Outcome = OutcomeChecked
	default:
		o.Outcome = OutcomePublished
	}
	return o
}

// Counts are how many descriptions a run had, and how they ended.
type Counts struct {
	Descriptions int `json:"descriptions"`
	Published    int `json:"published"`
	Checked      int `json:"checked"`
	Held         int `json:"held"`
	Failed       int `json:"failed"`
}

// CountOf counts the outcomes.
func CountOf(outcomes []Outcome) Counts {
	c := Counts{Descriptions: len(outcomes)}
	for _, o := range outcomes {
		switch o.Outcome {
		case OutcomePublished:
			c.Published++
		case OutcomeChecked:
			c.Checked++
		case OutcomeHeld:
			c.Held++
		case OutcomeFailed:
			c.Failed++
		}
	}
	return c
}

// ReportVersion is the report file's format, as its JSON Schema
// (docs/report.schema.json) describes it.
const ReportVersion = 1

// Report is the report file: the results with every finding and every API
// change of each description.
type Report struct {
	Version      int                 `json:"version"`
	Counts       Counts              `json:"counts"`
	Descriptions []ReportDescription `json:"descriptions"`
}

// ReportDescription is one description in the report file.
type ReportDescription struct {
	Outcome
	Findings []ReportFinding `json:"findings"`
	// Changes are the API changes the comparison kept (see
	// apidiff.MaxKept), most serious first; OmittedChanges counts the
	// others. Accepted are those breaking-ignore lists as agreed.
	Changes        []ReportChange `json:"changes"`
	OmittedChanges int            `json:"omitted-changes"`
	Accepted       []ReportChange `json:"accepted-changes"`
	// Compared says what the description was compared with, or why it was
	// not ("" when the comparison is off or the run stopped before it).
	Compared string `json:"compared"`
}

// ReportFinding is a finding of validation, where it was written.
type ReportFinding struct {
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

// ReportChange is one API change.
type ReportChange struct {
	ID        string `json:"id"`
	Level     string `json:"level"`
	Operation string `json:"operation"`
	Path      string `json:"path"`
	Text      string `json:"text"`
}

// ReportOf is the report file of a run's results.
func ReportOf(results []*Result) Report {
	rep := Report{Version: ReportVersion, Descriptions: make([]ReportDescription, len(results))}
	outcomes := make([]Outcome, len(results))
	for i, r := range results {
		d := ReportDescription{Outcome: OutcomeOf(r), Findings: []ReportFinding{}, Changes: []ReportChange{}, Accepted: []ReportChange{}}
		outcomes[i] = d.Outcome
		for _, f := range r.Findings {
			d.Findings = append(d.Findings, ReportFinding{Severity: string(f.Severity), File: f.File, Line: int(f.Pos.Line), Column: int(f.Pos.Col), Message: f.Msg})
		}
		if c := r.Changes; c != nil {
			switch {
			case c.New:
				d.Compared = "new at " + c.Base
			case c.Report == nil:
				d.Compared = "not compared: " + c.Skipped
			default:
				d.Compared = c.Base
				d.Changes = reportChanges(c.Report.Changes)
				d.Accepted = reportChanges(c.Report.Accepted)
				d.OmittedChanges = c.Report.Total() - len(c.Report.Changes)
			}
		}
		rep.Descriptions[i] = d
	}
	rep.Counts = CountOf(outcomes)
	return rep
}

func reportChanges(changes []apidiff.Change) []ReportChange {
	out := make([]ReportChange, len(changes))
	for i, ch := range changes {
		out[i] = ReportChange{ID: ch.ID, Level: ch.Level.String(), Operation: ch.Operation, Path: ch.Path, Text: ch.Text}
	}
	return out
}

// ResultsJSON is the results output: one Outcome per description.
func ResultsJSON(results []*Result) string {
	outcomes := make([]Outcome, len(results))
	for i, r := range results {
		outcomes[i] = OutcomeOf(r)
	}
	b, err := json.Marshal(outcomes)
	if err != nil {
		panic(fmt.Sprintf("results: %v", err)) // plain structs always marshal
	}
	return string(b)
}

// WriteReport writes data, the report file's text, to the report input's
// path in the workspace, whole or not at all. The caller scrubs data: the
// report file is a sink. A file at the path that is not a report of
// docs-publish, which the run may have read (a file a description refers
// to, one a description that failed its check names), is not written
// over: its error is report's, caused by ErrReportInTheWay.
func WriteReport(cfg Config, data []byte) error {
	ws, err := workspace.Open(cfg.Workspace)
	if err != nil {
		return err
	}
	defer ws.Close()
	rel, err := ws.Path(cfg.Report)
	if err == nil {
		err = checkOverReport(ws, rel)
	}
	if err == nil {
		err = ws.WriteFile(rel, data)
	}
	var ie *InputError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ie):
		return ie // report's already
	case errors.As(pathInputError("report", cfg.Report, err), &ie):
		return ie
	}
	return err
}

// checkOverReport refuses to write the report over the file at rel unless
// it is empty or a report (a JSON object of version, counts and
// descriptions): what a run wrote there before. It reads the file as a
// stream of tokens, in memory that does not grow with it.
func checkOverReport(ws *workspace.Workspace, rel string) error {
	f, err := ws.Open(rel)
	if err != nil {
		return nil // nothing there to keep, or what is there is not a file: writing says
	}
	defer f.Close()
	if isReport(json.NewDecoder(f)) {
		return nil
	}
	return &InputError{Input: "report", Msg: fmt.Sprintf("%s is a file that is not a report of docs-publish, and is not written over: give the report a path of its own, or remove the file in an earlier step", rel), Err: ErrReportInTheWay}
}

// isReport says whether dec reads nothing, or one JSON object whose
// members are the report's and among them its version.
func isReport(dec *json.Decoder) bool {
	t, err := dec.Token()
	if err == io.EOF {
		return true // empty
	}
	if err != nil || t != json.Delim('{') {
		return false
	}
	versioned := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "version":
			versioned = true
		case "counts", "descriptions":
		default:
			return false
		}
		if !skipValue(dec) {
			return false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return false
	}
	_, err = dec.Token()
	return versioned && err == io.EOF
}

// skipValue reads one JSON value from dec, token by token.
func skipValue(dec *json.Decoder) bool {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return true
		}
	}
}
