package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestLongTests: the Test functions that call testenv.Long, in a closure
// too, are found with their packages; nested modules, testdata and other
// types' Long methods are not; a call in a helper is an error that says
// where.
func TestLongTests(t *testing.T) {
	t.Parallel()
	s, err := findLong(filepath.Join("testdata", "module"))
	if err != nil {
		t.Fatal(err)
	}
	want := "-run=^(TestCorpus|TestInAClosure|TestLongOne)$ ./testdata/module ./testdata/module/internal/a"
	if got := s.goTestArgs(); got != want {
		t.Errorf("go test arguments:\n got %s\nwant %s", got, want)
	}
	_, err = findLong(filepath.Join("testdata", "badmodule"))
	if err == nil || !strings.Contains(err.Error(), "b_test.go:5:1: needsLong calls testenv.Long") {
		t.Errorf("a call in a helper: %v, want an error naming the helper and its place", err)
	}
}

// TestEveryPackageRunsThroughMain: every package of this module with
// tests has a TestMain that calls testenv.Main, or testenv.NoRaceExitSleep,
// so that none of them spends the race detector's second at exit; and a
// package without one is named.
func TestEveryPackageRunsThroughMain(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	if without, err := withoutMain(root); err != nil || len(without) > 0 {
		t.Errorf("packages without a TestMain calling testenv.Main or testenv.NoRaceExitSleep: %v (%v)", without, err)
	}
	if long, err := findLong(root); err != nil || len(long.dirs) < 3 {
		t.Fatalf("the walk found long tests in %v (%v): not this module", long.dirs, err)
	}
	without, err := withoutMain(filepath.Join("testdata", "module"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join("testdata", "module"), filepath.Join("testdata", "module", "internal", "a")}; !slices.Equal(without, want) {
		t.Errorf("in a module without TestMain: %v, want %v", without, want)
	}
}

// TestSummary: one stream, and the race and long streams of a CI pass
// read together, against golden reports.
func TestSummary(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"race only", []string{"testdata/race.json"}, ""},
		{"race only, every test required", []string{"-require-all", "testdata/race.json"}, "4 tests did not run"},
		{"race only, every test but the network's required", []string{"-require-all", "-allow", "package registries", "testdata/race.json"}, "3 tests did not run"},
		{"both streams", []string{"-top", "3", "testdata/race.json", "testdata/long.json"}, "2 packages and tests failed"},
		{"both streams, a reason in the second allowed", []string{"-require-all", "-allow", "full sweep", "testdata/race.json", "testdata/long.json"}, "2 packages and tests failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := run(append([]string{"summary"}, tc.args...), strings.NewReader(""), &out)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
			golden(t, filepath.Join("testdata", strings.Map(fileChar, tc.name)+".golden"), out.String())
		})
	}
}

// TestSummaryReadsStandardInput: with no file, the stream comes from
// standard input, as go test -json ./... | go run ./internal/testruns
// summary gives it.
func TestSummaryReadsStandardInput(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "race.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fromFile, fromStdin bytes.Buffer
	if err := run([]string{"summary", "testdata/race.json"}, strings.NewReader(""), &fromFile); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"summary"}, bytes.NewReader(data), &fromStdin); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fromFile.String(), fromStdin.String()); d != "" {
		t.Errorf("standard input read otherwise than the file (-file +stdin):\n%s", d)
	}
}

// fileChar keeps letters and digits in a file name, and makes the rest -.
func fileChar(r rune) rune {
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return r
	}
	return '-'
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/testruns -update writes it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}
