package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/publish"
	"github.com/docs-publish/docs-publish/internal/report"
)

// setResults sets the outputs of a run of several descriptions: results,
// a JSON array with one object per description, and the counts. An output
// that cannot be set fails the run, as a description's does.
func setResults(rep *ghaction.Reporter, results []*publish.Result, runErr error) error {
	outcomes := make([]publish.Outcome, len(results))
	for i, r := range results {
		outcomes[i] = publish.OutcomeOf(r)
	}
	c := publish.CountOf(outcomes)
	err := rep.SetJSONOutput("results", publish.ResultsJSON(results))
	for _, kv := range []struct {
		name string
		n    int
	}{{"description-count", c.Descriptions}, {"published-count", c.Published}, {"failed-count", c.Failed}} {
		if err == nil {
			err = rep.SetOutput(kv.name, strconv.Itoa(kv.n))
		}
	}
	if err != nil && runErr == nil {
		return err
	}
	return runErr
}

// writeReportFile writes the report file through its sink: the JSON
// scrubbed of every secret, then written whole or not at all. A report
// that cannot be written fails a run that went well, saying what was
// published all the same (a later step would read nothing); after a
// failure, it is a warning beside it.
func writeReportFile(rep *ghaction.Reporter, cfg publish.Config, results []*publish.Result, runErr error) error {
	if errors.Is(runErr, publish.ErrReportInTheWay) {
		return runErr // its path is another file of the run's: not written over
	}
	data, err := json.Marshal(publish.ReportOf(results))
	if err == nil {
		err = publish.WriteReport(cfg, []byte(strings.TrimRight(rep.ScrubJSON(string(data)), "\n")+"\n"))
	}
	if err == nil {
		return runErr
	}
	if runErr != nil {
		rep.Annotate(report.Warning, "the report file is not written: "+err.Error(), report.Where{})
		return runErr
	}
	return fmt.Errorf("the report file cannot be written (%w); %s", err, whatWasDone(results))
}
