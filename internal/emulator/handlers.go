package emulator

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// maxLoggedBody is how much of a body the request log keeps.
const maxLoggedBody = 64 << 10

// ServeHTTP serves the sites of the live builds to anyone (as the hosted
// docs are), and the API to its token; it logs every request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	defer func() { s.logRequest(r, rec.status, time.Since(start)) }()
	if !s.hostAllowed(r.Host) {
		http.Error(rec, fmt.Sprintf("Forbidden: on loopback the emulator answers requests addressed to %s only, not to %q: a web page could otherwise reach it through a host name of its own (DNS rebinding)",
			s.hostNames(), r.Host), http.StatusForbidden)
		return
	}
	if strings.HasPrefix(r.URL.Path, sitesPath) || r.URL.Path == strings.TrimSuffix(sitesPath, "/") {
		s.serveSite(rec, r)
		return
	}
	s.serveAPI(rec, r)
}

// trimLog drops the oldest requests while the log holds more than its
// count or its bytes. s.mu is held.
func (s *Server) trimLog() {
	drop := 0
	for drop < len(s.requests)-1 && (len(s.requests)-drop > s.cfg.LogSize || s.logBytes > s.cfg.LogBytes) {
		s.logBytes -= s.requests[drop].size()
		drop++
	}
	s.requests = slices.Delete(s.requests, 0, drop)
}

// size is what a logged request holds in memory, roughly.
func (r *Request) size() int64 {
	n := int64(len(r.Method) + len(r.Path) + len(r.RawQuery) + len(r.Body) + 64)
	for k, vs := range r.Header {
		n += int64(len(k))
		for _, v := range vs {
			n += int64(len(v))
		}
	}
	return n
}

