package docsapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/namerule"
)

// The service interface promises two fields of its answers: docs[].id in
// the docs list and build.id in the release answer. Those are read strictly.
// Every other field may be absent or have any shape a real service gives it:
// it is read leniently, as a string where a string is found, and otherwise
// ignored, never an error.

// fields is a JSON object read with exact key matching (encoding/json would
// match struct fields case-insensitively).
type fields map[string]json.RawMessage

// objectOf reads raw as a JSON object; ok is false for any other value.
func objectOf(raw []byte) (fields, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m fields
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	return m, true
}

// text returns the field as a string when it is one, else "".
func (m fields) text(key string) string {
	var s string
	if raw, ok := m[key]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// shown renders any JSON value for a message: a string as itself, a number
// or boolean as its literal, an object or array as compact JSON, null as "".
func shown(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return ""
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

// ShapeError is a success answer that lacks what the interface promises.
type ShapeError struct {
	What   string // what was missing or malformed: "docs", "build.id"
	Answer string // the start of the answer, token scrubbed
	Err    error  // the cause, if any: an *IDError
}

func (e *ShapeError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("service answered without a usable %s (%v): %s", e.What, e.Err, e.Answer)
	}
	return fmt.Sprintf("service answered without a usable %s: %s", e.What, e.Answer)
}

func (e *ShapeError) Unwrap() error { return e.Err }

// MaxID bounds an identifier's length, in characters.
const MaxID = 128

// IDError is an identifier that cannot be used: not a JSON string or
// number, or text that CheckID refuses.
type IDError struct {
	Field  string // where the service wrote it: "docs[2].id", "build.id"; "" for an input
	Reason string // what is wrong with it, without the text itself
}

func (e *IDError) Error() string {
	if e.Field == "" {
		return "the id is " + e.Reason
	}
	return e.Field + " is " + e.Reason
}

// CheckID checks the text of an identifier: valid UTF-8, 1 to 128
// characters, and no character that could change how a log line, an
// output or a file name reads (C0 and C1 controls, DEL, the line and
// paragraph separators, bidirectional controls). Anything else (a slash, a
// space, '=', letters of any script) is an id like any other.
func CheckID(s string) error {
	if e := checkID(s); e != nil {
		return e
	}
	return nil
}

func checkID(s string) *IDError {
	switch {
	case s == "":
		return &IDError{Reason: "an empty string"}
	case !utf8.ValidString(s):
		return &IDError{Reason: "not valid UTF-8"}
	case utf8.RuneCountInString(s) > MaxID:
		return &IDError{Reason: fmt.Sprintf("longer than %d characters", MaxID)}
	}
	if err := namerule.CheckText(s); err != nil {
		return &IDError{Reason: err.Error()}
	}
	return nil
}

// parseID reads an identifier the service wrote at field: a JSON string or
// number, kept exactly as written (a number keeps its literal, so 2^53+1 is
// not rounded), whose text CheckID accepts.
func parseID(raw json.RawMessage, field string) (ID, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", &IDError{Field: field, Reason: "a malformed string"}
		}
		if !utf8.Valid(raw) || lostSurrogate(raw, s) {
			// encoding/json would have replaced what it could not read:
			// the id would not be the one the service wrote.
			return "", &IDError{Field: field, Reason: "not valid UTF-8"}
		}
		if e := checkID(s); e != nil {
			e.Field = field
			return "", e
		}
		return ID(s), nil
	}
	var n json.Number
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') && json.Unmarshal(raw, &n) == nil {
		if len(n) > MaxID {
			return "", &IDError{Field: field, Reason: fmt.Sprintf("a number of %d digits, longer than an id may be (%d)", len(n), MaxID)}
		}
		return ID(n.String()), nil
	}
	if len(raw) == 0 {
		return "", &IDError{Field: field, Reason: "missing"}
	}
	return "", &IDError{Field: field, Reason: kindOf(raw) + ", neither a string nor a number"}
}

// lostSurrogate reports whether decoding replaced an escaped lone surrogate
// (such as \ud800) by U+FFFD: s holds U+FFFD that raw does not spell.
func lostSurrogate(raw []byte, s string) bool {
	if !strings.ContainsRune(s, utf8.RuneError) {
		return false
	}
	lower := bytes.ToLower(raw)
	return strings.Count(s, string(utf8.RuneError)) != bytes.Count(raw, []byte(string(utf8.RuneError)))+bytes.Count(lower, []byte(`\ufffd`))
}

func kindOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// parseDocs reads the docs list answer: an object with an array docs whose
// elements each have an id. An element without a usable id does not fail
// the list: it is kept with its IDErr, and refused only if it is the doc a
// run would use.
func parseDocs(data []byte, answer string) ([]Doc, error) {
	top, ok := objectOf(data)
	if !ok {
		return nil, &ShapeError{What: "docs array (the answer is not a JSON object)", Answer: answer}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(top["docs"], &items); err != nil || items == nil {
		return nil, &ShapeError{What: "docs array", Answer: answer}
	}
	docs := make([]Doc, 0, len(items))
	for i, it := range items {
		m, ok := objectOf(it)
		if !ok {
			docs = append(docs, Doc{IDErr: &IDError{Field: fmt.Sprintf("docs[%d]", i), Reason: kindOf(bytes.TrimSpace(it)) + ", not an object with an id"}})
			continue
		}
		d := Doc{}
		d.ID, d.IDErr = parseID(m["id"], fmt.Sprintf("docs[%d].id", i))
		d.Domain, d.URL = domainOf(m["domain"])
		if d.Domain == "" {
			d.Name = m.text("name")
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// hostName is a DNS name, with an optional port. Compiled when first
// used: its counted repeats made it some 0.3 ms of every run's start, a
// dry run's included, which never reads an answer.
var hostName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::[0-9]{1,5})?$`)
})

// domainOf reads a doc's domain when the service gives one: a host name, a
// URL, or an object with a name or url. Anything else is no domain.
func domainOf(raw json.RawMessage) (domain, docsURL string) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return hostOrURL(s)
	}
	m, ok := objectOf(raw)
	if !ok {
		return "", ""
	}
	if d, u := hostOrURL(m.text("url")); u != "" {
		return d, u
	}
	return hostOrURL(m.text("name"))
}

func hostOrURL(s string) (domain, docsURL string) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || !hostName().MatchString(u.Host) || u.User != nil {
			return "", ""
		}
		if u.Path == "" {
			u.Path = "/"
		}
		u.RawQuery, u.Fragment = "", ""
		return u.Host, u.String()
	}
	if len(s) > 253 || !hostName().MatchString(s) || !strings.Contains(s, ".") && !strings.HasPrefix(s, "localhost") {
		return "", ""
	}
	return s, "https://" + s + "/"
}

// parseBuild reads the release answer: build.id strictly, the rest as found.
func parseBuild(data []byte, answer string) (Build, error) {
	top, ok := objectOf(data)
	if !ok {
		return Build{}, &ShapeError{What: "build.id (the answer is not a JSON object)", Answer: answer}
	}
	b, ok := objectOf(top["build"])
	if !ok {
		return Build{}, &ShapeError{What: "build object", Answer: answer}
	}
	id, err := parseID(b["id"], "build.id")
	if err != nil {
		return Build{}, &ShapeError{What: "build.id", Answer: answer, Err: err}
	}
	out := Build{ID: id, Status: b.text("status"), DocID: textID(b["docId"])}
	if out.Status == "" {
		out.Status = top.text("status")
	}
	if out.DocID == "" {
		out.DocID = textID(top["docId"])
	}
	return out, nil
}

// textID reads an identifier that is not promised: as parseID, or "".
func textID(raw json.RawMessage) ID {
	id, err := parseID(raw, "")
	if err != nil {
		return ""
	}
	return id
}

// failureOf reads an answer of the download endpoint that is not a zip for
// a sign that the build failed: a status (a string, or an object's code or
// state) that says so. It returns the service's message: "" when the answer
// does not say the build failed, or says so without a reason.
func failureOf(data []byte) (failed bool, msg string) {
	m, ok := objectOf(data)
	if !ok {
		return false, ""
	}
	for _, scope := range []fields{m, objectOrNil(m["build"])} {
		if scope == nil {
			continue
		}
		msg = ""
		state := scope.text("status")
		if state == "" {
			if st, ok := objectOf(scope["status"]); ok {
				state = st.text("code")
				if state == "" {
					state = st.text("state")
				}
				if msg == "" {
					msg = st.text("message")
				}
			}
		}
		if state == "" {
			state = scope.text("state")
		}
		switch strings.ToLower(state) {
		case "failed", "failure", "error", "errored":
			if msg == "" {
				msg = firstText(scope, "error_message", "message", "error")
			}
			return true, msg
		}
	}
	return false, ""
}

func objectOrNil(raw json.RawMessage) fields {
	m, _ := objectOf(raw)
	return m
}
