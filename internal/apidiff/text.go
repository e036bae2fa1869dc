package apidiff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The library says where a change is by line and column in the text it
// read. It reads JSON without positions, and YAML with them; JSON is YAML,
// so each side is given as JSON behind a comment line (which JSON does not
// allow), each member and item on a line of its own. A line then names one
// place in the bundled document, a JSON pointer, which the caller maps to
// the file and line its author wrote it at.

// lines names the place each line of a text is about: line n's is
// tok[n] under the place of line parent[n]. Line 0 is no line.
type lines struct {
	parent []int32
	tok    []string
}

// pointer is the JSON pointer of what line n is about, and whether there is
// one.
func (l *lines) pointer(n int) (string, bool) {
	if l == nil || n < 1 || n >= len(l.parent) || l.parent[n] < 0 {
		return "", false
	}
	var toks []string
	for ; n > 0 && l.parent[n] >= 0; n = int(l.parent[n]) {
		if l.parent[n] == 0 { // the root
			break
		}
		toks = append(toks, l.tok[n])
	}
	var b strings.Builder
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(toks[i], "~", "~0"), "/", "~1"))
	}
	return b.String(), true
}

// writer writes a text.
type writer struct {
	buf   []byte
	lines lines
	// plain writes the values as they are, and no lines: a text read
	// without positions.
	plain bool
}

// commentLine starts a text that only a YAML reader takes.
const commentLine = "# docs-publish comparison"

func newWriter(yaml bool) *writer {
	w := &writer{lines: lines{parent: []int32{-1}, tok: []string{""}}, plain: !yaml}
	if yaml {
		// Line 1 is the comment, about nothing.
		w.buf = append(w.buf, commentLine...)
		w.lines.parent, w.lines.tok = append(w.lines.parent, -1), append(w.lines.tok, "")
	}
	return w
}

// newLine ends the line and starts one about tok under the place of line
// parent; it returns the new line's number.
func (w *writer) newLine(parent int32, tok string) int32 {
	if w.plain {
		return 0
	}
	if len(w.lines.parent) > 1 || w.buf != nil {
		w.buf = append(w.buf, '\n', ' ')
	}
	w.lines.parent = append(w.lines.parent, parent)
	w.lines.tok = append(w.lines.tok, tok)
	return int32(len(w.lines.parent) - 1)
}

// text writes d with only the units keep holds (all of them when keep is
// nil), and without the document-level parts drop names: as YAML reads it,
// with the places of its lines, or as it is, with no lines.
func (d *doc) text(keep map[unitKey]bool, drop map[string]bool, yaml bool) ([]byte, *lines, error) {
	w := newWriter(yaml)
	root := w.newLine(0, "")
	w.buf = append(w.buf, '{')
	first := true
	for _, m := range d.top {
		if drop[m.key] {
			continue
		}
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		line := w.key(root, m.key)
		var err error
		switch {
		case keep != nil && (m.key == "paths" || d.swagger && unitSections2[m.key]):
			err = w.section(line, d.sections[m.key], m.key, keep, d.verbatim, d.shapeOf(m.key))
		case keep != nil && m.key == "components" && !d.swagger:
			err = w.components(line, m.raw, keep, d.verbatim, drop)
		default:
			err = w.raw(line, m.raw)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	w.buf = append(w.buf, '}', '\n')
	if w.plain {
		return w.buf, nil, nil
	}
	return w.buf, &w.lines, nil
}

func (w *writer) key(parent int32, key string) int32 {
	line := w.newLine(parent, key)
	w.buf = appendString(w.buf, key)
	w.buf = append(w.buf, ':')
	return line
}

// section writes the kept members of a unit section.
func (w *writer) section(line int32, ms []member, sec string, keep, verbatim map[unitKey]bool, s shape) error {
	w.buf = append(w.buf, '{')
	first := true
	for _, m := range ms {
		if !keep[unitKey{sec, m.key}] {
			continue
		}
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		us := s
		if verbatim[unitKey{sec, m.key}] {
			us = asIs
		}
		if err := w.unit(w.key(line, m.key), m.raw, us); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, '}')
	return nil
}

// unit writes a unit of shape s without the fields no check reads
// (lean.go).
func (w *writer) unit(line int32, raw []byte, s shape) error {
	if s == asIs {
		return w.raw(line, raw)
	}
	if w.plain {
		w.buf = lean(w.buf, raw, s)
		return nil
	}
	return w.raw(line, lean(nil, raw, s))
}

// shapeOf is the shape of the units of a section: asIs in Swagger 2.0,
// which the library converts before it reads it.
func (d *doc) shapeOf(sec string) shape {
	if d.swagger {
		return asIs
	}
	return unitShapes[sec]
}

func (w *writer) components(line int32, raw []byte, keep, verbatim map[unitKey]bool, drop map[string]bool) error {
	comps, err := members(raw)
	if err != nil {
		return err
	}
	w.buf = append(w.buf, '{')
	first := true
	for _, c := range comps {
		if drop["components/"+c.key] {
			continue
		}
		if !first {
			w.buf = append(w.buf, ',')
		}
		first = false
		l := w.key(line, c.key)
		if !unitSections3[c.key] {
			err = w.raw(l, c.raw)
		} else if ms, err2 := members(c.raw); err2 != nil {
			err = err2
		} else {
			err = w.section(l, ms, "components/"+c.key, keep, verbatim, unitShapes["components/"+c.key])
		}
		if err != nil {
			return err
		}
	}
	w.buf = append(w.buf, '}')
	return nil
}

// raw writes a JSON value with each member and item on a line of its own,
// under the place of line.
func (w *writer) raw(line int32, raw []byte) error {
	if w.plain {
		w.buf = append(w.buf, raw...)
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true))
	if err := w.value(dec, line); err != nil {
		return err
	}
	return nil
}

func (w *writer) value(dec *jsontext.Decoder, line int32) error {
	switch dec.PeekKind() {
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		w.buf = append(w.buf, '{')
		for i := 0; dec.PeekKind() != '}'; i++ {
			k, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			if err := w.value(dec, w.key(line, k.String())); err != nil { // the key is written before the next read
				return err
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		w.buf = append(w.buf, '}')
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		w.buf = append(w.buf, '[')
		for i := 0; dec.PeekKind() != ']'; i++ {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			if err := w.value(dec, w.newLine(line, strconv.Itoa(i))); err != nil {
				return err
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		w.buf = append(w.buf, ']')
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		w.buf = appendString(w.buf, tok.String())
	case 0:
		_, err := dec.ReadToken()
		return err
	default:
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		w.buf = append(w.buf, v...)
	}
	return nil
}

// appendString quotes s as JSON that a YAML reader reads alike: every
// character YAML does not allow in its text, or takes for a line break, is
// escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			b = fmt.Appendf(b, `\u%04x`, r)
		case r == utf8.RuneError:
			b = append(b, `\ufffd`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
