package emulator

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"time"
)

// The rendered site, in three steps: collect what a page shows from the
// description (render_outline.go, render_overview.go, render_operation.go,
// render_schema.go), render it (render_page.go), zip the pages and their
// assets. A small description is one page; a large one is an overview,
// a page per tag, the schemas and the shared components, rendered one
// page at a time so that memory holds one page's model at once.

// renderSite renders a stored description as a static site, zipped.
func renderSite(content []byte) ([]byte, error) {
	v, err := decodeOrdered(content)
	if err != nil {
		return nil, fmt.Errorf("stored file is not JSON: %w", err)
	}
	root, ok := v.(*object)
	if !ok {
		return nil, errors.New("stored file is not a JSON object")
	}
	c := newCollector(newOutline(root))
	h := c.head()
	z := newSiteZip()
	for _, p := range c.plan() {
		pg := p.build()
		pg.File, pg.Head, pg.Nav = p.file, h, c.nav(p.file)
		var buf bytes.Buffer
		if err := pageTemplate().Execute(&buf, pg); err != nil {
			return nil, fmt.Errorf("render %s: %w", p.file, err)
		}
		if err := z.add(p.file, buf.Bytes()); err != nil {
			return nil, err
		}
	}
	for _, a := range assets {
		if err := z.add(a.name, []byte(a.data)); err != nil {
			return nil, err
		}
	}
	return z.close()
}

// pagePlan is a page of the site and how to collect its model.
type pagePlan struct {
	file  string
	build func() *page
}

// plan lists the site's pages.
func (c *collector) plan() []pagePlan {
	if !c.split {
		return []pagePlan{{"index.html", func() *page {
			p := &page{Overview: true, Params: c.sharedParams(), Resps: c.sharedResponses(), Schemas: c.namedSchemas()}
			for _, g := range c.groups {
				p.Groups = append(p.Groups, c.group(g))
			}
			return p
		}}}
	}
	plans := []pagePlan{{"index.html", func() *page { return &page{Overview: true, Contents: c.contents()} }}}
	for _, g := range c.groups {
		plans = append(plans, pagePlan{g.page, func() *page { return &page{Groups: []*group{c.group(g)}} }})
	}
	if len(c.params) > 0 || len(c.responses) > 0 {
		plans = append(plans, pagePlan{"components.html", func() *page {
			return &page{Params: c.sharedParams(), Resps: c.sharedResponses()}
		}})
	}
	if len(c.schemas) > 0 {
		plans = append(plans, pagePlan{"schemas.html", func() *page { return &page{Schemas: c.namedSchemas()} }})
	}
	return plans
}

// contents lists every operation by group, as links, for the overview of
// a site split into pages.
func (c *collector) contents() []*groupLinks {
	var out []*groupLinks
	for _, g := range c.groups {
		gl := &groupLinks{Name: g.name, Href: c.href(g.page, g.anchor)}
		for _, op := range g.ops {
			gl.Ops = append(gl.Ops, c.navItem(op))
		}
		out = append(out, gl)
	}
	return out
}

// nav is the side bar of page file: every group, the shared components
// and the schemas, with the entries of those on this page.
func (c *collector) nav(file string) []navEntry {
	here := func(page string) bool { return !c.split || page == file }
	out := []navEntry{{Label: "Overview", Href: c.href("index.html", "overview"), Current: c.split && file == "index.html"}}
	for _, g := range c.groups {
		e := navEntry{Label: g.name, Href: c.href(g.page, g.anchor), Current: c.split && g.page == file}
		if here(g.page) {
			for _, op := range g.ops {
				e.Items = append(e.Items, c.navItem(op))
			}
		}
		out = append(out, e)
	}
	for _, sec := range []struct {
		label, anchor string
		list          []*component
	}{
		{"Shared parameters", "shared-parameters", c.params},
		{"Shared responses", "shared-responses", c.responses},
		{"Schemas", "schemas", c.schemas},
	} {
		if len(sec.list) == 0 {
			continue
		}
		page := sec.list[0].page
		e := navEntry{Label: sec.label, Href: c.href(page, sec.anchor), Current: c.split && page == file}
		if here(page) {
			for _, comp := range sec.list {
				e.Items = append(e.Items, navItem{Href: c.href(comp.page, comp.anchor), Label: comp.key})
			}
		}
		out = append(out, e)
	}
	return out
}

// siteZip writes the site's files in order, with a fixed time, so that a
// build of the same description is the same zip.
type siteZip struct {
	buf bytes.Buffer
	zw  *zip.Writer
}

func newSiteZip() *siteZip {
	z := &siteZip{}
	z.zw = zip.NewWriter(&z.buf)
	return z
}

var zipTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func (z *siteZip) add(name string, data []byte) error {
	w, err := z.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime})
	if err != nil {
		return fmt.Errorf("zip %s: %w", name, err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("zip %s: %w", name, err)
	}
	return nil
}

func (z *siteZip) close() ([]byte, error) {
	if err := z.zw.Close(); err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	return z.buf.Bytes(), nil
}
