package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// parseJSON is the fast path: most large descriptions are JSON, and a token
// decoder reads them several times faster than a YAML parser would.
func parseJSON(src *Source, data []byte) (*Node, error) {
	p := jsonParser{dec: jsontext.NewDecoder(bytes.NewReader(data)), data: data, name: src.Name, src: src, maxDepth: src.budget.lim.Depth}
	root, err := p.value(0)
	if err != nil {
		return nil, trailingComma(data, p.wrap(err))
	}
	if _, err := p.dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("more than one JSON value in the file")
		}
		return nil, p.wrap(err)
	}
	return root, nil
}

type jsonParser struct {
	dec      *jsontext.Decoder
	data     []byte // the input: strings without escapes point into it
	name     string
	src      *Source
	nodes    slab
	maxDepth int
	// The cursor: values come in increasing offsets, so lines are counted
	// on from the last, with no index of them all.
	at, lineStart int64
	line          int32
	fields        []Field // the members of the objects open, each object's sized once at its end
	items         []*Node
}

// posAt is the position of off, which is not before the last asked for.
func (p *jsonParser) posAt(off int64) Pos {
	if off > p.at {
		seg := p.data[p.at:min(off, int64(len(p.data)))]
		if n := bytes.Count(seg, newline); n > 0 {
			p.line += int32(n)
			p.lineStart = p.at + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
		p.at = off
	}
	return Pos{Line: p.line + 1, Col: int32(off-p.lineStart) + 1}
}

// posOf is the position of any offset of data, for an error.
func posOf(data []byte, off int64) Pos {
	off = max(0, min(off, int64(len(data))))
	start := int64(bytes.LastIndexByte(data[:off], '\n')) + 1
	return Pos{Line: int32(bytes.Count(data[:off], newline)) + 1, Col: int32(off-start) + 1}
}

// text is the text of a string token, raw as the decoder gave it and ending
// at end in data: the input itself where it holds no escape.
func (p *jsonParser) text(raw []byte, end int64) (string, error) {
	if bytes.IndexByte(raw, '\\') < 0 {
		if len(raw) == 2 {
			return "", nil
		}
		return unsafe.String(&p.data[end-int64(len(raw))+1], len(raw)-2), nil
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	return string(b), err
}

// stop is the error for work stopped at pos: a limit, or the context.
func (p *jsonParser) stop(pos Pos, err error) error {
	if errors.Is(err, ErrLimit) {
		return &LoadError{File: p.name, Pos: pos, Msg: err.Error(), Err: err}
	}
	return err
}

func (p *jsonParser) wrap(err error) error {
	var le *LoadError
	if errors.As(err, &le) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		msg := se.Err.Error()
		switch {
		case errors.Is(err, jsontext.ErrDuplicateName):
			msg = fmt.Sprintf("duplicate key %q", se.JSONPointer.LastToken())
		case errors.Is(se.Err, io.ErrUnexpectedEOF):
			msg = "the file ends before the JSON does"
		}
		return &LoadError{File: p.name, Pos: posOf(p.data, se.ByteOffset), Msg: "invalid JSON: " + msg, Err: se}
	}
	return &LoadError{File: p.name, Pos: posOf(p.data, p.dec.InputOffset()), Msg: "invalid JSON: " + err.Error()}
}

// start returns the position of the next token (after whitespace and the
// separator the decoder has not consumed yet). Peeking first brings the
// token into the decoder's buffer, with all that comes before it: the
// buffer may end anywhere.
func (p *jsonParser) start() Pos {
	p.dec.PeekKind()
	off := p.dec.InputOffset()
	unread := p.dec.UnreadBuffer()
	for _, c := range unread {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ',' && c != ':' {
			break
		}
		off++
	}
	return p.posAt(off)
}

// scalar reads the scalar that comes next, at depth: its kind, its text
// and its place.
func (p *jsonParser) scalar(depth int) (Kind, string, Pos, error) {
	pos, err := p.begin(depth)
	if err != nil {
		return 0, "", pos, err
	}
	raw, err := p.dec.ReadValue()
	if err != nil {
		return 0, "", pos, err
	}
	switch raw[0] {
	case 'n':
		return Null, "null", pos, nil
	case 't':
		return Bool, "true", pos, nil
	case 'f':
		return Bool, "false", pos, nil
	case '"':
		text, err := p.text(raw, p.dec.InputOffset())
		return String, text, pos, err
	}
	lit := string(raw)
	// Only a long literal or one with an exponent can be out of range.
	if len(lit) > 300 || strings.ContainsAny(lit, "eE") {
		if err := checkRange(lit, lit); err != nil {
			return 0, "", pos, &LoadError{File: p.name, Pos: pos, Msg: err.Error()}
		}
	}
	return Number, lit, pos, nil
}

// begin is the place of the value that comes next, at depth, counted
// against the limits.
func (p *jsonParser) begin(depth int) (Pos, error) {
	pos := p.start()
	if depth > p.maxDepth {
		return pos, &LoadError{File: p.name, Pos: pos, Msg: fmt.Sprintf("nests deeper than %d levels (the limit of docs-publish): refer to shared components rather than nesting", p.maxDepth), Err: ErrLimit}
	}
	if err := p.src.budget.value(); err != nil {
		return pos, p.stop(pos, err)
	}
	return pos, nil
}

// isScalar says whether a value of kind k (as the decoder peeks it) is a
// scalar.
func isScalar(k jsontext.Kind) bool {
	return k == '"' || k == '0' || k == 'n' || k == 't' || k == 'f'
}

func (p *jsonParser) value(depth int) (*Node, error) {
	if isScalar(p.dec.PeekKind()) {
		k, lit, pos, err := p.scalar(depth)
		if err != nil {
			return nil, err
		}
		n := p.nodes.node()
		n.Kind, n.Pos, n.Src = k, pos, p.src
		n.SetScalar(lit)
		return n, nil
	}
	pos, err := p.begin(depth)
	if err != nil {
		return nil, err
	}
	n := p.nodes.node()
	n.Pos, n.Src = pos, p.src
	switch p.dec.PeekKind() {
	case '{':
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
		n.Kind = Object
		mark := len(p.fields)
		for p.dec.PeekKind() != '}' {
			kpos := p.start()
			raw, err := p.dec.ReadValue()
			if err != nil {
				return nil, err
			}
			if raw[0] != '"' {
				return nil, errors.New("an object key must be a string")
			}
			key, err := p.text(raw, p.dec.InputOffset())
			if err != nil {
				return nil, err
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			p.fields = append(p.fields, Field{Key: key, KeyPos: kpos, Value: v})
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
		if len(p.fields) > mark {
			n.SetFields(slices.Clone(p.fields[mark:]))
		}
		clear(p.fields[mark:])
		p.fields = p.fields[:mark]
	case '[':
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
		n.Kind = Array
		mark := len(p.items)
		// A long list of scalars is held packed (pack.go), as YAML's is:
		// once packFrom items are all scalars, the others go into the
		// packed form as they are read, until one is not a scalar.
		var pk *packer
		for p.dec.PeekKind() != ']' {
			if pk == nil && len(p.items)-mark == packFrom && allScalars(p.items[mark:]) {
				pk = &packer{}
				pk.startAt(n.Pos)
				for _, it := range p.items[mark:] {
					pk.add(it.Kind, it.Scalar(), it.Pos)
				}
				clear(p.items[mark:])
				p.items = p.items[:mark]
			}
			if pk != nil {
				if isScalar(p.dec.PeekKind()) {
					k, lit, pos, err := p.scalar(depth + 1)
					if err != nil {
						return nil, err
					}
					pk.add(k, lit, pos)
					continue
				}
				pk.done(n)
				pk = nil
				p.items = append(p.items, n.Elems()...)
				n.SetItems(nil)
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			p.items = append(p.items, v)
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
		if pk != nil {
			pk.done(n)
			break
		}
		if len(p.items) > mark {
			n.SetItems(slices.Clone(p.items[mark:]))
		}
		clear(p.items[mark:])
		p.items = p.items[:mark]
	default:
		_, err := p.dec.ReadToken()
		if err == nil {
			err = errors.New("unexpected token")
		}
		return nil, err
	}
	return n, nil
}

// allScalars says whether every one of ns is a scalar.
func allScalars(ns []*Node) bool {
	for _, n := range ns {
		if n.Kind == Object || n.Kind == Array {
			return false
		}
	}
	return true
}

// trailingComma names the most common JSON mistake for what it is: a comma
// before a closing } or ], which JSON does not allow (JavaScript and YAML
// do). The decoder reports it as an unexpected character.
func trailingComma(data []byte, err error) error {
	var le *LoadError
	if !errors.As(err, &le) || le.Pos.Line == 0 {
		return err
	}
	// The decoder reports the error at the comma: a trailing one if what
	// follows it, past blanks, closes an object or an array.
	off := lineStart(data, int(le.Pos.Line)) + int(le.Pos.Col) - 1
	if off < 0 || off >= len(data) || data[off] != ',' {
		return err
	}
	i := off + 1
	for i < len(data) && strings.IndexByte(" \t\r\n", data[i]) >= 0 {
		i++
	}
	if i == len(data) || data[i] != '}' && data[i] != ']' {
		return err
	}
	return &LoadError{File: le.File, Pos: posOf(data, int64(off)), Msg: "invalid JSON: a trailing comma before a closing } or ]: JSON allows none, remove it"}
}

// lineStart is the offset at which 1-based line n of data starts.
func lineStart(data []byte, n int) int {
	off := 0
	for ; n > 1; n-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}
