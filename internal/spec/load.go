package spec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SyntaxError is a description that cannot be read, with where it went wrong.
type SyntaxError struct {
	File string
	Pos  Pos // zero when the parser gave no position
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Load reads the description at path. name is how the file is called in
// messages (a path relative to the workspace).
func Load(path, name string) (*Node, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist: check the file input (it is relative to the workspace) and that the file is checked out or generated before this step", name)
		}
		return nil, err
	}
	root, err := parseAny(&Source{Name: name, Path: path}, data)
	if err != nil {
		return nil, err
	}
	return root, checkDescription(name, root)
}

// Parse reads a description from data.
func Parse(name string, data []byte) (*Node, error) {
	root, err := parseAny(&Source{Name: name, Path: name}, data)
	if err != nil {
		return nil, err
	}
	return root, checkDescription(name, root)
}

// parseAny reads any YAML or JSON value: a description or a file of shared
// components it refers to. A document that starts with { or [ takes the JSON
// path; anything else, or JSON-looking YAML that is not valid JSON in a file
// not named .json, is read as YAML.
func parseAny(src *Source, data []byte) (*Node, error) {
	name := src.Name
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM is not content
	var root *Node
	var err error
	if looksLikeJSON(data) {
		root, err = parseJSON(src, data)
		if err != nil && !strings.EqualFold(filepath.Ext(name), ".json") {
			if yroot, yerr := parseYAML(src, data); yerr == nil {
				root, err = yroot, nil
			}
		}
	} else {
		root, err = parseYAML(src, data)
	}
	return root, err
}

// checkDescription insists on a mapping with a swagger or openapi key.
func checkDescription(name string, root *Node) error {
	if root.Kind != Object {
		return &SyntaxError{File: name, Pos: root.Pos, Msg: fmt.Sprintf("is neither a YAML nor a JSON API description: its top level is a %s, not a mapping with a swagger: or openapi: key", root.Kind)}
	}
	if root.Get("swagger") == nil && root.Get("openapi") == nil {
		return &SyntaxError{File: name, Pos: root.Pos, Msg: "has no swagger: or openapi: key at its top level: point the file input at a Swagger 2.0 or OpenAPI 3.x description"}
	}
	return nil
}

func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// lineIndex turns byte offsets into line and column.
type lineIndex []int // offsets at which lines start

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return idx
		}
		off += i + 1
		idx = append(idx, off)
	}
}

func (idx lineIndex) pos(off int64) Pos {
	lo, hi := 0, len(idx)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if int64(idx[mid]) <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{Line: int32(lo + 1), Col: int32(off-int64(idx[lo])) + 1}
}
