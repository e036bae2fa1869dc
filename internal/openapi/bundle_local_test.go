package openapi

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestBundleMainFileByPath: a $ref that names the main file by its path,
// directly or at the end of a chain through another file, becomes a local
// reference, its fragment still escaped as a URI's; a local reference stays
// as written.
func TestBundleMainFileByPath(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, ref, want string }{
		{"by path", "openapi.yaml#/components/schemas/Pet", `"#/components/schemas/Pet"`},
		{"by path, escaped", "openapi.yaml#/components/schemas/A%20B", `"#/components/schemas/A%20B"`},
		{"through another file", "alias.yaml#/Pet", `"#/components/schemas/Pet"`},
		{"local, escaped", "#/components/schemas/A%20B", `"#/components/schemas/A%20B"`},
		{"local, escaped where it need not be", "#/components/schemas/%50et", `"#/components/schemas/%50et"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{
				"openapi.yaml": {Data: []byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths: {}
x-other: {$ref: 'other.yaml#/v'}
x-it: {$ref: '` + tc.ref + `'}
components:
  schemas:
    Pet: {type: object}
    A B: {type: string}
`)},
				"other.yaml": {Data: []byte("v: {type: integer}\n")},
				"alias.yaml": {Data: []byte("Pet: {$ref: 'openapi.yaml#/components/schemas/Pet'}\n")},
			}
			out, err := loadBundle(t, fsys, "openapi.yaml", DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			got := string(out.AppendJSON(nil))
			if want := `"x-it":{"$ref":` + tc.want + "}"; !strings.Contains(got, want) {
				t.Errorf("bundle %s\nwant %s", got, want)
			}
		})
	}
}

// TestBundleUnresolvedNamesThePlace: a $ref into a file that lacks its
// target says where the file lacks it.
func TestBundleUnresolvedNamesThePlace(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-it: {$ref: 'other.yaml#/a/none'}\n")},
		"other.yaml":   {Data: []byte("a: {b: 1}\n")},
	}
	_, err := loadBundle(t, fsys, "openapi.yaml", DefaultLimits)
	if want := "openapi.yaml:4:14: $ref other.yaml#/a/none does not resolve: other.yaml has "; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), " at #/a/none: fix the $ref, or add what it names to other.yaml") {
		t.Errorf("%v, want %q ... at #/a/none, and what to do", err, want)
	}
}
