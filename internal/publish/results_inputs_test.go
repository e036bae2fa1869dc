package publish

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResultsKeepTheInputsOfAFailedCheck: a description that fails at
// "check inputs" keeps in its results entry every input given that the
// entry has a field for, as one that got further does.
func TestResultsKeepTheInputsOfAFailedCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(*Config)
	}{
		{"an empty token", func(c *Config) { c.Token = "" }},
		{"a file outside the workspace", func(c *Config) { c.File = "../openapi.yaml" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := flowConfig(t, "http://127.0.0.1:1")
			cfg.DocID, cfg.FileName, cfg.Branch = "21", "orders.yml", "develop"
			tc.edit(&cfg)
			res, rep, err := runMany(t, []Config{cfg}, Options{})
			if err == nil || res[0].FailedStep != StepCheck {
				t.Fatalf("run: %v, failed at %q\n%s", err, res[0].FailedStep, rep.log())
			}
			got := OutcomeOf(res[0])
			got.Error = nil
			want := Outcome{File: cfg.File, ProjectID: "4711", DocID: "21", FileName: "orders.yml", Branch: "develop", Outcome: OutcomeFailed}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("results entry (-want +got):\n%s", d)
			}
		})
	}
}
