package openapi

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// discard is a Sink that keeps nothing.
type discard struct{ n int64 }

func (d *discard) Write(p []byte) (int, error)    { d.n += int64(len(p)); return len(p), nil }
func (d *discard) Seek(int64, int) (int64, error) { return 0, nil }
func (d *discard) Truncate(int64) error           { return nil }

// TestFaultsInEveryFile: a $ref that does not resolve does not stop the
// rest: Prepare reports it at its place and validates everything that
// loaded, in every file, each fault once, and writes nothing.
func TestFaultsInEveryFile(t *testing.T) {
	t.Parallel()
	fsys := os.DirFS("../../testdata/faults")
	var out discard
	_, err := Prepare(context.Background(), fsys, "api/openapi.yaml", PrepareOptions{Bundle: true}, &out)
	var faults *Faults
	if !errors.As(err, &faults) {
		t.Fatalf("error %v (%T): want *Faults", err, err)
	}
	var les LoadErrors
	if !errors.As(err, &les) || len(les) != len(faults.Load) {
		t.Errorf("errors.As does not find the load errors of %v", err)
	}
	var got []string
	for _, le := range faults.Load {
		got = append(got, Finding{Error, le.Msg, le.File, le.Pos}.String())
	}
	for _, f := range faults.Findings {
		got = append(got, f.String())
	}
	want := []string{
		"api/openapi.yaml:10:17: error: $ref params.yaml#/nope does not resolve",
		"api/openapi.yaml:11:17: error: $ref shared/missing.yaml#/limit: api/shared/missing.yaml does not exist",
		"api/responses.yaml:10:13: error: $ref #/Owner does not resolve",
		"api/openapi.yaml:18:17: error: $ref #/components/responses/NotThere does not resolve",
		"api/params.yaml:2:3: error: shared parameter id is in path, so it must have required: true",
		"api/params.yaml:9:7: error: shared parameter filter: in must be one of",
		"api/params.yaml:18:14: warning: shared parameter name: default \"longer than three\" breaks its length limits",
		"api/responses.yaml:2:3: error: shared response ok has no description",
	}
	if len(got) != len(want) {
		t.Errorf("%d faults, want %d:\n%s", len(got), len(want), joinLines(got))
	}
	for _, w := range want {
		n := 0
		for _, g := range got {
			if len(g) >= len(w) && g[:len(w)] == w {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q found %d times, want once, in:\n%s", w, n, joinLines(got))
		}
	}
	for _, g := range got {
		if strings.Contains(g, "does not resolve") && !strings.Contains(g, ": fix the $ref, or add what it names") {
			t.Errorf("%q does not say what to do", g)
		}
	}
	if errs, files := faults.Count(); err.Error() != "7 errors in 3 files" || errs != 7 || files != 3 {
		t.Errorf("error %q, count %d in %d files: want 7 errors in 3 files", err, errs, files)
	}
	if out.n != 0 {
		t.Errorf("%d bytes written, want none", out.n)
	}
}

func joinLines(ss []string) string {
	var b bytes.Buffer
	for _, s := range ss {
		b.WriteString(s + "\n")
	}
	return b.String()
}
