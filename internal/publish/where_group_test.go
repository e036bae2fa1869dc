package publish

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestDifferentChangesAtOneSpot: changes written at one place (the values
// removed from one enum) are one annotation each, not one naming the first;
// the same change to a shared parameter is still one annotation naming the
// other operation it reaches; and the changes past GitHub's ten are counted
// and listed as not annotated, each one.
func TestDifferentChangesAtOneSpot(t *testing.T) {
	t.Parallel()
	doc := func(enum string, shared bool) string {
		param := "        - name: kind\n          in: query\n          schema:\n            type: string\n            enum: [" + enum + "]\n"
		if !shared {
			return "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n      parameters:\n" + param +
				"      responses:\n        '200': {description: ok}\n"
		}
		op := "    get:\n      parameters:\n        - $ref: '#/components/parameters/kind'\n      responses:\n        '200': {description: ok}\n"
		return "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /owners:\n" + op + "  /pets:\n" + op +
			"components:\n  parameters:\n    kind:\n      name: kind\n      in: query\n      schema:\n        type: string\n        enum: [" + enum + "]\n"
	}
	removed := func(level, at, op, v, also string) string {
		s := fmt.Sprintf("%s: api/openapi.yaml:%s: breaking change: %s: removed the enum value `%s` from the `query` request parameter `kind` (request-parameter-enum-value-removed)", level, at, op, v)
		if also != "" {
			s += "; also at " + also
		}
		return s
	}
	var twelve, eleven []string
	for i := range 12 {
		twelve = append(twelve, fmt.Sprintf("v%02d", i))
	}
	for _, v := range twelve[1:] {
		eleven = append(eleven, removed("warning", "11:13", "GET /pets", v, ""))
	}
	cases := []struct {
		name, base, head string
		failOnBreaking   bool
		changes          int      // as the log counts them
		want             []string // the annotations of breaking changes
		notAnnotated     []string // the changes the log lists as not annotated
	}{
		{"two values removed from one enum", doc("a, b, c", false), doc("a", false), true, 2, []string{
			removed("error", "11:13", "GET /pets", "b", ""),
			removed("error", "11:13", "GET /pets", "c", ""),
		}, nil},
		{"two values removed from a shared parameter", doc("a, b, c", true), doc("a", true), false, 4, []string{
			removed("warning", "23:9", "GET /owners", "b", "GET /pets"),
			removed("warning", "23:9", "GET /owners", "c", "GET /pets"),
		}, nil},
		{"more than GitHub shows", doc(strings.Join(twelve, ", "), false), doc("v00", false), false, 11, eleven[:10],
			[]string{strings.TrimPrefix(eleven[10], "warning: api/openapi.yaml:11:13: ")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			cfg := flowConfig(t, emu.URL())
			cfg.Compare, cfg.FailOnBreaking, cfg.DryRun = true, Bool(tc.failOnBreaking), true
			writeHead(t, cfg, tc.head)
			writeBase(t, &cfg, tc.base)
			res, rep, err := runFlow(t, cfg, Options{})
			var be *BreakingError
			if tc.failOnBreaking != errors.As(err, &be) {
				t.Fatalf("err %v\n%s", err, rep.log())
			}
			if res.Changes == nil || res.Changes.Breaking() != tc.changes {
				t.Fatalf("%+v, want %d breaking changes\n%s", res.Changes, tc.changes, rep.log())
			}
			var got, listed []string
			in := false
			for _, l := range strings.Split(rep.log(), "\n") {
				switch {
				case strings.Contains(l, ": breaking change: ") && !strings.HasPrefix(l, "breaking change: "):
					got = append(got, l)
				case strings.HasPrefix(l, "== "):
					in = strings.HasSuffix(l, " breaking changes not annotated")
				case in && strings.HasPrefix(l, "breaking change: "):
					listed = append(listed, l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if strings.Join(listed, "\n") != strings.Join(tc.notAnnotated, "\n") {
				t.Errorf("listed as not annotated:\n%s\nwant:\n%s", strings.Join(listed, "\n"), strings.Join(tc.notAnnotated, "\n"))
			}
			notice := fmt.Sprintf("%d more breaking changes are not annotated", len(tc.notAnnotated))
			if said := strings.Contains(rep.log(), notice); said != (len(tc.notAnnotated) > 0) {
				t.Errorf("the log says %q: %v\n%s", notice, said, rep.log())
			}
		})
	}
}
