package docsapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
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
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("service answered without a usable %s: %s", e.What, e.Answer)
}

// maxID bounds an identifier's length.
const maxID = 128

// plainID is what an identifier may hold: it goes into requests, outputs,
// log lines and a file name, so it may not hold anything that could change
// them (line breaks, slashes, quotes, spaces).
var plainID = regexp.MustCompile(`^[A-Za-z0-9._~:+-]+$`)

// parseID reads a promised identifier: a JSON string or number, kept exactly
// as written (a number keeps its literal, so 2^53+1 is not rounded), and
// plain: letters, digits and . _ ~ : + -, up to 128 of them.
func parseID(raw json.RawMessage) (ID, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s == "" {
			return "", errors.New("an empty or malformed string")
		}
		if len(s) > maxID || !plainID.MatchString(s) || s == "." || s == ".." {
			return "", fmt.Errorf("%q, not a plain identifier (letters, digits and . _ ~ : + -, up to %d)", shorten(s[:min(len(s), 40)]), maxID)
		}
		return ID(s), nil
	}
	var n json.Number
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') && json.Unmarshal(raw, &n) == nil {
		if len(n) > maxID {
			return "", fmt.Errorf("a number of %d digits, longer than an identifier may be (%d)", len(n), maxID)
		}
		return ID(n.String()), nil
	}
	if len(raw) == 0 {
		return "", errors.New("no value")
	}
	return "", fmt.Errorf("%s, neither a string nor a number", kindOf(raw))
}

func kindOf(raw json.RawMessage) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a value"
}

// parseDocs reads the docs list answer: an object with an array docs whose
// elements each have an id.
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
			return nil, &ShapeError{What: fmt.Sprintf("docs[%d] (not an object)", i), Answer: answer}
		}
		id, err := parseID(m["id"])
		if err != nil {
			return nil, &ShapeError{What: fmt.Sprintf("docs[%d].id (%v)", i, err), Answer: answer}
		}
		d := Doc{ID: id}
		d.Domain, d.URL = domainOf(m["domain"])
		if d.Domain == "" {
			d.Name = m.text("name")
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// hostName is a DNS name, with an optional port.
var hostName = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::[0-9]{1,5})?$`)

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
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || !hostName.MatchString(u.Host) || u.User != nil {
			return "", ""
		}
		if u.Path == "" {
			u.Path = "/"
		}
		u.RawQuery, u.Fragment = "", ""
		return u.Host, u.String()
	}
	if len(s) > 253 || !hostName.MatchString(s) || !strings.Contains(s, ".") && !strings.HasPrefix(s, "localhost") {
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
	id, err := parseID(b["id"])
	if err != nil {
		return Build{}, &ShapeError{What: fmt.Sprintf("build.id (%v)", err), Answer: answer}
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
	id, err := parseID(raw)
	if err != nil {
		return ""
	}
	return id
}

// failureOf reads an answer of the download endpoint that is not a zip for
// a sign that the build failed: a status (a string, or an object's code or
// state) that says so. It returns the service's message, or "" when the
// answer does not say the build failed.
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
			if msg == "" {
				msg = "the build's status is " + state
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
