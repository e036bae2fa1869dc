package openapi

import (
	"bytes"
	"regexp"
	"strconv"
)

// The YAML library refuses a block scalar whose first line starts, after
// its indentation, with a tab ("a: |" then "  \tcode"): it takes the tab
// for indentation. YAML reads the tab as text, and so does the service. As
// the library reads a tab after an explicit indentation indicator ("a: |2")
// as text, indentTabbedBlock writes the indicator the author could have
// written, at the block scalar the library names, and the parse is tried
// again. It is the same document: the indicator says what YAML would have
// found out from the first line.

// tabInIndent is the library's message for such a block scalar.
const tabInIndent = "found a tab character where an indentation space is expected"

// maxTabRetryBytes bounds the text parsed again, block scalar after block
// scalar, for one file.
const maxTabRetryBytes = 64 << 20

// blockHeader is a line that ends in a block scalar's indicator without an
// indentation indicator, in the forms whose enclosing collection starts on
// that line: "key: |", "- |", "- key: >-", "&a key: !t |+ # comment".
// Its groups: the dashes, the key, and the indicator.
var blockHeader = regexp.MustCompile(`^ *` +
	`((?:- +)*)` + // sequence entries
	`((?:[&!]\S* +)*(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^-?:,\[\]{}#&*!|>'"%@` + "`" + ` ][^#]*?) *: +)?` + // a key
	`(?:[&!]\S* +)*` + // the value's anchor and tag
	`([|>][+-]?)` + // the indicator, and its chomping
	`(?: +#.*)?$`)

// indentTabbedBlock returns data with an indentation indicator written
// for the block scalar the library reported at line (1-based: its header,
// or the line of the tab when the header is on the first line), or false
// when it cannot tell which indicator YAML would have found.
func indentTabbedBlock(data []byte, line int) ([]byte, bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return nil, false
	}
	header := line - 1
	if !blockHeader.Match(trimEOL(lines[header])) {
		// The header is the line before the tab's, blank lines between.
		for header--; header >= 0 && len(bytes.TrimSpace(lines[header])) == 0; header-- {
		}
		if header < 0 || !blockHeader.Match(trimEOL(lines[header])) {
			return nil, false
		}
	}
	m := blockHeader.FindSubmatchIndex(trimEOL(lines[header]))
	// The enclosing collection starts at the line's key, or at its last
	// dash: the indicator counts from there.
	parent := -1
	switch {
	case m[4] >= 0: // the key's mapping
		parent = m[4]
	case m[3] > m[2]: // the last entry's sequence
		parent = bytes.LastIndexByte(lines[header][:m[3]], '-')
	default:
		return nil, false
	}
	// The first line with content: its spaces are the indentation.
	first := header + 1
	for first < len(lines) && len(bytes.Trim(lines[first], " \r\n")) == 0 {
		first++
	}
	if first == len(lines) {
		return nil, false
	}
	spaces := len(lines[first]) - len(bytes.TrimLeft(lines[first], " "))
	if lines[first][spaces] != '\t' {
		return nil, false
	}
	step := spaces - parent
	if step < 1 || step > 9 {
		return nil, false
	}
	end := m[7] // after the indicator and its chomping
	h := lines[header]
	fixed := make([]byte, 0, len(data)+1)
	for _, l := range lines[:header] {
		fixed = append(fixed, l...)
	}
	fixed = append(fixed, h[:end]...)
	fixed = append(fixed, strconv.Itoa(step)...)
	fixed = append(fixed, h[end:]...)
	for _, l := range lines[header+1:] {
		fixed = append(fixed, l...)
	}
	return fixed, true
}

func trimEOL(l []byte) []byte {
	return bytes.TrimRight(l, "\r\n")
}
