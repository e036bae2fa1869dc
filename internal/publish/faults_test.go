package publish

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copyTree copies the files of the folder src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestEveryFaultInOneRun: a description split over three files, with
// $refs that do not resolve and faults validation finds in the files they
// lead to: one run annotates every one at its file, line and column, the
// final error sums them up, and nothing is sent.
func TestEveryFaultInOneRun(t *testing.T) {
	t.Parallel()
	emu := startEmulator(t, nil)
	cfg := flowConfig(t, emu.URL())
	copyTree(t, "../../testdata/faults", cfg.Workspace)
	res, rep, err := runFlow(t, cfg, Options{})
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInvalidDescription) {
		t.Fatalf("error %v (%T): want an *InputError for an invalid description\n%s", err, err, rep.log())
	}
	if want := "api/openapi.yaml has 7 errors in 3 files and 1 warning (see the annotations)"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q: want it to sum up: %q", err, want)
	}
	want := []string{ // errors first, by file and place
		"error: api/openapi.yaml:10:17: $ref params.yaml#/nope does not resolve",
		"error: api/openapi.yaml:11:17: $ref shared/missing.yaml#/limit: api/shared/missing.yaml does not exist",
		"error: api/openapi.yaml:18:17: $ref #/components/responses/NotThere does not resolve",
		"error: api/params.yaml:2:3: shared parameter id is in path, so it must have required: true",
		"error: api/params.yaml:9:7: shared parameter filter: in must be one of",
		"error: api/responses.yaml:2:3: shared response ok has no description",
		"error: api/responses.yaml:10:13: $ref #/Owner does not resolve",
		"warning: api/params.yaml:18:14: shared parameter name: default \"longer than three\" breaks its length limits",
	}
	var got []string
	for _, l := range strings.Split(rep.log(), "\n") {
		if strings.HasPrefix(l, "error: ") || strings.HasPrefix(l, "warning: ") || strings.HasPrefix(l, "notice: ") {
			got = append(got, l)
		}
	}
	if !slices.EqualFunc(got, want, strings.HasPrefix) {
		t.Errorf("annotations:\n%s\nwant, in this order:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Findings) != len(want) || res.Unannotated != 0 {
		t.Errorf("%d findings, %d not annotated: want %d, all annotated", len(res.Findings), res.Unannotated, len(want))
	}
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

// TestAnnotationsPerLevel: GitHub shows ten error annotations per step and
// drops the rest. With 30 faults, the first nine (in file and line order)
// are annotated, the run's final error is the tenth, and every one of the
// 30 is in the findings and the log, which say how many were not
// annotated.
func TestAnnotationsPerLevel(t *testing.T) {
	t.Parallel()
	cfg := flowConfig(t, "http://127.0.0.1:1") // nothing may be sent
	var doc strings.Builder
	doc.WriteString("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n      parameters:\n")
	for i := range 30 {
		fmt.Fprintf(&doc, "        - {name: p%02d, in: querx, schema: {type: string}}\n", i)
	}
	if err := os.WriteFile(filepath.Join(cfg.Workspace, "api", "openapi.yaml"), []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res, rep, err := runFlow(t, cfg, Options{})
	if !errors.Is(err, ErrInvalidDescription) || !strings.Contains(err.Error(), "30 errors in 1 file") || !strings.Contains(err.Error(), "21 not annotated") {
		t.Fatalf("error %v: want 30 errors in 1 file, 21 not annotated", err)
	}
	if n := rep.count("error: api/openapi.yaml:"); n != 9 {
		t.Errorf("%d error annotations of findings, want 9 (the run's final error is the tenth)\n%s", n, rep.log())
	}
	for i := range 30 {
		msg := fmt.Sprintf("parameter p%02d: in must be one of", i)
		at := fmt.Sprintf("api/openapi.yaml:%d:27: ", 8+i)
		annotated, logged := rep.count("error: "+at+msg), rep.count(at+"error: "+msg)
		if i < 9 && (annotated != 1 || logged != 0) || i >= 9 && (annotated != 0 || logged != 1) {
			t.Errorf("p%02d: annotated %d times, logged %d times; want the first 9 annotated, the others logged", i, annotated, logged)
		}
	}
	if len(res.Findings) != 30 || res.Unannotated != 21 {
		t.Errorf("%d findings, %d not annotated: want 30 and 21", len(res.Findings), res.Unannotated)
	}
	if rep.count("notice: :0:0: 21 more findings in the description are not annotated") != 1 {
		t.Errorf("no notice of the findings not annotated:\n%s", rep.log())
	}
}
