package apidiff

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTextsInAgreesWithContains: for sets of texts and lines over a small
// alphabet, so that texts overlap, repeat, nest in each other and are
// empty, textsIn finds exactly what strings.Contains finds pair by pair.
func TestTextsInAgreesWithContains(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(least, most int) string {
		b := make([]byte, least+rng.IntN(most-least+1))
		for i := range b {
			b[i] = "aab"[rng.IntN(3)]
		}
		return string(b)
	}
	for round := range 3000 {
		texts, lines := make([]string, rng.IntN(7)), make([]string, rng.IntN(5))
		// An empty text is in every line: in one round in four only, so
		// that the others tell which lines hold a text.
		least := min(round%4, 1)
		for i := range texts {
			texts[i] = word(least, 5)
		}
		for i := range lines {
			lines[i] = word(0, 12)
		}
		wantFound, wantHolds := make([]bool, len(texts)), make([]bool, len(lines))
		for i, tx := range texts {
			for j, l := range lines {
				if strings.Contains(l, tx) {
					wantFound[i], wantHolds[j] = true, true
				}
			}
		}
		found, holds := textsIn(texts, lines)
		if !slices.Equal(found, wantFound) || !slices.Equal(holds, wantHolds) {
			t.Fatalf("round %d: texts %q, lines %q: found %v holds %v, want %v %v", round, texts, lines, found, holds, wantFound, wantHolds)
		}
	}
}

// TestAcceptAgreesAsTheLibrary: which changes a line agrees to, and which
// lines are used, as oasdiff's MatchIgnore reads an ignore file: a change
// to an operation, from a line about its path that holds its method and
// path and its text; a change to components, security or info, from a
// line that holds that word and its text; all in any case.
func TestAcceptAgreesAsTheLibrary(t *testing.T) {
	t.Parallel()
	op := Change{ID: "api-removed-without-deprecation", Level: Breaking, Operation: "POST", Path: "/Books", Text: "api removed without deprecation"}
	schema := Change{ID: "schema-removed", Level: Breaking, Text: "Removed the schema 'Pet'"}
	info := Change{ID: "info-changed", Level: Warning, Text: "changed the title"}
	note := Change{ID: "schema-added", Level: Info, Text: "added the schema 'Cat'"}
	cases := []struct {
		name     string
		lines    string
		accepted []string // the changes' IDs
		unused   []int    // the lines', 1-based, about a path of the description
	}{
		{"operation", "post /books API removed without deprecation\n", []string{op.ID}, nil},
		{"operation, other method", "GET /books api removed without deprecation\n", nil, []int{1}},
		{"operation, its path second", "see /authors: POST /books api removed without deprecation\n", nil, nil},
		{"operation, two lines", "POST /books api removed without deprecation\nPOST /books api removed without deprecation (again)\n", []string{op.ID}, nil},
		{"component", "components removed the schema 'pet'\n", []string{schema.ID}, nil},
		{"component, its word after", "removed the schema 'pet' from components\n", []string{schema.ID}, nil},
		{"component, without its word", "removed the schema 'pet'\n", nil, nil},
		{"component, another word", "info removed the schema 'pet'\n", nil, nil},
		{"component, part of its text", "components removed the schema\n", nil, nil},
		{"info", "INFO: changed the title\n", []string{info.ID}, nil},
		{"a change not breaking is never agreed to", "components added the schema 'cat'\n", nil, nil},
		{"one line, two changes", "components info removed the schema 'pet', changed the title\n", []string{schema.ID, info.ID}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &Report{Changes: []Change{op, schema, info, note}, scopes: []string{"", "components", "info", "components"}}
			ig, err := ignoreLines(strings.NewReader(tc.lines))
			if err != nil {
				t.Fatal(err)
			}
			r.accept(ig)
			var accepted []string
			for _, c := range r.Accepted {
				accepted = append(accepted, c.ID)
			}
			if !slices.Equal(accepted, tc.accepted) {
				t.Errorf("accepted %v, want %v", accepted, tc.accepted)
			}
			if len(r.Changes)+len(r.Accepted) != 4 || len(r.scopes) != len(r.Changes) {
				t.Errorf("%d changes (%d scopes) and %d accepted, from 4", len(r.Changes), len(r.scopes), len(r.Accepted))
			}
			var unused []int
			for _, l := range ig.unused(func(add func(string)) { add("/Books") }) {
				unused = append(unused, l.Number)
			}
			if !slices.Equal(unused, tc.unused) {
				t.Errorf("unused lines %v, want %v", unused, tc.unused)
			}
		})
	}
}