// serveAPI records the request, checks the token before reading any of
// the body, and routes it.
func (s *Server) serveAPI(rec *statusRecorder, r *http.Request) {
	// Logged on arrival, so a test sees a request whose answer is still
	// being delayed; the status is filled in when the answer is done.
	logged := &Request{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: r.Header.Clone()}
	logged.Header.Del("Authorization") // the log never keeps a token
	s.mu.Lock()
	s.requests = append(s.requests, logged)
	s.logBytes += logged.size()
	s.trimLog()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		logged.Status = rec.status
		s.mu.Unlock()
	}()
	if !s.authorized(r) {
		s.fail(rec, r, http.StatusUnauthorized, 1001, "the access token is missing, malformed or revoked")
		return
	}
	body, err := readBody(http.MaxBytesReader(rec, r.Body, s.cfg.MaxBody), r.ContentLength, s.cfg.MaxBody)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.fail(rec, r, http.StatusRequestEntityTooLarge, 1413, fmt.Sprintf("the body is larger than %d bytes", s.cfg.MaxBody))
			return
		}
		s.fail(rec, r, http.StatusBadRequest, 1400, "the body could not be read")
		return
	}
	r.Body = &wholeBody{Reader: bytes.NewReader(body), all: body}
	kept := bytes.Clone(body[:min(len(body), maxLoggedBody)]) // not the whole body kept alive
	s.mu.Lock()
	logged.Body = kept
	if slices.Contains(s.requests, logged) { // not dropped already
		s.logBytes += int64(len(kept))
		s.trimLog()
	}
	s.mu.Unlock()
	if f := s.takeFault(r); f != nil && s.serveFault(f, rec, r) {
		if rec.status == 0 {
			rec.status = -1 // no answer
		}
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// authorized checks the bearer token in constant time.
func (s *Server) authorized(r *http.Request) bool {
	want := "Bearer " + s.cfg.Token
	got := r.Header.Get("Authorization")
	return s.cfg.Token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// wholeBody is a request body read whole, which the handlers take as it is
// rather than read it again: a large upload is held once.
type wholeBody struct {
	*bytes.Reader
	all []byte
}

func (wholeBody) Close() error { return nil }

// bodyOf is the request's body, read whole.
func bodyOf(r *http.Request) []byte {
	if b, ok := r.Body.(*wholeBody); ok {
		return b.all
	}
	all, _ := io.ReadAll(r.Body)
	return all
}

// readBody reads a body whole, as it arrives: the buffer grows with what
// came, by doubling up to the announced length (when it announces one
// within max), so an honest upload is copied a few times at most and one
// that announces much and sends little costs what it sent, not what it
// announced.
func readBody(r io.Reader, length, max int64) ([]byte, error) {
	if length <= 0 || length > max {
		return io.ReadAll(r)
	}
	want := int(length) + 1 // +1: the read that finds the end
	buf := make([]byte, 0, min(want, firstBodyRead))
	for {
		if len(buf) == cap(buf) {
			next := 2 * cap(buf)
			if cap(buf) < want {
				next = min(next, want)
			}
			buf = slices.Grow(buf, next-len(buf))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// firstBodyRead is the buffer a body starts in: most uploads fit, and one
// that announces more and sends nothing costs no more.
const firstBodyRead = 1 << 20

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(r.ResponseWriter).Hijack()
}

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// writeJSON answers body as JSON in variant v's content type, gzip-compressed
// when the client asks for it.
func writeJSON(w http.ResponseWriter, r *http.Request, v Variant, status int, body any) {
	data, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", v.JSONType)
	if acceptsGzip(r) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		data = buf.Bytes()
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && !strings.Contains(strings.ReplaceAll(params, " ", ""), "q=0") {
			return true
		}
	}
	return false
}

// fail answers in the error shape of the service's design example, its
// code and tracking id shaped by the variant.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	v := s.answerVariant()
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("emu-%06d", s.seq)
	s.mu.Unlock()
	body := map[string]any{"error_message": msg}
	switch v.Fields {
	case FieldsStrings:
		body["error_code"], body["tracking_id"] = code, id
	case FieldsObjects:
		body["error_code"], body["tracking_id"] = map[string]any{"value": code}, map[string]any{"id": id}
	case FieldsArrays:
		body["error_code"], body["tracking_id"] = []any{code}, []any{id}
	case FieldsUnknown:
		body = v.decorate(body, "error", nil)
		body["error_code"], body["tracking_id"] = fmt.Sprint(code), nil
	}
	writeJSON(w, r, v, status, body)
}

// jsonBody checks a JSON body's Content-Type as the service would: the
// interface gives application/json;charset=UTF-8. Another media type (a
// form, text, a +json type) and a charset other than UTF-8 are refused;
// letter case, spaces and a missing charset are not, as media types and
// charsets are case-insensitive and UTF-8 is JSON's encoding (RFC 8259).
func jsonBody(r *http.Request) error {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return fmt.Errorf("Content-Type must be application/json;charset=UTF-8, got %q", r.Header.Get("Content-Type"))
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return fmt.Errorf("charset must be UTF-8, got %q", cs)
	}
	return nil
}

var dotSegment = regexp.MustCompile(`(^|/)\.\.?(/|$)`)

func (s *Server) updateFile(w http.ResponseWriter, r *http.Request) {
	projectID, name := r.PathValue("project"), r.PathValue("file")
	if err := jsonBody(r); err != nil {
		s.fail(w, r, http.StatusUnsupportedMediaType, 1005, err.Error())
		return
	}
	if dotSegment.MatchString(name) || name == "" {
		s.fail(w, r, http.StatusBadRequest, 1006, "file name must not contain . or .. segments")
		return
	}
	var body struct {
		Content       json.RawMessage `json:"content"`
		Branch        *string         `json:"branch"`
		CommitMessage string          `json:"commit_message"`
	}
	raw := bodyOf(r)
	if err := json.Unmarshal(raw, &body); err != nil {
		s.fail(w, r, http.StatusBadRequest, 1002, "body is not JSON: "+err.Error())
		return
	}
	content := bytes.TrimSpace(body.Content)
	if len(content) == 0 || content[0] != '{' {
		s.fail(w, r, http.StatusBadRequest, 1003, "content must be the specification document as a JSON object, not a string or other value")
		return
	}
	if body.Branch == nil || *body.Branch == "" {
		s.fail(w, r, http.StatusBadRequest, 1003, "branch is required")
		return
	}
	v, gone, serr := s.storeFile(projectID, *body.Branch, name, content, body.CommitMessage)
	if serr != nil {
		s.fail(w, r, serr.status, serr.code, serr.msg)
		return
	}
	for _, g := range gone {
		s.logLine(fmt.Sprintf("let go of version %d of %s on branch %s of project %s (%d bytes): stored versions are kept within %d bytes, the oldest let go first\n",
			g.version, g.file.name, g.file.branch, g.project.id, g.size, s.cfg.StoredBytes))
	}
	va := s.answerVariant()
	switch va.Update {
	case UpdateNoContent:
		w.WriteHeader(http.StatusNoContent)
	case UpdateEmpty:
		w.WriteHeader(http.StatusOK)
	default:
		file := va.decorate(map[string]any{"name": name, "branch": *body.Branch}, "file",
			map[string]any{"version": v.Version, "commit": v.Commit})
		writeJSON(w, r, va, http.StatusOK, va.decorate(map[string]any{"file": file}, "top", nil))
	}
}

func (s *Server) listDocs(w http.ResponseWriter, r *http.Request) {
	projectID := r.URL.Query().Get("projectId")
	v := s.answerVariant()
	s.mu.Lock()
	p := s.projects[projectID]
	var docs []any
	if p != nil {
		for _, d := range p.docs {
			e := map[string]any{"id": v.idValue(d.ID)}
			if d.Domain != "" && v.Fields != FieldsAbsent {
				e["domain"] = v.domainValue(d.Domain)
			}
			docs = append(docs, v.decorate(e, "doc", map[string]any{"name": "Docs of " + d.File}))
		}
	}
	s.mu.Unlock()
	if projectID == "" {
		s.fail(w, r, http.StatusBadRequest, 1003, "projectId is required")
		return
	}
	if p == nil {
		s.fail(w, r, http.StatusNotFound, 1404, fmt.Sprintf("project %s not found", projectID))
		return
	}
	if docs == nil {
		docs = []any{}
	}
	writeJSON(w, r, v, http.StatusOK, v.decorate(map[string]any{"docs": docs}, "top", nil))
}

func (s *Server) release(w http.ResponseWriter, r *http.Request) {
	docID := r.URL.Query().Get("id")
	if err := jsonBody(r); err != nil {
		s.fail(w, r, http.StatusUnsupportedMediaType, 1005, err.Error())
		return
	}
	var body struct {
		SetLive *bool `json:"setLive"`
	}
	raw := bodyOf(r)
	if err := json.Unmarshal(raw, &body); err != nil {
		s.fail(w, r, http.StatusBadRequest, 1002, "body is not JSON: "+err.Error())
		return
	}
	// Absent setLive: the interface leaves the default open; the emulator
	// takes false, the cautious reading.
	setLive := body.SetLive != nil && *body.SetLive
	b, serr := s.startBuild(docID, setLive)
	if serr != nil {
		s.fail(w, r, serr.status, serr.code, serr.msg)
		return
	}
	v := s.answerVariant()
	build := v.decorate(map[string]any{"id": v.idValue(b.id)}, "build",
		map[string]any{"status": "pending", "docId": v.idValue(b.doc.ID), "setLive": setLive})
	writeJSON(w, r, v, v.ReleaseStatus, v.decorate(map[string]any{"build": build}, "top",
		map[string]any{"status": "pending", "docId": v.idValue(b.doc.ID)}))
}

func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	s.mu.Lock()
	b := s.builds[id]
	var state, failure string
	var zip []byte
	if b != nil {
		state, failure, zip = b.state, b.failure, b.zip
	}
	s.mu.Unlock()
	v := s.answerVariant()
	switch {
	case b == nil:
		s.fail(w, r, http.StatusNotFound, 1404, fmt.Sprintf("build %s not found", id))
	case state == statePending:
		w.Header().Set("Retry-After", "1")
		switch v.NotReady {
		case NotReady404:
			s.fail(w, r, http.StatusNotFound, 1409, fmt.Sprintf("build %s is not built yet", id))
		case NotReady200:
			writeJSON(w, r, v, http.StatusOK, v.decorate(map[string]any{"message": "building"}, "top", map[string]any{"status": "building"}))
		case NotReady409:
			s.fail(w, r, http.StatusConflict, 1409, fmt.Sprintf("build %s is still running", id))
		case NotReady503:
			s.fail(w, r, http.StatusServiceUnavailable, 1503, fmt.Sprintf("build %s is queued", id))
		default:
			build := v.decorate(map[string]any{"id": v.idValue(id)}, "build", map[string]any{"status": "building"})
			writeJSON(w, r, v, http.StatusAccepted, v.decorate(map[string]any{"build": build}, "top", map[string]any{"status": "building"}))
		}
	case state == stateFailed && v.Failure == Failure200:
		writeJSON(w, r, v, http.StatusOK, v.decorate(map[string]any{"message": "build failed: " + failure}, "top", map[string]any{"status": "failed"}))
	case state == stateFailed && v.Failure == FailureOpaque:
		writeJSON(w, r, v, http.StatusOK, map[string]any{"outcome": map[string]any{"result": "broken", "log": "build failed: " + failure}})
	case state == stateFailed:
		s.fail(w, r, http.StatusUnprocessableEntity, 1422, "build failed: "+failure)
	default:
		serveZip(w, v.Zip, id, zip)
	}
}

