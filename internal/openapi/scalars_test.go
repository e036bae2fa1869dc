package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// scalarRow is one row of testdata/yaml/scalars.golden.json, which
// testdata/yaml/generate.mjs writes from what @stoplight/yaml, the
// service's YAML reader, makes of each document.
type scalarRow struct {
	YAML    string          `json:"yaml"`
	Service json.RawMessage `json:"service"` // what the service holds, as JSON
	JS      string          `json:"js"`      // the same, where JSON cannot show it
	Ours    json.RawMessage `json:"ours"`    // where we differ on purpose: what we upload,
	Error   string          `json:"error"`   // or part of the error we give,
	Why     string          `json:"why"`     // and why
}

// TestYAMLScalarsAsTheServiceReadsThem holds the YAML reader to the
// service's: each document reads as the service reads it, token for token
// (numbers as written, keys in order), except in the rows marked as a
// deliberate difference, where it reads as the row says we do.
func TestYAMLScalarsAsTheServiceReadsThem(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/yaml/scalars.golden.json")
	if err != nil {
		t.Fatalf("%v (node testdata/yaml/generate.mjs writes it)", err)
	}
	var table struct {
		Parser string      `json:"parser"`
		Rows   []scalarRow `json:"rows"`
	}
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Rows) < 70 {
		t.Fatalf("the table has %d rows, want at least 70", len(table.Rows))
	}
	for _, row := range table.Rows {
		t.Run(row.YAML, func(t *testing.T) {
			t.Parallel()
			differs := row.Ours != nil || row.Error != ""
			if differs == (row.Why == "") {
				t.Fatalf("a row that differs says why, and only such a row: %+v", row)
			}
			src := &Source{Name: "t.yaml", budget: newBudget(context.Background(), DefaultLimits)}
			n, err := parseAny(src, []byte(row.YAML))
			if row.Error != "" {
				var le *LoadError
				if !errors.As(err, &le) || le.File != "t.yaml" || le.Pos.Line == 0 || !strings.Contains(le.Msg, row.Error) {
					t.Fatalf("got %v, want a load error at a line of t.yaml saying %q (we differ on purpose: %s)", err, row.Error, row.Why)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v; the service reads %s", err, row.Service)
			}
			got := tokens(t, n.AppendJSON(nil))
			if row.Ours != nil {
				if tokens(t, row.Ours) == tokens(t, row.Service) {
					t.Fatalf("the row marks a difference, but ours is what the service reads: %s", row.Service)
				}
				if want := tokens(t, row.Ours); got != want {
					t.Fatalf("got %s, want %s (we differ from the service's %s on purpose: %s)", n.AppendJSON(nil), row.Ours, row.Service, row.Why)
				}
				return
			}
			if want := tokens(t, row.Service); got != want {
				t.Fatalf("got %s, the service reads %s", n.AppendJSON(nil), row.Service)
			}
		})
	}
}
