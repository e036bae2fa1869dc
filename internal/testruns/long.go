package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// longTests are the Test functions that call testenv.Long, and their
// packages' folders.
type longTests struct {
	tests []string
	dirs  []string
}

// goTestArgs selects the long tests: one -run pattern for all the packages
// (a test of the same name in another of them runs too, which is harmless).
func (s longTests) goTestArgs() string {
	if len(s.tests) == 0 {
		return ""
	}
	dirs := make([]string, len(s.dirs))
	for i, d := range s.dirs {
		dirs[i] = "./" + filepath.ToSlash(d)
		if d == "." {
			dirs[i] = "."
		}
	}
	return "-run=^(" + strings.Join(s.tests, "|") + ")$ " + strings.Join(dirs, " ")
}

// findLong finds the long tests in the test files of the module under
// root. A call of testenv.Long anywhere but in a Test function is an
// error: CI would not find the test it marks.
func findLong(root string) (longTests, error) {
	var s longTests
	err := eachTestFile(root, func(p string, f *ast.File, fset *token.FileSet) error {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !callsLong(fn.Body) {
				continue
			}
			if fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				return fmt.Errorf("%s: %s calls testenv.Long: call it in the Test function itself, so that CI finds the test", fset.Position(fn.Pos()), fn.Name.Name)
			}
			s.tests = append(s.tests, fn.Name.Name)
			s.dirs = append(s.dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		return longTests{}, fmt.Errorf("find the long tests: %w", err)
	}
	slices.Sort(s.tests)
	s.tests = slices.Compact(s.tests)
	slices.Sort(s.dirs)
	s.dirs = slices.Compact(s.dirs)
	return s, nil
}

// eachTestFile parses each test file of the module under root (not those
// of nested modules, testdata or folders go test leaves out) and calls fn
// with it, in the order of the walk.
func eachTestFile(root string, fn func(path string, f *ast.File, fset *token.FileSet) error) error {
	fset := token.NewFileSet()
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || hasFile(p, "go.mod")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		return fn(p, f, fset)
	})
}

// withoutMain is the folders, under root, of the packages with tests
// whose test files hold no TestMain that calls testenv.Main or
// testenv.NoRaceExitSleep: their test binaries built with -race would
// each sleep the race detector's second at exit.
func withoutMain(root string) ([]string, error) {
	tested := map[string]bool{}
	err := eachTestFile(root, func(p string, f *ast.File, _ *token.FileSet) error {
		dir := filepath.Dir(p)
		tested[dir] = tested[dir] || callsMain(f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find the packages' TestMain: %w", err)
	}
	var without []string
	for dir, ok := range tested {
		if !ok {
			without = append(without, dir)
		}
	}
	slices.Sort(without)
	return without, nil
}

// callsMain says whether f declares a TestMain that calls testenv.Main or
// testenv.NoRaceExitSleep (in package testenv, Main or NoRaceExitSleep).
func callsMain(f *ast.File) bool {
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != "TestMain" || fn.Body == nil {
			continue
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				var name string
				switch fun := c.Fun.(type) {
				case *ast.Ident:
					if f.Name.Name == "testenv" {
						name = fun.Name
					}
				case *ast.SelectorExpr:
					if x, ok := fun.X.(*ast.Ident); ok && x.Name == "testenv" {
						name = fun.Sel.Name
					}
				}
				found = name == "Main" || name == "NoRaceExitSleep"
			}
			return !found
		})
		return found
	}
	return false
}

// callsLong says whether body calls testenv.Long, in a closure too.
func callsLong(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Long" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testenv" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func hasFile(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
