package apidiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// releasePairs are consecutive published releases of real descriptions, as
// the benchmarks compare them: npm package, file, base and head versions;
// and whether CI compares it (sample), or only the full sweep. The sample
// is every small pair and GitHub's 17.0.0 to 18.0.0, whose base holds a
// path twice and which finds changes at every level: each GitHub pair costs
// oasdiff some 10 s of CPU.
var releasePairs = []struct {
	pkg, file, base, head string
	sample                bool
}{
	{"@octokit/openapi", "generated/api.github.com.json", "17.0.0", "18.0.0", true},
	{"@octokit/openapi", "generated/api.github.com.json", "19.1.0", "20.0.0", false},
	{"@octokit/openapi", "generated/api.github.com.json", "20.0.0", "21.0.0", false},
	{"@octokit/openapi", "generated/api.github.com.json", "22.0.0", "23.0.0", false},
	{"@octokit/openapi", "generated/api.github.com.json", "23.0.0", "23.0.1", false},
	{"@directus/specs", "dist/openapi.json", "15.1.0", "15.1.1", true},
	{"@directus/specs", "dist/openapi.json", "15.1.1", "15.2.0", true},
	{"@blockfrost/openapi", "openapi.yaml", "0.1.84", "0.1.86", true},
	{"@blockfrost/openapi", "openapi.yaml", "0.1.86", "0.1.92", true},
	{"@blockfrost/openapi", "openapi.yaml", "0.1.92", "0.1.93", true},
}

// npmRelease is one file of a package's release, fetched into the user's
// cache the first time: its directory and the file's path in it.
func npmRelease(t *testing.T, pkg, version, file string) (string, string) {
	t.Helper()
	path := "package/" + file
	return strings.TrimSuffix(testenv.NPMFile(t, pkg, version, file), filepath.FromSlash("/"+path)), path
}

// asOasdiffReads is a release bundled as a run bundles it; a base that a
// head would be refused for (a key written twice) read as JSON parsers
// read it, the last copy winning.
func asOasdiffReads(t *testing.T, dir, path string) []byte {
	t.Helper()
	if data := bundleFile(os.DirFS(dir), path); data != nil {
		return data
	}
	raw, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// eachRelease runs f in a subtest on each release of the pairs, as a run
// bundles it (asOasdiffReads): those of the sample pairs, and every one in
// the full sweep.
func eachRelease(t *testing.T, f func(t *testing.T, name string, data []byte)) {
	t.Helper()
	sample := map[string]bool{} // by package and version: in a sample pair
	for _, p := range releasePairs {
		for _, v := range []string{p.base, p.head} {
			sample[p.pkg+"@"+v] = sample[p.pkg+"@"+v] || p.sample
		}
	}
	seen := map[string]bool{}
	for _, p := range releasePairs {
		for _, v := range []string{p.base, p.head} {
			name := p.pkg + "@" + v
			if seen[name] {
				continue
			}
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				if !sample[name] {
					testenv.Sweep(t)
				}
				dir, file := npmRelease(t, p.pkg, v, p.file)
				f(t, name, asOasdiffReads(t, dir, file))
			})
		}
	}
}

// TestVerdictsAsOasdiffOnReleases: on consecutive releases of real
// descriptions, the comparison counts what the oasdiff CLI finds, level by
// level (less its advice about info.version), and every change it keeps is
// one the CLI finds.
func TestVerdictsAsOasdiffOnReleases(t *testing.T) {
	testenv.Long(t)
	testenv.Network(t)
	oasdiff := os.Getenv("OASDIFF") // CI keeps the tool between runs
	if oasdiff == "" {
		bin := t.TempDir()
		install := exec.Command("go", "install", "github.com/oasdiff/oasdiff@v1.35.0")
		install.Env = append(os.Environ(), "GOBIN="+bin)
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("go install oasdiff: %v %s", err, out)
		}
		oasdiff = filepath.Join(bin, "oasdiff")
	}
	for _, p := range releasePairs {
		t.Run(fmt.Sprintf("%s %s to %s", p.pkg, p.base, p.head), func(t *testing.T) {
			if !p.sample {
				testenv.Sweep(t)
			}
			baseDir, basePath := npmRelease(t, p.pkg, p.base, p.file)
			headDir, headPath := npmRelease(t, p.pkg, p.head, p.file)
			out, err := exec.Command(oasdiff, "changelog", filepath.Join(baseDir, basePath), filepath.Join(headDir, headPath), "--format", "json").Output()
			if err != nil {
				t.Fatalf("oasdiff changelog: %v", err)
			}
			var found []struct {
				ID, Text, Operation, Path string
				Level                     int
			}
			if err := json.Unmarshal(out, &found); err != nil {
				t.Fatal(err)
			}
			theirs := map[string]int{}
			var counts [Breaking + 1]int
			for _, c := range found {
				if notAChange[c.ID] {
					continue
				}
				l := map[int]Level{1: Info, 2: Warning, 3: Breaking}[c.Level]
				counts[l]++
				theirs[fmt.Sprint(l, c.ID, c.Operation, c.Path, c.Text)]++
			}
			rep, err := Compare(asOasdiffReads(t, baseDir, basePath), asOasdiffReads(t, headDir, headPath))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []Level{Breaking, Warning, Info} {
				if rep.Count(l) != counts[l] {
					t.Errorf("%d %s changes, oasdiff finds %d", rep.Count(l), l, counts[l])
				}
			}
			var extra []string
			for _, c := range rep.Changes {
				k := fmt.Sprint(c.Level, c.ID, c.Operation, c.Path, c.Text)
				if theirs[k] == 0 {
					extra = append(extra, k)
				}
				theirs[k]--
			}
			if len(extra) > 0 {
				slices.Sort(extra)
				t.Errorf("%d changes oasdiff does not find, the first: %s", len(extra), extra[0])
			}
			t.Logf("%d changes (%d breaking, %d warnings), as oasdiff", rep.Total(), rep.Count(Breaking), rep.Count(Warning))
		})
	}
}
