// Package reporttest renders Markdown as GitHub shows it, for tests of
// what the job summary and the pull-request comment say.
package reporttest

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// RenderGFM is what GitHub would show for md: CommonMark with GitHub's
// extensions, raw HTML let through as GitHub lets some through.
func RenderGFM(t testing.TB, md string) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
