package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEveryPackageRunsThroughMain: every package of the module with tests
// has a TestMain that calls Main, or NoRaceExitSleep, so that none of
// them spends the race detector's second at exit.
func TestEveryPackageRunsThroughMain(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	testDirs := map[string]bool{}
	var through []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
				return filepath.SkipDir // a module of its own
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		testDirs[dir] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if callsMain(f) {
			through = append(through, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(testDirs) < 10 {
		t.Fatalf("found tests in %d folders under %s: not the module", len(testDirs), root)
	}
	for dir := range testDirs {
		if !slices.Contains(through, dir) {
			t.Errorf("%s: no TestMain calling testenv.Main or testenv.NoRaceExitSleep", dir)
		}
	}
}

// callsMain reports whether f declares a TestMain that calls Main or
// NoRaceExitSleep of this package.
func callsMain(f *ast.File) bool {
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != "TestMain" || fn.Body == nil {
			continue
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return !found
			}
			var name string
			switch fun := call.Fun.(type) {
			case *ast.Ident: // in this package
				if f.Name.Name == "testenv" {
					name = fun.Name
				}
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "testenv" {
					name = fun.Sel.Name
				}
			}
			found = found || name == "Main" || name == "NoRaceExitSleep"
			return !found
		})
		return found
	}
	return false
}

// moduleRoot is the folder of the go.mod above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
