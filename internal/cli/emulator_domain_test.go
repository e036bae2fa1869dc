package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestEmulatorPrintsEachDocsDomain: at start-up the emulator prints under
// each doc the domain docs.list names, and says so when a seeded doc has
// none, which leaves the docs-url output empty.
func TestEmulatorPrintsEachDocsDomain(t *testing.T) {
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.yaml")
	err := os.WriteFile(seed, []byte(`projects:
  - id: "4711"
    docs:
      - {id: "17", domain: api.example.com, file: openapi.yml}
      - {id: "18", file: other.yml}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	emu := serve(t, nil, "emulator", "--addr", "127.0.0.1:0", "--seed", seed, "--doc", "4712/21")
	waitFor(t, &emu.stdout, regexp.MustCompile(`doc-id 17 renders .*\n    domain: api\.example\.com\n`))
	waitFor(t, &emu.stdout, regexp.MustCompile(`doc-id 18 renders .*\n    no domain, so the docs-url output is empty: give the doc a domain in the seed file\n`))
	waitFor(t, &emu.stdout, regexp.MustCompile(`doc-id 21 renders .*\n    domain: doc-21\.project-4712\.docs\.example\n`))
	if err := emu.stop(); err != nil {
		t.Errorf("the emulator ended with %v", err)
	}
	// A variant that sends only the ids sends no domain either.
	bare := serve(t, nil, "emulator", "--addr", "127.0.0.1:0", "--doc", "4712/21", "--variant", "fields-absent")
	waitFor(t, &bare.stdout, regexp.MustCompile(`doc-id 21 renders .*\n    domain: doc-21\.project-4712\.docs\.example, which variant fields-absent leaves out of docs\.list: the docs-url output is empty\n`))
	if err := bare.stop(); err != nil {
		t.Errorf("the emulator ended with %v", err)
	}
}
