package openapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDepthBoundOfAFile: a file may nest exactly Depth levels, in JSON as
// in YAML, in mappings as in sequences; one level more is refused at its
// place.
func TestDepthBoundOfAFile(t *testing.T) {
	t.Parallel()
	const bound = 20
	for _, format := range []string{"json", "yaml"} {
		for _, arrays := range []bool{false, true} {
			for _, depth := range []int{bound, bound + 1} {
				t.Run(fmt.Sprintf("%s/arrays=%v/%d", format, arrays, depth), func(t *testing.T) {
					t.Parallel()
					// x's value is at level 1: its innermost value at depth.
					doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx: " + nested(depth-1, arrays, "1") + "\n"
					if format == "json" {
						doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x":` + nested(depth-1, arrays, "1") + "}"
					}
					name := "openapi." + format
					_, err := Load(context.Background(), fstest.MapFS{name: {Data: []byte(doc)}}, name, Limits{Depth: bound})
					checkBound(t, err, depth <= bound, "nests deeper than 20 levels", fmt.Sprintf("nested %d levels, Depth %d", depth, bound))
				})
			}
		}
	}
	// A long list of plain scalars, which YAML's reading holds packed,
	// nests its items one level below it.
	list := "[" + strings.Repeat("1, ", packFrom) + "1]"
	for _, depth := range []int{bound, bound + 1} {
		doc := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx: " + nested(depth-2, false, list) + "\n"
		_, err := Load(context.Background(), fstest.MapFS{"openapi.yaml": {Data: []byte(doc)}}, "openapi.yaml", Limits{Depth: bound})
		checkBound(t, err, depth <= bound, "nests deeper than 20 levels", fmt.Sprintf("a long list's items at level %d, Depth %d", depth, bound))
	}
}
