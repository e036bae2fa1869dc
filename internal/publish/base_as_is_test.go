package publish

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBaseComparedAsItIs: a base that a head would be refused for (a key
// written twice, a missing required field) is read as oasdiff reads it and
// compared, and the report says in one line what was wrong with it; the
// same faults in the head still stop the run.
func TestBaseComparedAsItIs(t *testing.T) {
	t.Parallel()
	const get = `"get": {"responses": {"200": {"description": "ok"}}}`
	const del = `"delete": {"responses": {"204": {"description": "gone"}}}`
	doc := func(paths string) string {
		return `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
 "paths": {` + paths + `}}`
	}
	head := doc(`"/books": {` + get + `}`)
	cases := []struct {
		name, base, head string
		breaking         int
		note             string // what the notice and the report's line say
		refused          bool   // the head is refused: the run fails
	}{
		// The first copy has no DELETE: read with the first copy winning,
		// the base would differ from the head by nothing.
		{name: "a path written twice, the last copy wins", base: doc(`"/books": {` + get + `},
 "/books": {` + get + `, ` + del + `}`), head: head, breaking: 1,
			note: `has a key written twice (base.json:3:2: invalid JSON: duplicate key "/books"), read as JSON parsers read it: the last copy wins`},
		{name: "an operation without responses", base: doc(`"/books": {` + get + `, "delete": {}}`), head: head, breaking: 1,
			note: "has 1 error that a head would be refused for (the first: base.json:2:87: DELETE /books has no responses"},
		{name: "a head with a key written twice is refused", base: head, head: doc(`"/books": {` + get + `},
 "/books": {` + get + `}`), refused: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := compareConfig(t, emu.URL(), fakeGitHub(t), tc.head)
			cfg.Comment, cfg.BaseFile = false, "base.json"
			if err := os.WriteFile(filepath.Join(cfg.Workspace, "base.json"), []byte(tc.base), 0o644); err != nil {
				t.Fatal(err)
			}
			res, rep, err := runFlow(t, cfg, Options{})
			if tc.refused {
				var ie *InputError
				if !errors.As(err, &ie) || rep.count(`duplicate key "/books"`) == 0 {
					t.Fatalf("error %v: want the head refused for its key written twice\n%s", err, rep.log())
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, rep.log())
			}
			c := res.Changes
			if c == nil || c.Report == nil {
				t.Fatalf("changes %+v: want a report\n%s", c, rep.log())
			}
			if n := c.Breaking(); n != tc.breaking {
				t.Errorf("%d breaking changes, want %d\n%s", n, tc.breaking, rep.log())
			}
			if want := "notice: :0:0: the description at base-file base.json " + tc.note; rep.count(want) != 1 {
				t.Errorf("want one notice %q\n%s", want, rep.log())
			}
			if md := ChangesMarkdown(c, cfg.File); !strings.Contains(md, "\nNote: the base "+strings.SplitN(tc.note, " (", 2)[0]) {
				t.Errorf("the report does not say what was wrong with the base:\n%s", md)
			}
		})
	}
}

// TestLastKeyWins: each copy of a key but the last is blanked out, in
// nested objects too, with every other byte where it was.
func TestLastKeyWins(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"none", `{"a": 1, "b": [{"a": 2}]}`, `{"a": 1, "b": [{"a": 2}]}`},
		{"twice", "{\"a\": 1,\n \"b\": 2, \"a\": 3}", "{" + strings.Repeat(" ", len(`"a": 1,`)) + "\n \"b\": 2, \"a\": 3}"},
		{"three times", `{"a": 1,"a": 2,"a": 3}`, `{              "a": 3}`},
		{"nested, in a list", `[{"k": {"x": 1, "x": 2}}]`, `[{"k": {        "x": 2}}]`},
		{"an earlier copy holding a copy", "{\"p\": {\"x\": 1, \"x\": 2},\n\"p\": {}}", "{" + strings.Repeat(" ", len(`"p": {"x": 1, "x": 2},`)) + "\n\"p\": {}}"},
		{"no JSON", `{"a": 1, "a": `, `{"a": 1, "a": `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, _ := lastKeyWins([]byte(tc.in))
			if string(got) != tc.want {
				t.Errorf("lastKeyWins(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
