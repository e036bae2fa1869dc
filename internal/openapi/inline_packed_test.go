package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInlinedLongListsKeepTheirItems: a $ref inlined where it stands (data
// in another file, a Swagger 2.0 extension) to a list long enough to be
// held packed is written with every item: the copy keeps the packed text.
func TestInlinedLongListsKeepTheirItems(t *testing.T) {
	t.Parallel()
	const n = 300 // over packFrom
	var yamlList, jsonList strings.Builder
	want := make([]any, n)
	yamlList.WriteString("v:\n")
	jsonList.WriteString("[")
	for i := range n {
		fmt.Fprintf(&yamlList, "  - item%d\n", i)
		if i > 0 {
			jsonList.WriteString(",")
		}
		fmt.Fprintf(&jsonList, `"item%d"`, i)
		want[i] = fmt.Sprintf("item%d", i)
	}
	jsonList.WriteString("]")
	for _, tc := range []struct {
		name  string
		files map[string]string
		path  []string // where the list is in the upload
	}{
		{"a Swagger 2.0 extension to a YAML list", map[string]string{
			"openapi.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-a: {$ref: 'v.yaml#/v'}\n",
			"v.yaml":       yamlList.String(),
		}, []string{"x-a"}},
		{"an example in another JSON file", map[string]string{
			"openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n" +
				"components: {schemas: {S: {type: array, items: {type: string}, example: {$ref: 'list.json'}}}}\n",
			"list.json": jsonList.String(),
		}, []string{"components", "schemas", "S", "example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			p, err := Prepare(context.Background(), os.DirFS(dir), "openapi.yaml", PrepareOptions{Bundle: true}, out)
			if err != nil {
				t.Fatal(err)
			}
			p.Release()
			upload, err := os.ReadFile(out.Name())
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(upload, &doc); err != nil {
				t.Fatal(err)
			}
			got := doc
			for _, k := range tc.path {
				got = got.(map[string]any)[k]
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("the inlined list is %.120s, want its %d items", gotJSON, n)
			}
		})
	}
}
