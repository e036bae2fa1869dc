package openapi

import (
	"bytes"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
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
	_, msg := errorLine(err)
	return msg
}

// Where the library's other syntax errors are. Its errors carry a line
// only (for most parser errors the 0-based line of the error's context,
// for scanner errors the 1-based one) and no column. Two kinds are placed
// again here. An unclosed flow collection or quoted scalar is found by
// reading the text's brackets and quotes (openAtEnd), and kept only where
// the library's line agrees and the text before it parses. An error at one
// character (a ': ' where no value may start, a character no token starts
// with) is at the shortest prefix of the text that fails the same way: a
// search over the line's candidate characters, a few parses at most.

// flowProblems are the library's errors for a flow collection that is not
// closed (or holds what it cannot: then the place stays the library's).
var flowProblems = map[string]bool{
	"did not find expected ',' or ']'": true,
	"did not find expected ',' or '}'": true,
}

// charProblems are the library's errors at one character of a line, with
// the characters that may be at fault (all but spaces when empty) and what
// to do.
var charProblems = map[string]struct{ chars, advice string }{
	"mapping values are not allowed in this context": {":",
		`quote a value that holds ": " ("a: b"), or check this line's indentation against the lines above it`},
	"found character that cannot start any token": {"`@%",
		"quote the value: a plain value cannot start with this character"},
	"block sequence entries are not allowed in this context": {"-",
		`put the - item on a line of its own below its key, indented, or quote a value that starts with "- "`},
	"could not find expected ':'": {"",
		"write a key as key: value, or indent this line as part of the value above it"},
	"did not find expected node content": {",]}",
		"a value is missing before this character: remove the extra comma or bracket, or quote the value"},
	"found unknown escape character": {`\`,
		`within "…" a \ starts an escape: write \\ for a backslash, or quote the value with '…'`},
	"did not find expected alphabetic or numeric character": {"*&",
		"an alias (*name) or an anchor (&name) needs a name: add it, or quote the value"},
}

// parserProblems are the library's errors from its parser, not its
// scanner: their line is 0-based. (A scanner error's is 1-based.)
var parserProblems = map[string]bool{
	"did not find expected node content":     true,
	"did not find expected key":              true,
	"did not find expected '-' indicator":    true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected <document start>": true,
}

// errorAt is the 1-based line of the library's error msg at its line (0
// where it gave none) in data: a parser error's line is 0-based; and never
// past the text's last line (the library puts the end of the text on a
// line of its own, which a scanner error at the end names).
func errorAt(data []byte, line int, msg string) int {
	n := lineCount(data)
	if parserProblems[msg] && line+1 <= n {
		return line + 1
	}
	return max(min(line, n), 1)
}

// lineCount is the number of lines of data.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// errorLine is the line and problem of the library's error err; line is 0
// where the library gives none (its first line).
func errorLine(err error) (line int, msg string) {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, strings.TrimPrefix(err.Error(), "yaml: ")
}

// placeProblem finds where data fails with the library's error msg at its
// line (0 where it gave none), and says what to do. It returns false where
// it is not certain of the place: then the library's line stays. posAt is
// the position, as written, of an offset of data.
func placeProblem(data []byte, line int, msg string, posAt func(off int) Pos) (Pos, string, bool) {
	budget := maxLineSearchBytes
	// parse parses data[:n]; ok is false past the budget.
	parse := func(n int) (line int, msg string, failed, ok bool) {
		if budget -= n; budget < 0 {
			return 0, "", false, false
		}
		_, _, err := decodeDocument(data[:n])
		if err == nil {
			return 0, "", false, true
		}
		line, msg = errorLine(err)
		return line, msg, true, true
	}
	// parses says whether data[:n] parses.
	parses := func(n int) bool {
		_, _, failed, ok := parse(n)
		return ok && !failed
	}
	// unclosed is the flow collection left open, where the library's
	// error is about it: at says so of the bracket's place.
	unclosed := func(at func(Pos) bool) (Pos, string, bool) {
		flows, open, _ := openAtEnd(data)
		for _, off := range flows[open:] {
			p := posAt(off)
			if !at(p) {
				continue
			}
			if !parses(flows[0]) {
				break
			}
			open := string(data[off])
			return p, fmt.Sprintf("the %s at %s is not closed: close it with %s, or quote a value that holds brackets", open, p, closing(open)), true
		}
		return Pos{}, "", false
	}
	if flowProblems[msg] {
		// A parser error names the context's line, 0-based; on the
		// first line it names the problem's instead.
		return unclosed(func(p Pos) bool { return p.Line == 1 || int(p.Line) == line+1 })
	}
	if msg == "did not find expected node content" && line == lineCount(data) {
		// At the end of the text, which the library puts on a line of
		// its own, inside a flow collection: "a: [" and no more.
		if p, advice, ok := unclosed(func(Pos) bool { return true }); ok {
			return p, advice, ok
		}
	}
	if msg == "found unexpected end of stream" {
		if _, _, q := openAtEnd(data); q >= 0 {
			p := posAt(q)
			// A scanner error names the context's line, 1-based; on the
			// first line it names the problem's, one past it.
			if (p.Line == 1 || int(p.Line) == line) && parses(q) {
				advice := `end the value with ', and write a ' inside it as ''`
				if data[q] == '"' {
					advice = `end the value with ", and write a " inside it as \"`
				}
				return p, fmt.Sprintf("the quote %c at %s is not closed: %s", data[q], p, advice), true
			}
		}
		return Pos{}, "", false
	}
	if off, advice := badCharacter(data, msg); off >= 0 {
		return posAt(off), advice, true
	}
	cp, ok := charProblems[msg]
	if !ok {
		return Pos{}, "", false
	}
	at := errorAt(data, line, msg)
	lines := lineEnds(data)
	if at > len(lines) {
		return Pos{}, "", false
	}
	from, to := 0, len(data)
	if at > 1 {
		from = lines[at-2]
	}
	if at > 0 {
		to = lines[at-1]
	}
	var cands []int
	for i := from; i < to; i++ {
		c := data[i]
		if cp.chars == "" && c != ' ' && c != '\n' && c != '\r' || cp.chars != "" && strings.IndexByte(cp.chars, c) >= 0 && indicates(data, i) {
			cands = append(cands, i)
		}
	}
	// The search parses text up to line at some bits.Len(k)+1 times: not
	// begun where that passes the budget.
	if (bits.Len(uint(len(cands)))+1)*to > budget {
		return Pos{}, "", false
	}
	// same says whether data up to and with candidate k fails as data does.
	same := func(k int) (bool, bool) {
		l, m, failed, ok := parse(cands[k] + 1)
		return failed && l == line && m == msg, ok
	}
	lo, hi := 0, len(cands)
	for lo < hi {
		mid := lo + (hi-lo)/2
		f, ok := same(mid)
		if !ok {
			return Pos{}, "", false
		}
		if f {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo == len(cands) {
		return Pos{}, "", false
	}
	// Certain: up to the character the text fails so (the search found
	// it so), and not before it.
	l, m, failed, ok := parse(cands[lo])
	if !ok || failed && l == line && m == msg {
		return Pos{}, "", false
	}
	return posAt(cands[lo]), cp.advice, true
}

// indicates says whether the character at i can be the one a problem is
// about: a ':' or a '-' only as an indicator, before a blank or the end
// of a line. The text cut just after a ':' inside a word (https:,
// 10:30) reads as a key's ':' at its end and fails the same way.
func indicates(data []byte, i int) bool {
	if c := data[i]; c != ':' && c != '-' {
		return true
	}
	return i+1 == len(data) || strings.IndexByte(" \t\r\n", data[i+1]) >= 0
}

// closing is the bracket that closes open.
func closing(open string) string {
	if open == "{" {
		return "}"
	}
	return "]"
}

// openAtEnd reads data's flow collections and quoted scalars as the YAML
// library does, well enough to name what is left open: the offsets of the
// brackets that open the flow collections the text stops in (outermost
// first): at its end, or at a closing bracket that does not match, where
// only those from open on are left open (the closing bracket closes the
// one before); and the offset of a
// quoted scalar's quote that is not closed (-1 when there is none). Block
// scalars' text, comments and plain scalars (a bracket or quote inside a
// word) are passed over. What it finds is a guess to be checked.
func openAtEnd(data []byte) (flows []int, open, quote int) {
	var (
		start      = true // at the start of a token
		lineStart  = true
		indent     int
		block      = -1 // inside a block scalar: the indentation of its line
		plain      = -1 // a plain scalar may go on below a line so indented
		inPlain    bool
		afterSpace = true
	)
	for i := 0; i < len(data); i++ {
		if lineStart {
			j := i
			for j < len(data) && data[j] == ' ' {
				j++
			}
			indent, lineStart, afterSpace = j-i, false, true
			blank := j == len(data) || data[j] == '\n' || data[j] == '\r' || data[j] == '#'
			if block >= 0 && (blank || indent > block) {
				// Past the line break: the next line starts.
				i, lineStart = endOfLine(data, j), true
				continue
			}
			block = -1
			if len(flows) == 0 && !blank {
				if plain >= 0 && indent > plain {
					start = false
				} else {
					start, inPlain, plain = true, false, -1
				}
			}
			if i = j; i == len(data) {
				break
			}
		}
		c := data[i]
		flow := len(flows) > 0
		next := byte(' ')
		if i+1 < len(data) {
			next = data[i+1]
		}
		blankNext := next == ' ' || next == '\t' || next == '\n' || next == '\r'
		switch {
		case c == '\n':
			lineStart = true
			if !flow && inPlain && plain < 0 {
				plain = indent
			}
			continue
		case c == ' ' || c == '\t' || c == '\r':
			afterSpace = true
			continue
		case c == '#' && afterSpace:
			i = endOfLine(data, i) - 1
			inPlain = false
			continue
		case (c == '[' || c == '{') && (flow || start):
			flows = append(flows, i)
			start, inPlain = true, false
		case (c == ']' || c == '}') && flow:
			top := data[flows[len(flows)-1]]
			if top == '[' && c != ']' || top == '{' && c != '}' {
				// The brackets after the last one that c closes are
				// the ones left open ('[' is ']'-2, '{' is '}'-2).
				for k := len(flows) - 1; k >= 0; k-- {
					if data[flows[k]] == c-2 {
						return flows, k + 1, -1
					}
				}
				return flows, 0, -1
			}
			flows, start = flows[:len(flows)-1], false
		case c == ',' && flow:
			start = true
		case c == ':' && (flow || blankNext):
			start, inPlain = true, false
		case (c == '-' || c == '?') && start && blankNext:
		case (c == '\'' || c == '"') && start:
			end := quoteEnd(data, i)
			if end < 0 {
				return flows, 0, i
			}
			i, start = end, false
		case (c == '|' || c == '>') && start && !flow:
			block = indent
			i = endOfLine(data, i) - 1
		case (c == '&' || c == '!' || c == '*') && start:
			for i+1 < len(data) && !bytes.ContainsRune([]byte(" \t\r\n,[]{}"), rune(data[i+1])) {
				i++
			}
			start = c != '*'
		default:
			if start && !flow {
				inPlain = true
			}
			start = false
		}
		afterSpace = false
	}
	return flows, 0, -1
}

// endOfLine is the offset of the newline that ends the line holding
// offset i, or len(data).
func endOfLine(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(data)
}

// quoteEnd is the offset of the quote that closes the quoted scalar
// starting at i, or -1.
func quoteEnd(data []byte, i int) int {
	q := data[i]
	for j := i + 1; j < len(data); j++ {
		switch {
		case q == '"' && data[j] == '\\':
			j++
		case data[j] == q && q == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == q:
			return j
		}
	}
	return -1
}

// utf8Problems are the library's errors for text that is not UTF-8.
var utf8Problems = map[string]bool{
	"invalid leading UTF-8 octet":        true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid trailing UTF-8 octet":       true,
	"invalid length of a UTF-8 sequence": true,
	"invalid Unicode character":          true,
}

// badCharacter is the offset of the character that the library's reader
// stops at with msg, and what to do; -1 when msg is not a reader's error.
// The reader reads the text in order, so it is the first character that
// fails its rules, which are these.
func badCharacter(data []byte, msg string) (int, string) {
	control := msg == "control characters are not allowed"
	if !control && !utf8Problems[msg] {
		return -1, ""
	}
	for i := 0; i < len(data); {
		r, w := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && w <= 1 {
			if control {
				return -1, ""
			}
			return i, "the file is not UTF-8 here: save it as UTF-8"
		}
		switch {
		case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85,
			r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000:
		case i == 0 && r == 0xFEFF: // a byte-order mark
		default:
			if !control {
				return -1, ""
			}
			return i, fmt.Sprintf("remove the character U+%04X, or write it as an escape in a double-quoted value (\\u%04X)", r, r)
		}
		i += w
	}
	return -1, ""
}
