package emulator

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

type project struct {
	id       string
	branches map[string]bool                     // nil: any branch
	files    map[string]map[string][]FileVersion // branch → name → versions
	last     map[fileKey]int                     // the latest version number, kept when versions are let go
	docs     []*doc
}

type fileKey struct{ branch, name string }

// storedVersion is a stored file version, for letting go of the oldest.
type storedVersion struct {
	project *project
	file    fileKey
	version int
	size    int64
}

type doc struct {
	Doc
	project *project
	live    string // id of the live build
}

const (
	statePending = "pending"
	stateDone    = "done"
	stateFailed  = "failed"
)

type build struct {
	id      string
	doc     *doc
	setLive bool
	state   string
	failure string
	zip     []byte
	timer   *time.Timer // renders the build when its delay is over
}

// FileVersion is one stored version of a file.
type FileVersion struct {
	Version       int
	Content       []byte // the JSON document as received
	CommitMessage string
	Commit        string
	Time          time.Time
}

// BuildInfo describes a build for tests and the demo.
type BuildInfo struct {
	ID      string
	DocID   string
	SetLive bool
	State   string // pending, done, failed
	Live    bool   // the doc's live build now
	Failure string
	Zip     []byte
}

// storeError is a refusal with its status and error code.
type storeError struct {
	status, code int
	msg          string
}

// storeFile stores content as the file's next version, which the caller
// hands over, and lets go of the oldest versions past Config.StoredBytes:
// it returns those let go.
func (s *Server) storeFile(projectID, branch, name string, content []byte, message string) (FileVersion, []storedVersion, *storeError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		return FileVersion{}, nil, &storeError{http.StatusNotFound, 1404, fmt.Sprintf("project %s not found", projectID)}
	}
	if p.branches != nil && !p.branches[branch] {
		return FileVersion{}, nil, &storeError{http.StatusNotFound, 1405, fmt.Sprintf("branch %s not found in project %s", branch, projectID)}
	}
	files := p.files[branch]
	if files == nil {
		files = map[string][]FileVersion{}
		p.files[branch] = files
	}
	key := fileKey{branch, name}
	h := sha1.New() // the content is hashed where it is, not copied into a string
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00", branch, name, p.last[key])
	h.Write(content)
	sum := h.Sum(nil)
	p.last[key]++
	v := FileVersion{
		Version: p.last[key], Content: content,
		CommitMessage: message, Commit: hex.EncodeToString(sum[:]), Time: time.Now().UTC(),
	}
	files[name] = append(files[name], v)
	s.stored = append(s.stored, storedVersion{project: p, file: key, version: v.Version, size: int64(len(content))})
	s.storedN += int64(len(content))
	return v, s.letGo(), nil
}

// letGo drops the oldest stored versions, all files together, while they
// hold more than Config.StoredBytes, keeping the newest. s.mu is held.
func (s *Server) letGo() []storedVersion {
	drop := 0
	for ; drop < len(s.stored)-1 && s.storedN > s.cfg.StoredBytes; drop++ {
		old := s.stored[drop]
		s.storedN -= old.size
		files := old.project.files[old.file.branch]
		files[old.file.name] = slices.DeleteFunc(files[old.file.name], func(v FileVersion) bool { return v.Version == old.version })
	}
	gone := slices.Clone(s.stored[:drop])
	s.stored = slices.Delete(s.stored, 0, drop)
	return gone
}

// startBuild records a build under d and renders it after the build delay,
// from the doc's file as it is at release time.
func (s *Server) startBuild(docID string, setLive bool) (*build, *storeError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[docID]
	if d == nil {
		return nil, &storeError{http.StatusNotFound, 1404, fmt.Sprintf("doc %s not found", docID)}
	}
	id := strconv.FormatUint(s.nextID, 10)
	if s.variant.IDs == IDOpaque || s.variant.IDs == IDText {
		id = styledID(id, "b-", s.variant.IDs) // big ids start above 2^53 instead
	}
	b := &build{id: id, doc: d, setLive: setLive, state: statePending}
	s.nextID++
	s.builds[b.id] = b
	var content []byte
	if vs := d.project.files[d.Branch][d.File]; len(vs) > 0 {
		content = vs[len(vs)-1].Content
	}
	s.wg.Add(1)
	b.timer = time.AfterFunc(s.cfg.BuildDelay, func() {
		defer s.wg.Done()
		var zip []byte
		var err error
		switch {
		case d.Fail != "":
			err = fmt.Errorf("doc %s: %s", d.ID, d.Fail)
		case content == nil:
			err = fmt.Errorf("doc %s renders %s on branch %s, which has no such file yet", d.ID, d.File, d.Branch)
		default:
			zip, err = renderSite(content)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			b.state, b.failure = stateFailed, err.Error()
			return
		}
		b.state, b.zip = stateDone, zip
		if b.setLive {
			d.live = b.id
		}
	})
	return b, nil
}

// Versions returns the stored versions of a file, oldest first.
func (s *Server) Versions(projectID, branch, name string) []FileVersion {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		return nil
	}
	return slices.Clone(p.files[branch][name])
}

// Builds returns every build, oldest first.
func (s *Server) Builds() []BuildInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []BuildInfo
	for _, b := range s.builds {
		out = append(out, BuildInfo{
			ID: b.id, DocID: b.doc.ID, SetLive: b.setLive, State: b.state,
			Live: b.doc.live == b.id, Failure: b.failure, Zip: b.zip,
		})
	}
	slices.SortFunc(out, func(a, b BuildInfo) int {
		return cmpNumeric(a.ID, b.ID)
	})
	return out
}

func cmpNumeric(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// Requests returns the requests seen so far (the latest 10,000), in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = *r
	}
	return out
}

// RequestsTo counts the requests seen (of the latest 10,000) whose path
// holds path, such as "/docs.release".
func (s *Server) RequestsTo(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if strings.Contains(r.Path, path) {
			n++
		}
	}
	return n
}
