package apidiff

import (
	"cmp"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	gocmp "github.com/google/go-cmp/cmp"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// samePlacesAsTheLibrary fails t unless readPlaced gives for the units keep
// holds of d what the library gives reading them with places (from the
// text with each member on a line of its own, by its YAML reader): the
// same values, with origins that name the same places. It says whether it
// compared: not where the library's YAML reader refuses the text (so gives
// no places), nor where the walk leaves the text to the library.
func samePlacesAsTheLibrary(t *testing.T, name string, d *doc, keep map[unitKey]bool) bool {
	t.Helper()
	yaml, yamlLines, err := d.text(keep, nil, true)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	plain, _, err := d.text(keep, nil, false)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	want, err := newLoader(true).LoadFromData(yaml)
	if err != nil {
		return false
	}
	got, gotLines, err := readPlaced(plain)
	if errors.Is(err, errNotDirect) {
		return false
	}
	if err != nil {
		t.Errorf("%s: %v, where the library reads it", name, err)
		return false
	}
	ids := map[string]int{}
	placesAsPointers(want, yamlLines, ids)
	placesAsPointers(got, gotLines, ids)
	if reflect.DeepEqual(got, want) {
		return true
	}
	diff := gocmp.Diff(want, got, gocmp.Exporter(func(reflect.Type) bool { return true }))
	if len(diff) > 4000 {
		diff = diff[:4000]
	}
	t.Errorf("%s: placed, not as the library places it (-library +walk):\n%s", name, diff)
	return true
}

// placesAsPointers rewrites every origin that v holds so that each line is
// the number ids gives the JSON pointer ls names for it (-1 for none), and
// no column or end is left: two readings of a text then compare equal when
// they name the same places.
func placesAsPointers(v any, ls *lines, ids map[string]int) {
	id := func(line int) int {
		p, ok := ls.pointer(line)
		if !ok {
			return -1
		}
		if _, ok := ids[p]; !ok {
			ids[p] = len(ids)
		}
		return ids[p]
	}
	fix := func(l *openapi3.Location) {
		l.Line, l.Column, l.EndLine, l.EndColumn = id(l.Line), 0, 0, 0
	}
	type at struct {
		p uintptr
		t reflect.Type
	}
	seen := map[at]bool{}
	originType := reflect.TypeFor[*openapi3.Origin]()
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			if v.Type() == originType {
				if k := (at{v.Pointer(), v.Type()}); seen[k] {
					return
				} else {
					seen[k] = true
				}
				o := (*openapi3.Origin)(v.UnsafePointer())
				if o.Key != nil {
					fix(o.Key)
				}
				for i := range o.Fields {
					fix(&o.Fields[i])
				}
				for _, locs := range o.Sequences {
					for i := range locs {
						fix(&locs[i])
					}
				}
				return
			}
			if k := (at{v.Pointer(), v.Type()}); !seen[k] {
				seen[k] = true
				walk(v.Elem())
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Value())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
}

// placedAlike compares the placed reading with the library's on every
// description in dirs, whole (every unit kept): at least want compared.
func placedAlike(t *testing.T, want int, dirs ...string) {
	t.Helper()
	alike(t, "placed", want, dirs, func(name string, data []byte) int {
		if placedAll(t, name, data) {
			return 1
		}
		return 0
	})
}

// placedAll compares the placed reading of all of data's units with the
// library's, and says whether it compared.
func placedAll(t *testing.T, name string, data []byte) bool {
	t.Helper()
	return placedEvery(t, name, data, 1)
}

// placedEvery compares the placed reading of every nth unit of data (in
// the order of their sections and names) and what they refer to with the
// library's; and says whether it compared.
func placedEvery(t *testing.T, name string, data []byte, every int) bool {
	t.Helper()
	d, err := index(compact(data))
	if err != nil || d.swagger {
		return false
	}
	units := slices.SortedFunc(maps.Keys(d.units), func(a, b unitKey) int {
		return cmp.Or(strings.Compare(a.sec, b.sec), strings.Compare(a.name, b.name))
	})
	keep := map[unitKey]bool{}
	for i, k := range units {
		if i%every == 0 {
			keep[k] = true
		}
	}
	keep = closure(keep, d)
	d.verbatim = verbatimUnits(keep, d)
	return samePlacesAsTheLibrary(t, name, d, keep)
}

// TestPlacedAsTheLibrary: on every description of the project's test data,
// the placed reading equals kin-openapi's.
func TestPlacedAsTheLibrary(t *testing.T) {
	t.Parallel()
	placedAlike(t, 20, testDataDirs...)
}

// TestPlacedAsTheLibraryOnOasdiffData: the same on oasdiff's own test data,
// some 1,500 texts: a long test, as the direct reading's is.
func TestPlacedAsTheLibraryOnOasdiffData(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	placedAlike(t, 500, oasdiffData(t))
}

// TestPlacedAsTheLibraryOnReleases: the same on real releases (those of the
// sample pairs; every release in the full sweep): a small one whole, and
// of GitHub's, which the library's YAML reader takes gigabytes to read
// whole with places, every fortieth path with what it refers to.
func TestPlacedAsTheLibraryOnReleases(t *testing.T) {
	testenv.Long(t)
	testenv.Network(t)
	eachRelease(t, func(t *testing.T, name string, data []byte) {
		every := 1
		if len(data) > 4<<20 {
			every = 40
		}
		if !placedEvery(t, name, data, every) {
			t.Errorf("%s: not compared", name)
		}
	})
}

// TestPlacedAsTheLibraryOnEdges: texts that test data seldom holds are
// placed as the library places them, or left to it.
func TestPlacedAsTheLibraryOnEdges(t *testing.T) {
	t.Parallel()
	const head = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},`
	op := func(schema string) string {
		return head + `"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"string"}},{}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":` + schema + `}}}}}}},"components":{"schemas":{"A":{"type":"object"}}}}`
	}
	cases := []struct {
		name, text string
		left       bool // to the library's YAML reader
	}{
		{"lists of scalars, of objects and of lists", op(`{"type":["string","null"],"enum":["a",1,1.50,true,null,"\u00e9"],"allOf":[{"type":"string"},{}],"examples":[[1],{"a":[2]}],"required":["a"]}`), false},
		{"a map of scalars", head + `"paths":{},"components":{"securitySchemes":{"o":{"type":"oauth2","flows":{"implicit":{"authorizationUrl":"https://a.example/","scopes":{"write":"w","read":"r"}}}}}}}`, false},
		{"an empty map of scalars", head + `"paths":{},"components":{"securitySchemes":{"o":{"type":"oauth2","flows":{"implicit":{"authorizationUrl":"https://a.example/","scopes":{}}}}}}}`, false},
		{"a discriminator's mapping", op(`{"oneOf":[{"$ref":"#/components/schemas/A"}],"discriminator":{"propertyName":"k","mapping":{"a":"#/components/schemas/A"}}}`), false},
		{"a $ref with siblings", head + `"paths":{},"components":{"schemas":{"A":{"$ref":"#/components/schemas/B","description":"d","properties":{"c":{"type":"string"}}},"B":{"type":"object","required":["c"]}}}}`, false},
		{"boolean and empty schemas", op(`{"type":"object","additionalProperties":false,"properties":{"a":true,"b":{"additionalProperties":{"type":"string"}},"c":{}}}`), false},
		{"callbacks and webhooks", head + `"paths":{"/a":{"post":{"responses":{},"callbacks":{"c":{"{$url}":{"post":{"responses":{"200":{"description":"ok","headers":{"H":{"schema":{"type":"string"}}}}}}}}}}}},"webhooks":{"w":{"post":{"responses":{}}}}}`, false},
		{"extensions everywhere", head + `"x-top":{"a":[{"b":1}]},"paths":{"x-p":{"a":1},"/a":{"x-i":[{}],"get":{"x-o":{"k":"v"},"responses":{"x-r":{"c":[1]},"200":{"description":"ok"}}}}}}`, false},
		{"a $ref to a schema's property", head + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":{"p":{"type":"string"}}},"B":{"$ref":"#/components/schemas/A/properties/p"}}}}`, false},
		{"a $ref into an extension, where the document has some", head + `"x-defs":{"S":{"type":"string"}},"paths":{},"components":{"schemas":{"A":{"$ref":"#/x-defs/S"}}}}`, true},
		{"a $ref into components' extension, where the document has some", head + `"x-top":1,"paths":{},"components":{"x-defs":{"S":{"type":"string","enum":["a"]}},"schemas":{"A":{"type":"object","properties":{"p":{"$ref":"#/components/x-defs/S"}}}}}}`, true},
		{"a $ref into an unknown section, where the document has extensions", head + `"x-top":1,"paths":{},"components":{"defs":{"S":{"type":"string"}},"schemas":{"A":{"$ref":"#/components/defs/S"}}}}`, true},
		{"a $ref escaped into an example, where the document has extensions", head + `"x-top":1,"paths":{},"components":{"schemas":{"A":{"type":"object","example":{"type":"string"}},"B":{"$ref":"#/components/schemas/A%2Fexample"}}}}`, true},
		{"a $ref into components' extension, where the document has none", head + `"paths":{},"components":{"x-defs":{"S":{"type":"string"}},"schemas":{"A":{"$ref":"#/components/x-defs/S"}}}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := index([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			text, _, err := d.text(nil, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := readPlaced(text); tc.left != errors.Is(err, errNotDirect) {
				t.Fatalf("read by the walk: %v, want left to the library: %v", err, tc.left)
			}
			if !tc.left && !placedAll(t, tc.name, []byte(tc.text)) {
				t.Errorf("not compared")
			}
		})
	}
}

// TestPlacedSidesAreReadByTheWalk: a side read with places is read by the
// walk, at a fraction of what the library's YAML reader allocates; a text
// the walk leaves to the library (a $ref after a value built) is placed by
// its YAML reader; one that reader refuses too (a field written twice) is
// read without places. Not parallel: it counts allocations.
func TestPlacedSidesAreReadByTheWalk(t *testing.T) {
	all := func(d *doc) map[unitKey]bool {
		keep := map[unitKey]bool{}
		for k := range d.units {
			keep[k] = true
		}
		d.verbatim = verbatimUnits(closure(keep, d), d)
		return keep
	}
	d, err := index(operations(40, false))
	if err != nil {
		t.Fatal(err)
	}
	keep := all(d)
	walk := testing.AllocsPerRun(2, func() {
		if _, ls, _, err := d.read(keep, nil, true); err != nil || ls == nil {
			t.Fatalf("read without places: %v", err)
		}
	})
	library := testing.AllocsPerRun(2, func() {
		yaml, _, _ := d.text(keep, nil, true)
		if _, err := newLoader(true).LoadFromData(yaml); err != nil {
			t.Fatal(err)
		}
	})
	if walk > library/2 {
		t.Errorf("reading with places made %.0f allocations, the library's YAML reader %.0f: want at most half", walk, library)
	}

	const head = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"A":`
	for _, tc := range []struct {
		name, text string
		placed     bool
	}{
		{"a $ref after a value built", head + `{"items":{"type":"string"},"$ref":"#/components/schemas/B"},"B":{"type":"string"}}}}`, true},
		{"a field written twice", head + `{"items":{"type":"string"},"items":{"type":"integer"}}}}}`, false},
	} {
		d, err := index([]byte(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, _, err := readPlaced([]byte(tc.text)); !errors.Is(err, errNotDirect) {
			t.Errorf("%s: read by the walk (%v), where the library reads it", tc.name, err)
		}
		s, ls, _, err := d.read(all(d), nil, true)
		if err != nil || (ls != nil) != tc.placed || tc.placed && s.Components.Schemas["A"].Value.Origin == nil {
			t.Errorf("%s: placed %v (%v), want %v", tc.name, ls != nil, err, tc.placed)
		}
	}
}
