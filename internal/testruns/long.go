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

// findLong parses the test files of the module under root (not those of
// nested modules, testdata or folders go test leaves out). A call of
// testenv.Long anywhere but in a Test function is an error: CI would not
// find the test it marks.
func findLong(root string) (longTests, error) {
	var s longTests
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
