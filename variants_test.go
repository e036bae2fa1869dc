package main

import (
	"archive/zip"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestServiceVariants runs the action as the runner runs it against every
// way the emulator can answer where the service interface is silent (id
// types, extra fields of any shape, success statuses, content types, how
// the zip is served), and against four random mixes of them (a long test
// runs 46 more): each run
// publishes exactly one build, outputs its id exactly as the service wrote
// it, and leaves a valid zip when asked.
func TestServiceVariants(t *testing.T) {
	t.Parallel()
	serviceVariants(t, append(emulator.VariantNames(), randomMixes(1, 4)...))
}

// TestServiceVariantsMixedAtRandom is TestServiceVariants on more of the
// emulator's random mixes of the variants (the program's runs are what
// they cost; the program is not built for the race detector).
func TestServiceVariantsMixedAtRandom(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	serviceVariants(t, randomMixes(5, 50))
}

// randomMixes names the emulator's random mixes of variants from seed
// first to last.
func randomMixes(first, last int) []string {
	var names []string
	for seed := first; seed <= last; seed++ {
		names = append(names, fmt.Sprintf("random:%d", seed))
	}
	return names
}

// serviceVariants runs the program against the emulator in each variant.
func serviceVariants(t *testing.T, names []string) {
	t.Helper()
	for _, name := range names {
		// Every named variant downloads; the random mixes alternate, so
		// that waiting without a download is mixed too.
		seed, random := strings.CutPrefix(name, "random:")
		download := !random || seed[len(seed)-1]%2 == 1
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v, err := emulator.ParseVariant(name)
			if err != nil {
				t.Fatal(err)
			}
			emu := startEmulator(t, func(c *emulator.Config) {
				c.Variant = v
				c.FirstBuildID = 0 // the variant's own id style
			})
			in := baseInputs(emu)
			if download {
				in["download"] = "true"
			}
			// The answers are under test, not the description: the
			// smallest one keeps each of the many builds cheap to render.
			run := runAction(t, in, map[string]string{"api/openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"})
			if run.code != 0 {
				t.Fatalf("variant %s: exit %d\n%s", name, run.code, run.stdout)
			}
			builds := emu.Builds()
			if len(builds) != 1 {
				t.Fatalf("variant %s: %d builds, want exactly 1", name, len(builds))
			}
			if got, want := run.outputs["build-id"], builds[0].ID; got != want {
				t.Errorf("variant %s: build-id %q, the service wrote %q", name, got, want)
			}
			if got, want := run.outputs["doc-id"], emu.Config().Projects[0].Docs[0].ID; got != want {
				t.Errorf("variant %s: doc-id %q, the service wrote %q", name, got, want)
			}
			if !download {
				return
			}
			zr, err := zip.OpenReader(filepath.Join(run.workspace, run.outputs["zip-path"]))
			if err != nil {
				t.Fatalf("variant %s: zip-path %q: %v", name, run.outputs["zip-path"], err)
			}
			defer zr.Close()
			if len(zr.File) == 0 {
				t.Errorf("variant %s: empty zip", name)
			}
		})
	}
}
