package testenv

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// NPMFile is the path of file (a slash path in the package) of the npm
// package pkg at version, fetched with npm pack into the user's cache the
// first time: <cache>/docs-publish-testdata/<name>@<version>/package/file.
// It is a network test (see Network). The tests of several packages run
// at once and fetch the same releases: each fetches into a folder of its
// own and renames the file into place, so that none reads a file another
// is still writing or finds it taken away.
func NPMFile(t testing.TB, pkg, version, file string) string {
	t.Helper()
	Network(t)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "docs-publish-testdata", path.Base(pkg)+"@"+version)
	dst := filepath.Join(dir, "package", filepath.FromSlash(file))
	if _, err := os.Stat(dst); err == nil {
		return dst
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm is not installed: the network tests fetch real descriptions with it")
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(dir, ".fetch-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	pack := exec.Command("npm", "pack", "--silent", pkg+"@"+version)
	pack.Dir = tmp
	out, err := pack.Output()
	if err != nil {
		t.Fatalf("npm pack %s@%s: %v", pkg, version, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	tgz := filepath.Join(tmp, strings.TrimSpace(lines[len(lines)-1]))
	if out, err := exec.Command("tar", "-xzf", tgz, "-C", tmp, "package/"+file).CombinedOutput(); err != nil {
		t.Fatalf("unpack %s@%s: %v %s", pkg, version, err, out)
	}
	if err := os.Rename(filepath.Join(tmp, "package", filepath.FromSlash(file)), dst); err != nil {
		t.Fatal(err)
	}
	return dst
}
