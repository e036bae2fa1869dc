package apidiff

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestReferenceTargets: the unit a local reference points into, and the
// references that make a change reach wide (the whole document);
// references to other parts, or to a whole section, need no unit.
func TestReferenceTargets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		swagger bool
		ref     string
		want    unitKey
		ok      bool
		wide    bool
	}{
		{false, "#/components/schemas/Book", unitKey{"components/schemas", "Book"}, true, false},
		{false, "#/components/schemas/Book/properties/id", unitKey{"components/schemas", "Book"}, true, false},
		{false, "#/paths/~1books~1{bookId}/get", unitKey{"paths", "/books/{bookId}"}, true, false},
		{false, "#/components/schemas", unitKey{}, false, false},
		{false, "#/components", unitKey{}, false, false},
		{false, "#/components/x-things/a", unitKey{}, false, false},
		{false, "#/components/x-things", unitKey{}, false, false},
		{false, "#/info/title", unitKey{}, false, false},
		{false, "#", unitKey{}, false, true},
		{false, "#/", unitKey{}, false, true},
		{false, "#/%zz", unitKey{}, false, false},
		{true, "#/definitions/Book", unitKey{"definitions", "Book"}, true, false},
		{true, "#/definitions", unitKey{}, false, false},
		{true, "#/components/schemas/Book", unitKey{}, false, false},
	} {
		d := &doc{swagger: tc.swagger}
		got, ok := d.target(tc.ref)
		if got != tc.want || ok != tc.ok || d.wide != tc.wide {
			t.Errorf("target(%q) = %v, %v, wide %v; want %v, %v, wide %v", tc.ref, got, ok, d.wide, tc.want, tc.ok, tc.wide)
		}
	}
}

// TestStringAt reads the JSON string a text starts with, escapes
// included, and how far it goes; a string not ended or not readable gives
// no text.
func TestStringAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want string
		n    int
	}{
		{`"Book", "x"`, "Book", 6},
		{`"a\"b" rest`, `a"b`, 6},
		{`"\u00zz" rest`, "", 8},
		{`"not ended`, "", 10},
	} {
		if s, n := stringAt([]byte(tc.in)); s != tc.want || n != tc.n {
			t.Errorf("stringAt(%q) = %q, %d; want %q, %d", tc.in, s, n, tc.want, tc.n)
		}
	}
}

// TestRefersTo: what a part refers to: each local reference, from the
// first byte on, and the schemas a discriminator's mapping names.
func TestRefersTo(t *testing.T) {
	t.Parallel()
	d, err := index([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"Pet":{"type":"object"},"Dog":{"type":"object"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.swagger {
		t.Error("an OpenAPI 3 description read as Swagger 2")
	}
	if got := d.refersTo([]byte(`"#/components/schemas/Pet"`)); !slices.Equal(got, []unitKey{{"components/schemas", "Pet"}}) {
		t.Errorf("a bare reference refers to %v", got)
	}
	got := d.refersTo([]byte(`{"discriminator":{"propertyName":"kind","mapping":{"dog":"Dog"}}}`))
	if !slices.Contains(got, unitKey{"components/schemas", "Dog"}) {
		t.Errorf("a mapping to Dog refers to %v", got)
	}
	sw, err := index([]byte(`{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{}}`))
	if err != nil || !sw.swagger {
		t.Errorf("a Swagger 2 description: swagger %v, %v", sw != nil && sw.swagger, err)
	}
}

// TestIsExtension: a document-level part named x-..., alone or in a
// section, is an extension.
func TestIsExtension(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{"x-logo": true, "info/x-logo": true, "info/title": false, "tags": false} {
		if got := isExtension(key); got != want {
			t.Errorf("isExtension(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestSectionReferencesArePruned: a reference to a whole section reaches
// each of its units, so that a change to one of them is followed, as a
// reference to one unit is, rather than the documents going whole; the
// report is the whole documents'.
func TestSectionReferencesArePruned(t *testing.T) {
	t.Parallel()
	d, err := index([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{}},"components":{"schemas":{"Pet":{},"Dog":{}},"responses":{"Gone":{"description":"x"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string][]unitKey{
		"#/components/schemas": {{"components/schemas", "Pet"}, {"components/schemas", "Dog"}},
		"#/components":         {{"components/responses", "Gone"}, {"components/schemas", "Dog"}, {"components/schemas", "Pet"}},
		"#/paths":              {{"paths", "/a"}},
		"#/info":               nil,
	} {
		got := d.refersTo([]byte(`"` + ref + `"`))
		if !slices.Equal(sortedKeys(got), sortedKeys(want)) || d.wide {
			t.Errorf("%s refers to %v (wide %v), want %v", ref, got, d.wide, want)
		}
	}
	// A path that names the schemas section, and a schema changed.
	base := operations(3, false)
	withRef := func(doc []byte) []byte {
		return bytes.Replace(doc, []byte(`"/p0":{"get":{`), []byte(`"/p0":{"get":{"x-see":"#/components/schemas",`), 1)
	}
	head := bytes.Replace(base, []byte(`"Old":{"type":"string"}`), []byte(`"Old":{"type":"integer"}`), 1)
	if !samePruned(t, "a section reference", withRef(base), withRef(head)) {
		t.Error("compared whole")
	}
}

func sortedKeys(ks []unitKey) []unitKey {
	out := slices.Clone(ks)
	slices.SortFunc(out, func(a, b unitKey) int { return strings.Compare(a.sec+"\x00"+a.name, b.sec+"\x00"+b.name) })
	return out
}
