package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSchemaFaultsStopTheRun: schemas are checked like everything else. A
// description split over two files, with a fault of each kind in the
// schemas of both, stops the run before its first request, and every
// fault is reported at its file, line and column in one run (annotated, or
// listed in the log past the ten annotations GitHub shows); so does a
// fault in a one-file JSON description, which a run reads in a single
// pass.
// listed is a finding the log lists past the annotations.
var listed = regexp.MustCompile(`^\s*([^\s:]+):(\d+):(\d+): (error|warning): `)

func TestSchemaFaultsStopTheRun(t *testing.T) {
	t.Parallel()
	const badJSON = `{"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
"components": {"schemas": {"Pet": {"type": ["object", "nul"], "required": true,
  "properties": {"name": {"type": "string", "maxLength": "80"}}, "enum": "red"}}}}`
	cases := []struct {
		name  string
		file  string
		files map[string]string
		want  []string // level file:line:col
	}{
		{"two YAML files", "api/openapi.yaml", fixture(t, "internal/openapi/testdata/schemas/faults", "api"), []string{
			"error api/openapi.yaml:9:44", "error api/openapi.yaml:16:63", "error api/openapi.yaml:20:23",
			"error api/openapi.yaml:28:25", "error api/openapi.yaml:30:49", "error api/openapi.yaml:31:29",
			"error api/openapi.yaml:31:47", "error api/openapi.yaml:37:13", "error api/openapi.yaml:38:19",
			"error api/openapi.yaml:39:54", "error api/openapi.yaml:41:13", "error api/openapi.yaml:42:17",
			"error api/openapi.yaml:43:14",
			"error api/shared.yaml:4:32", "error api/shared.yaml:7:20", "error api/shared.yaml:9:32",
			"error api/shared.yaml:11:14", "error api/shared.yaml:13:14", "error api/shared.yaml:14:36",
			"warning api/shared.yaml:18:11", "warning api/shared.yaml:21:14", "warning api/shared.yaml:22:22",
			"warning api/shared.yaml:23:46", "error api/shared.yaml:24:10", "error api/shared.yaml:25:15",
			"error api/shared.yaml:26:24", "error api/shared.yaml:26:37",
		}},
		{"one JSON file", "api/openapi.json", map[string]string{"api/openapi.json": badJSON}, []string{
			"error api/openapi.json:2:55", "error api/openapi.json:2:75",
			"error api/openapi.json:3:58", "error api/openapi.json:3:74",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			in := baseInputs(emu)
			in["file"] = tc.file
			run := runAction(t, in, tc.files)
			if run.code != 3 {
				t.Fatalf("exit %d, want 3 (an invalid description)\n%s", run.code, run.stdout)
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests reached the service, want none", n)
			}
			var got []string
			for _, level := range []string{"error", "warning"} {
				for _, a := range annotations(run.stdout, level) {
					var file string
					var line, col int
					props, _, _ := strings.Cut(strings.TrimPrefix(a, "::"+level+" "), "::")
					for _, p := range strings.Split(props, ",") {
						k, v, _ := strings.Cut(p, "=")
						switch k {
						case "file":
							file = v
						case "line":
							fmt.Sscan(v, &line)
						case "col":
							fmt.Sscan(v, &col)
						}
					}
					if file != "" {
						got = append(got, fmt.Sprintf("%s %s:%d:%d", level, file, line, col))
					}
				}
			}
			// Past the ten annotations of each level GitHub shows, the
			// rest are listed in the log, each at its place.
			for _, line := range strings.Split(run.stdout, "\n") {
				if m := listed.FindStringSubmatch(line); m != nil {
					got = append(got, fmt.Sprintf("%s %s:%s:%s", m[4], m[1], m[2], m[3]))
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("annotations\n%s\nwant\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), run.stdout)
			}
		})
	}
}
