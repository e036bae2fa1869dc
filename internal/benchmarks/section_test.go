//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewriteSectionKeepsTheOthers: a section measured alone replaces its
// own, up to the next heading, and every other section stays, the last
// one too (the comparison's rewrite once dropped what followed it).
func TestRewriteSectionKeepsTheOthers(t *testing.T) {
	t.Parallel()
	const report = "# Benchmarks\n\n## 2. Spec preparation\n\nold two\n\n## 3. Start-up\n\nthree\n\n## 7. The API comparison\n\nold seven\n\n## 8. Growth by shape\n\neight\n"
	cases := []struct {
		name, head, section string
		want                []string
		gone                string
	}{
		{"a section in the middle", "## 2. Spec preparation", "## 2. Spec preparation\n\nnew two\n", []string{"# Benchmarks", "## 2. Spec preparation\n\n_Measured", "new two\n\n## 3. Start-up\n\nthree", "old seven", "eight"}, "old two"},
		{"the section before the last", "## 7. The API comparison", "## 7. The API comparison\n\nnew seven\n", []string{"old two", "three", "new seven\n\n## 8. Growth by shape\n\neight\n"}, "old seven"},
		{"a section not there yet", "## 9. New", "## 9. New\n\nnine\n", []string{"old two", "eight\n\n## 9. New\n\n_Measured"}, "\n\n\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "BENCHMARKS.md")
			if err := os.WriteFile(out, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := rewriteSection(&options{out: out}, tc.head, tc.section, "a test"); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the report lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, tc.gone) {
				t.Errorf("the report still holds %q:\n%s", tc.gone, got)
			}
		})
	}
}
