package openapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// validateYAML parses a one-file description and validates it.
func validateYAML(t *testing.T, doc string) []Finding {
	t.Helper()
	root, err := Parse("d.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return Validate(root)
}

// TestValidateLimitsAreInclusive: a parameter's limits include their
// bounds, so equal bounds and a default on a bound are not findings.
func TestValidateLimitsAreInclusive(t *testing.T) {
	t.Parallel()
	for _, param := range []string{
		"{name: q, in: query, type: string, minLength: 2, maxLength: 2, default: ab}",
		"{name: q, in: query, type: integer, minimum: 10, maximum: 10, default: 10}",
		"{name: q, in: query, type: integer, minimum: 10, default: 10}",
		"{name: q, in: query, type: integer, maximum: 10, default: 10}",
		"{name: q, in: query, type: string, minLength: 2, default: ab}",
		"{name: q, in: query, type: string, maxLength: 2, default: ab}",
	} {
		doc := op2("        - {name: id, in: path, required: true, type: string}\n        - "+param+"\n", "")
		if fs := validateYAML(t, doc); len(fs) > 0 {
			t.Errorf("%s: %v, want no findings", param, fs)
		}
	}
}

// TestValidateLimitsBrokenBelow: a default under its lower bound is
// reported as one over its upper bound is, and the numbers in a message are
// the numbers written.
func TestValidateLimitsBrokenBelow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ param, msg string }{
		{"{name: q, in: query, type: string, minLength: 3, default: ab}", `parameter q: default "ab" breaks its length limits`},
		{"{name: q, in: query, type: integer, minimum: 10, default: 9}", "parameter q: default 9 is outside minimum..maximum"},
		{"{name: q, in: query, type: string, minLength: 12, maxLength: 10}", "parameter q: minLength 12 is greater than maxLength 10"},
		{"{name: q, in: query, type: number, minimum: 12.75, maximum: 10.5}", "parameter q: minimum 12.75 is greater than maximum 10.5"},
	} {
		doc := op2("        - {name: id, in: path, required: true, type: string}\n        - "+tc.param+"\n", "")
		fs := validateYAML(t, doc)
		if len(fs) != 1 || fs[0].Msg != tc.msg {
			t.Errorf("%s: %v, want one finding %q", tc.param, fs, tc.msg)
		}
	}
}

// TestValidateRefChains: a parameter behind a chain of local $refs is
// checked at its end; a cycle of $refs, or a chain of more than 15, is
// not followed (the walk is bounded) and is no finding of its own here.
func TestValidateRefChains(t *testing.T) {
	t.Parallel()
	// chain is an operation whose parameter is a $ref to a chain of
	// shared parameters, hops $refs in all, ending in a path parameter
	// its path does not have.
	chain := func(hops int) string {
		var b strings.Builder
		b.WriteString("parameters:\n")
		for i := 1; i < hops; i++ {
			fmt.Fprintf(&b, "  p%d: {$ref: '#/parameters/p%d'}\n", i, i+1)
		}
		fmt.Fprintf(&b, "  p%d: {name: zz, in: path, required: true, type: string}\n", hops)
		return op2("        - {name: id, in: path, required: true, type: string}\n        - $ref: '#/parameters/p1'\n", b.String())
	}
	followed := func(fs []Finding) bool {
		return slices.ContainsFunc(fs, func(f Finding) bool {
			return strings.Contains(f.Msg, "path parameter zz is not in the path template of GET /x/{id}")
		})
	}
	if fs := validateYAML(t, chain(15)); !followed(fs) {
		t.Errorf("a chain of 15 $refs: %v, want the parameter at its end checked", fs)
	}
	if fs := validateYAML(t, chain(16)); followed(fs) {
		t.Errorf("a chain of 16 $refs: %v, want it not followed", fs)
	}
	cycle := op2("        - {name: id, in: path, required: true, type: string}\n        - $ref: '#/parameters/a'\n",
		"parameters:\n  a: {$ref: '#/parameters/b'}\n  b: {$ref: '#/parameters/a'}\n")
	for _, f := range validateYAML(t, cycle) {
		if f.Severity == Error {
			t.Errorf("a cycle of $refs: %s", f)
		}
	}
}

// TestValidateRefsFromAFolder: a description in a folder may name the
// files beside it; where a $ref leads is reckoned from its own file.
func TestValidateRefsFromAFolder(t *testing.T) {
	t.Parallel()
	doc := v3head + "paths:\n  /x:\n    get:\n      responses:\n        '200': {$ref: '../common/r.yaml#/Ok'}\n"
	root, err := Parse("api/openapi.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if fs := Validate(root); len(fs) > 0 {
		t.Errorf("%v, want no findings", fs)
	}
}

// TestValidateReportsAFaultOnce: a parameter's schema's type is checked as
// a parameter's and as a schema's: one error says it.
func TestValidateReportsAFaultOnce(t *testing.T) {
	t.Parallel()
	doc := v3head + "paths:\n  /x:\n    get:\n      parameters:\n        - {name: q, in: query, schema: {type: int}}\n      responses:\n        '200': {description: ok}\n"
	fs := validateYAML(t, doc)
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Msg, `parameter q: type "int" is not one of`) {
		t.Errorf("%v, want one error about the type", fs)
	}
}

// TestRemoteRefs: a $ref that starts with a URL scheme of two characters
// or more (letters, digits, + - .) names a URL, left to the service; a
// drive letter, a file: URL or a path is a file.
func TestRemoteRefs(t *testing.T) {
	t.Parallel()
	for ref, want := range map[string]bool{
		"https://example.com/s.json#/S": true,
		"ws://h/s":                      true,
		"az:x":                          true,
		"AZ:x":                          true,
		"a09:x":                         true,
		"z9+A-.Z:x":                     true,
		"c:/specs/s.yaml":               false,
		"file:///etc/passwd":            false,
		"File:":                         false,
		"a_b:x":                         false,
		"a/b:c":                         false,
		"a`:x":                          false,
		"a{:x":                          false,
		"a@:x":                          false,
		"a[:x":                          false,
		"a/:x":                          false,
		"a::x":                          false,
		"common/s.yaml#/S":              false,
	} {
		if got := isRemote(ref); got != want {
			t.Errorf("isRemote(%q) = %v, want %v", ref, got, want)
		}
	}
}