// serveZip serves a built zip in style.
func serveZip(w http.ResponseWriter, style ZipStyle, id string, zip []byte) {
	// The file name as RFC 6266 allows: quoted, or encoded where the id is
	// not ASCII.
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": "build-" + id + ".zip"})
	if style == ZipSized {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", disposition)
		w.Header().Set("Content-Length", fmt.Sprint(len(zip)))
		w.Write(zip)
		return
	}
	// Streamed: no Content-Length, written in pieces, so the answer is
	// chunked.
	w.Header().Set("Content-Type", "application/octet-stream")
	if style == ZipStream {
		w.Header().Set("Content-Disposition", disposition)
	}
	rc := http.NewResponseController(w)
	for len(zip) > 0 {
		n := min(len(zip), 1024)
		if _, err := w.Write(zip[:n]); err != nil {
			return
		}
		rc.Flush()
		zip = zip[n:]
	}
}

// unknownRoute answers a path the service does not have.
func (s *Server) unknownRoute(w http.ResponseWriter, r *http.Request) {
	v := s.answerVariant()
	if v.UnknownRoute == RouteJSON {
		writeJSON(w, r, v, http.StatusNotFound, map[string]any{"status": 404, "error": "Not Found", "path": r.URL.Path})
		return
	}
	http.NotFound(w, r)
}
