package openapi

import (
	"bytes"
	"strings"
)

// Where a block collection breaks. For a line indented wrongly inside a
// block mapping or sequence, the YAML library names the line where the
// collection starts (its error's context), not the line that breaks it (its
// problem), and keeps the problem's place to itself: a mis-indented key on
// line 256 of a mapping that starts at line 5 is reported at line 5. The
// line that breaks it is found again by parsing the text up to a line: the
// first line whose text up to it fails with the same error, where the text
// before it parses, is that line.

// blockProblems are the library's errors that name the start of the
// collection rather than the line that breaks it.
var blockProblems = map[string]bool{
	"did not find expected key":           true, // in a block mapping
	"did not find expected '-' indicator": true, // in a block sequence
}

// maxLineSearchBytes bounds the text parsed again to find the line.
const maxLineSearchBytes = 32 << 20

// breakingLine returns the line, from line from on (1-based), that breaks a
// block collection where data fails with the library's error msg, and its
// first column that is not a space. It returns false when msg is not such
// an error, when the search would parse too much, or when the line found is
// not certain: then the library's line stays.
func breakingLine(data []byte, from int, msg string) (line, col int, ok bool) {
	if !blockProblems[msg] {
		return 0, 0, false
	}
	ends := lineEnds(data)
	if from < 1 || from > len(ends) {
		return 0, 0, false
	}
	budget := maxLineSearchBytes
	// parse parses the text up to line k; ok is false past the budget.
	parse := func(k int) (err error, ok bool) {
		text := data[:ends[k-1]]
		if budget -= len(text); budget < 0 {
			return nil, false
		}
		_, _, err = decodeDocument(text)
		return err, true
	}
	// fails reports whether the text up to line k fails with msg.
	fails := func(k int) (bool, bool) {
		err, ok := parse(k)
		if !ok || err == nil {
			return false, ok
		}
		return problem(err) == msg, true
	}
	// certain says whether line k is the line: the text up to it fails so,
	// and the text before it parses.
	certain := func(k int) bool {
		if f, ok := fails(k); !ok || !f {
			return false
		}
		if k == 1 {
			return true
		}
		err, ok := parse(k - 1)
		return ok && err == nil
	}
	at := 0
	// First the line whose indentation matches no open level: the usual
	// cause, found without parsing, so a large file is parsed twice only.
	if k := unevenLine(data, ends, from); k > 0 && certain(k) {
		at = k
	} else {
		// Else the smallest k whose text up to it fails so: the whole
		// text does.
		lo, hi := from, len(ends)
		for lo < hi {
			mid := lo + (hi-lo)/2
			f, ok := fails(mid)
			if !ok {
				return 0, 0, false
			}
			if f {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		if !certain(lo) {
			return 0, 0, false
		}
		at = lo
	}
	start := 0
	if at > 1 {
		start = ends[at-2]
	}
	col = 1
	for i := start; i < len(data) && data[i] == ' '; i++ {
		col++
	}
	return at, col, true
}

// lineEnds are the offsets just past each line of data, its newline
// included.
func lineEnds(data []byte) []int {
	var ends []int
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			ends = append(ends, len(data))
			break
		}
		off += i + 1
		ends = append(ends, off)
	}
	return ends
}

// unevenLine is the first line from line from on whose indentation, less
// than the line's before it, is none of the levels open there: a key or an
// item indented between two levels. Block scalars' text, blank lines and
// comments are skipped. It returns 0 when there is none. It reads
// indentation only, so what it finds is a guess to be checked by parsing.
func unevenLine(data []byte, ends []int, from int) int {
	var open []int // indentation of the levels open, innermost last
	scalar := -1   // inside a block scalar: the indentation of its key
	start := 0
	for k, end := range ends {
		line := data[start:end]
		start = end
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		body := bytes.TrimRight(line[indent:], " \t\r\n")
		if len(body) == 0 || body[0] == '#' {
			continue
		}
		if scalar >= 0 && indent > scalar {
			continue
		}
		scalar = -1
		popped := false
		for len(open) > 0 && open[len(open)-1] > indent {
			open, popped = open[:len(open)-1], true
		}
		if popped && (len(open) == 0 || open[len(open)-1] < indent) && k+1 >= from {
			return k + 1
		}
		if len(open) == 0 || open[len(open)-1] < indent {
			open = append(open, indent)
		}
		// An item's content opens a level of its own: "- name: a".
		for len(body) > 1 && body[0] == '-' && body[1] == ' ' {
			i := 1
			for i < len(body) && body[i] == ' ' {
				i++
			}
			indent += i
			body = body[i:]
			open = append(open, indent)
		}
		if blockScalarStart(body) || scalarValue(body) {
			scalar = indent
		}
	}
	return 0
}

// scalarValue reports whether a line's text (without its indentation and
// item dashes) holds a scalar that is not a block scalar, "key: value" or
// a lone "value": the lines below it indented deeper continue the scalar
// (a plain one's text, a quoted or flow one's) and open no level.
func scalarValue(body []byte) bool {
	if i := bytes.Index(body, []byte(": ")); i >= 0 {
		body = body[i+2:]
	} else if len(body) == 0 || body[len(body)-1] == ':' {
		return false
	}
	for {
		body = bytes.TrimLeft(body, " ")
		if len(body) == 0 || body[0] == '#' {
			return false
		}
		if body[0] != '&' && body[0] != '!' {
			return true
		}
		// An anchor or a tag: the value is what follows it.
		i := bytes.IndexByte(body, ' ')
		if i < 0 {
			return false
		}
		body = body[i:]
	}
}

// blockScalarStart reports whether a line's text (without its indentation)
// ends by starting a block scalar: "description: |", "- >-", "key: |2+".
func blockScalarStart(body []byte) bool {
	if i := bytes.Index(body, []byte(" #")); i >= 0 {
		body = bytes.TrimRight(body[:i], " ")
	}
	body = bytes.TrimRight(body, "+-0123456789")
	if len(body) == 0 || body[len(body)-1] != '|' && body[len(body)-1] != '>' {
		return false
	}
	return len(body) == 1 || body[len(body)-2] == ' '
}

// lineAdvice says what to check on line n, the line that breaks a block
// collection. Mostly its indentation is at fault; but where the line does
// not parse even on its own, its own text is: most often something after a
// closing quote or bracket ('it's', "a "b" c", [1] x), which the library
// reports with the same words.
func lineAdvice(data []byte, n int) string {
	start := lineStart(data, n)
	end := len(data)
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		end = start + i
	}
	if _, _, err := decodeDocument(bytes.TrimLeft(data[start:end], " ")); err != nil && blockProblems[problem(err)] {
		return `check the text after this line's closing quote or bracket: a value with quotes inside is written with '' for ' within '…', or \" for " within "…"`
	}
	return "check this line's indentation against the lines above it"
}

// problem is the library's words for what is wrong, without its line: the
// line is left out where it is the first.
func problem(err error) string {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
