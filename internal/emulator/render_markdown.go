package emulator

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// The descriptions in a description are CommonMark, and untrusted: raw
// HTML in them is shown as text, links keep only http, https, mailto and
// relative addresses, and images become links, so that the site loads
// nothing from elsewhere.

// markdown renders descriptions, each distinct text once.
type markdown struct {
	md    goldmark.Markdown
	cache map[string]template.HTML
}

// maxMarkdown bounds one description; the rest is dropped with a mark.
const maxMarkdown = 64 << 10

func newMarkdown() *markdown {
	return &markdown{
		md: goldmark.New(
			goldmark.WithExtensions(
				// align attributes, not style ones: the sites the emulator
				// serves allow no inline style.
				extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
				extension.Strikethrough, extension.Linkify),
			goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(safeRenderer{}, 100))),
		),
		cache: map[string]template.HTML{},
	}
}

// render renders src as HTML; the empty text renders as nothing.
func (m *markdown) render(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	if h, ok := m.cache[src]; ok {
		return h
	}
	var out bytes.Buffer
	if err := m.md.Convert([]byte(cut(src, maxMarkdown)), &out); err != nil {
		// goldmark fails only when the writer does; keep the text.
		return template.HTML(template.HTMLEscapeString(src))
	}
	// goldmark's output: every text escaped, no raw HTML (safeRenderer).
	h := template.HTML(out.String())
	m.cache[src] = h
	return h
}

// safeRenderer replaces goldmark's renderers for raw HTML, links and
// images.
type safeRenderer struct{}

func (safeRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, renderRawHTML)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindAutoLink, renderAutoLink)
	r.Register(ast.KindImage, renderImage)
}

// renderRawHTML shows inline HTML as the text it is.
func renderRawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := range segs.Len() {
			seg := segs.At(i)
			w.Write(util.EscapeHTML(seg.Value(source)))
		}
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows a block of HTML as a paragraph of its text.
func renderHTMLBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	b := n.(*ast.HTMLBlock)
	if !entering {
		return ast.WalkContinue, nil
	}
	w.WriteString("<p>")
	lines := b.Lines()
	for i := range lines.Len() {
		line := lines.At(i)
		w.Write(util.EscapeHTML(line.Value(source)))
	}
	if b.HasClosure() {
		w.Write(util.EscapeHTML(b.ClosureLine.Value(source)))
	}
	w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

func renderLink(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	if !entering {
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	w.WriteString(`<a href="`)
	// Checked as written out: entities in the address are resolved.
	if dest := util.URLEscape(l.Destination, true); safeURL(string(dest)) {
		w.Write(util.EscapeHTML(dest))
	}
	w.WriteString(`" rel="nofollow noopener">`)
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.AutoLink)
	if !entering {
		return ast.WalkContinue, nil
	}
	dest := l.URL(source)
	label := l.Label(source)
	if l.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(dest), []byte("mailto:")) {
		dest = append([]byte("mailto:"), dest...)
	}
	dest = util.URLEscape(dest, false)
	if !safeURL(string(dest)) {
		w.Write(util.EscapeHTML(label))
		return ast.WalkContinue, nil
	}
	w.WriteString(`<a href="`)
	w.Write(util.EscapeHTML(dest))
	w.WriteString(`" rel="nofollow noopener">`)
	w.Write(util.EscapeHTML(label))
	w.WriteString("</a>")
	return ast.WalkContinue, nil
}

// renderImage writes a link to the image, labelled with its text: the site
// loads no image from elsewhere.
func renderImage(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	img := n.(*ast.Image)
	if !entering {
		return ast.WalkContinue, nil
	}
	label := bytes.TrimSpace(imageText(img, source))
	if len(label) == 0 {
		label = []byte("image")
	}
	if dest := util.URLEscape(img.Destination, true); safeURL(string(dest)) {
		w.WriteString(`<a class="image" href="`)
		w.Write(util.EscapeHTML(dest))
		w.WriteString(`" rel="nofollow noopener">`)
		w.Write(util.EscapeHTML(label))
		w.WriteString("</a>")
	} else {
		w.Write(util.EscapeHTML(label))
	}
	return ast.WalkSkipChildren, nil
}

// imageText is the plain text of an image's description.
func imageText(n ast.Node, source []byte) []byte {
	var b bytes.Buffer
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(source))
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// safeURL allows addresses without a scheme (relative, fragments) and the
// schemes http, https and mailto. Browsers drop tabs, newlines and leading
// control characters and spaces before reading a scheme, so this does too.
func safeURL(u string) bool {
	u = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, u)
	u = strings.TrimLeft(u, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	i := strings.IndexAny(u, ":/?#")
	if i < 0 || u[i] != ':' {
		return true
	}
	switch strings.ToLower(u[:i]) {
	case "http", "https", "mailto":
		return true
	}
	return false
}
