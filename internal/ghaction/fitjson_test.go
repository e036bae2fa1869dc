package ghaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/report"
)

// results is a results-like JSON array of n entries, each with an error
// message of msgLen bytes made of unit.
func results(n, msgLen int, unit string) string {
	var b strings.Builder
	b.WriteString("[")
	msg := strings.Repeat(unit, msgLen/len(unit))
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"file":"apis/%d.yaml","build-id":%d,"ok":false,"error":%q}`, i, 1000+i, msg)
	}
	b.WriteString("]")
	return b.String()
}

// TestFitJSON: a JSON value over the bound comes back within it, still
// JSON, its names, numbers and shape whole, only string values cut, each
// to a prefix of itself on a character's start with the mark; a value
// within the bound comes back as it was.
func TestFitJSON(t *testing.T) {
	t.Parallel()
	longName := `[{"` + strings.Repeat("n", 3000) + `":"` + strings.Repeat("v", 3000) + `"}]`
	for _, tc := range []struct {
		name    string
		text    string
		max     int
		wantCut bool
		// slack, when set, is the bytes a cut string may lose past what
		// fitting needs: strings cut no shorter than that.
		slack int
	}{
		{"within the bound", results(3, 100, "x"), 1 << 20, false, 0},
		{"long messages", results(200, 5000, "x"), 64 << 10, true, 1},
		{"messages a little over", results(1000, 300, "x"), 256 << 10, true, 1},
		{"characters of three bytes", results(200, 5000, "€"), 64 << 10, true, 3},
		{"a long name stays whole", longName, 4000, true, 0},
		{"a command in a string", results(50, 2000, "##[error]x"), 16 << 10, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, n := fitJSON(tc.text, tc.max)
			if !tc.wantCut {
				if got != tc.text || n != 0 {
					t.Fatalf("fitJSON changed a value within the bound: %d cut", n)
				}
				return
			}
			if len(got) > tc.max || n == 0 {
				t.Fatalf("fitJSON gave %d bytes (bound %d), %d strings cut", len(got), tc.max, n)
			}
			if tc.slack > 0 && len(got) <= tc.max-tc.slack*n {
				t.Errorf("fitJSON gave %d bytes of the %d it may: its %d strings were cut shorter than needed", len(got), tc.max, n)
			}
			if strings.Contains(got, "##[") {
				t.Errorf("a cut value holds a runner command: %.200s", got)
			}
			var before, after any
			if err := json.Unmarshal([]byte(tc.text), &before); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(got), &after); err != nil {
				t.Fatalf("fitJSON gave no JSON: %v", err)
			}
			cuts := 0
			var same func(a, b any)
			same = func(a, b any) {
				switch a := a.(type) {
				case map[string]any:
					bm, ok := b.(map[string]any)
					if !ok || len(bm) != len(a) {
						t.Fatalf("an object became %T of %d members", b, len(bm))
					}
					for k, v := range a {
						same(v, bm[k])
					}
				case []any:
					if bl, ok := b.([]any); !ok || len(bl) != len(a) {
						t.Fatalf("an array of %d became %v", len(a), b)
					}
					for i := range a {
						same(a[i], b.([]any)[i])
					}
				case string:
					bs, _ := b.(string)
					if bs == a {
						return
					}
					cuts++
					prefix, marked := strings.CutSuffix(bs, report.CutMark)
					if !marked || !strings.HasPrefix(a, prefix) || !utf8.ValidString(bs) {
						t.Fatalf("a string became %.80q, not a marked prefix of itself", bs)
					}
				default:
					if a != b {
						t.Fatalf("%v became %v", a, b)
					}
				}
			}
			same(before, after)
			if cuts != n {
				t.Errorf("fitJSON says %d strings cut, %d were", n, cuts)
			}
		})
	}
}

// TestJSONOutputBoundedAfterScrub: a results output past the bound is
// written within it to GITHUB_OUTPUT, with a warning, and no part of a
// secret is left where the cut falls inside one. (The scrub runs before
// the cut; a scrub after it would find the part before the cut's mark,
// and only there: with the cut left unmarked, cutting first fails here.)
func TestJSONOutputBoundedAfterScrub(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, log := onGitHub(t, filepath.Join(dir, "out"), filepath.Join(dir, "sum"))
	// Each message is the token over and over: cut first, a message
	// would end in part of one, which no scrub finds.
	// A secret of no known pattern: part of it is found by nothing.
	const secret = "correct-horse-battery-staple-forty-bytes"
	r.Mask(secret)
	r.maxJSON = 16 << 10 // a sixteenth of the run's, and a sixteenth of the text to scrub
	msg := strings.Repeat(secret+" ", 200)
	value := results(40, 0, "x")
	value = strings.ReplaceAll(value, `"error":""`, fmt.Sprintf(`"error":%q`, msg))
	if err := r.SetJSONOutput("results", value); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	recs := strings.Split(string(b), "\n")
	if len(recs) < 3 || len(recs[1]) > r.maxJSON || !json.Valid([]byte(recs[1])) {
		t.Fatalf("results is %d bytes (bound %d), or not JSON", len(recs[1]), r.maxJSON)
	}
	if strings.Contains(recs[1], secret[:4]) {
		t.Errorf("results holds part of the secret: cut before it was scrubbed")
	}
	if !bytes.Contains(log.Bytes(), []byte("output results: 40 strings cut short to keep it within 16 KiB")) {
		t.Errorf("no warning of the cut in the log:\n%.600s", log)
	}
}
