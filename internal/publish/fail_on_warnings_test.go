package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// warned is a description with one warning: a default not of its type.
const warned = `openapi: 3.0.3
info: {title: Books, version: "1"}
paths:
  /books:
    get:
      parameters:
        - name: limit
          in: query
          schema: {type: integer, default: ten}
      responses:
        "200": {description: the books}
`

// TestFailOnWarnings: a description with a warning is published with the
// warning shown, unless fail-on-warnings is true, which stops the run
// before anything is sent; a description without warnings is published
// either way.
func TestFailOnWarnings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		warned  bool
		failOn  bool
		publish bool
	}{
		{"a warning, fail-on-warnings false", true, false, true},
		{"a warning, fail-on-warnings true", true, true, false},
		{"no warning, fail-on-warnings true", false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := flowConfig(t, emu.URL())
			cfg.FailOnWarnings = Bool(tc.failOn)
			if tc.warned {
				if err := os.WriteFile(filepath.Join(cfg.Workspace, "api", "openapi.yaml"), []byte(warned), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, rep, err := runFlow(t, cfg, Options{})
			if tc.publish {
				if err != nil || len(emu.Builds()) != 1 {
					t.Fatalf("error %v, %d builds: want it published\n%s", err, len(emu.Builds()), rep.log())
				}
				if got := rep.count("warning: api/openapi.yaml:9:"); got != map[bool]int{true: 1, false: 0}[tc.warned] {
					t.Errorf("%d warnings annotated\n%s", got, rep.log())
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.Input != "file" || !errors.Is(err, ErrInvalidDescription) || !strings.Contains(err.Error(), "1 warning and fail-on-warnings is true") {
				t.Errorf("error %v, want the warning to stop the run", err)
			}
			if res.FailedStep != StepCheck || len(emu.Requests()) != 0 {
				t.Errorf("failed at %q with %d requests sent", res.FailedStep, len(emu.Requests()))
			}
		})
	}
}
