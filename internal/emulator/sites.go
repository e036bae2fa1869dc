package emulator

import (
	"archive/zip"
	"bytes"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
)

// The sites: while it runs, the emulator serves the live build of each doc
// at /sites/<doc id>/, as the service's hosted docs would, so a person sees
// what a publish made without unzipping it. Paths are looked up among the
// zip's entries only.

// sitesPath is where the sites are served, outside the API's prefix.
const sitesPath = "/sites/"

// siteHeaders keep a browsed site to itself: it may load its own assets,
// and nothing from elsewhere.
var siteHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
	"Cache-Control":           "no-store",
}

// serveSite serves /sites/ (the docs and their live builds) and
// /sites/<doc id>/<file>.
func (s *Server) serveSite(w http.ResponseWriter, r *http.Request) {
	for k, v := range siteHeaders {
		w.Header().Set(k, v)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the sites are read only", http.StatusMethodNotAllowed)
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, sitesPath)
	if rest == "" || rest == strings.TrimSuffix(sitesPath, "/") {
		s.siteIndex(w)
		return
	}
	docID, file, hasSlash := strings.Cut(rest, "/")
	if !hasSlash {
		// Relative links in the site need the slash.
		http.Redirect(w, r, sitesPath+url.PathEscape(docID)+"/", http.StatusMovedPermanently)
		return
	}
	zipData, page, status := s.liveZip(docID)
	if zipData == nil {
		sitePage(w, status, page)
		return
	}
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	data, ok := zipEntry(zipData, file)
	if !ok {
		sitePage(w, http.StatusNotFound, messagePage{Title: "Not in this build", Text: "The live build of doc " + docID + " has no " + file + "."})
		return
	}
	ctype := mime.TypeByExtension(path.Ext(file))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Write(data)
}

// liveZip answers the zip of the doc's live build, or the page that says
// why there is none.
func (s *Server) liveZip(docID string) ([]byte, messagePage, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[docID]
	if d == nil {
		return nil, messagePage{Title: "No such doc", Text: "There is no doc " + docID + ".", Docs: s.siteRows()}, http.StatusNotFound
	}
	b := s.builds[d.live]
	if b == nil || b.zip == nil {
		text := "Doc " + docID + " has no live build yet: publish to it with set-live true (the default), then reload this page."
		if last := s.lastBuild(d); last != nil && last.state == stateFailed {
			text += " Its last build, " + last.id + ", failed: " + last.failure
		}
		return nil, messagePage{Title: "No live build yet", Text: text}, http.StatusNotFound
	}
	return b.zip, messagePage{}, http.StatusOK
}

// lastBuild is the doc's latest build; s.mu is held.
func (s *Server) lastBuild(d *doc) *build {
	var last *build
	for _, b := range s.builds {
		if b.doc == d && (last == nil || cmpNumeric(b.id, last.id) > 0) {
			last = b
		}
	}
	return last
}

// zipEntry reads the file name from the zip; nothing else is served.
func zipEntry(data []byte, name string) ([]byte, bool) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, false
	}
	for _, f := range zr.File {
		if f.Name != name || f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, false
		}
		defer rc.Close()
		out, err := io.ReadAll(rc)
		return out, err == nil
	}
	return nil, false
}

// siteIndex lists the docs with their live builds.
func (s *Server) siteIndex(w http.ResponseWriter) {
	s.mu.Lock()
	rows := s.siteRows()
	s.mu.Unlock()
	sitePage(w, http.StatusOK, messagePage{Title: "Sites of the live builds", Docs: rows})
}

// siteRow is a doc on the index of the sites.
type siteRow struct {
	ID, Href, Project, File, Branch, Live string
}

// siteRows lists the docs, in the order seeded; s.mu is held.
func (s *Server) siteRows() []siteRow {
	var rows []siteRow
	for _, p := range s.cfg.Projects {
		for _, d := range p.Docs {
			row := siteRow{ID: d.ID, Href: sitesPath + url.PathEscape(d.ID) + "/", Project: p.ID, File: d.File, Branch: d.Branch}
			if dd := s.docs[d.ID]; dd != nil && dd.live != "" {
				row.Live = dd.live
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// messagePage is a small page of the emulator's own.
type messagePage struct {
	Title, Text string
	Docs        []siteRow
}

func sitePage(w http.ResponseWriter, status int, p messagePage) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	messageTemplate().Execute(w, p)
}

// messageTemplate is parsed when first used, not at start-up: a run that
// publishes serves no page.
var messageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("message").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{{.Title}} · docs-publish emulator</title></head>
<body>
<h1>{{.Title}}</h1>
{{with .Text}}<p>{{.}}</p>{{end}}
{{with .Docs}}<table>
<tr><th>Doc</th><th>Project</th><th>Renders</th><th>Live build</th></tr>
{{range .}}<tr><td><a href="{{.Href}}">{{.ID}}</a></td><td>{{.Project}}</td><td>{{.File}} on branch {{.Branch}}</td><td>{{or .Live "none yet"}}</td></tr>
{{end}}</table>{{end}}
</body>
</html>
`))
})
