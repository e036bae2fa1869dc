package redact

import (
	"unicode"
	"unicode/utf8"
)

// A control character shows as nothing, and a terminal's escape sequence
// (a colour, a title, a link) shows as nothing or restyles what follows:
// GitHub's log viewer renders them, so that a secret with a reset code
// (ESC [0m) between each two of its characters reads whole there, and a
// reader decoding an escaped one (\u001b[0m, \x1b[0m, \e[0m, \033[0m,
// &#27;[0m, %1B[0m, ^[[0m) reads it whole too. Each control is a
// separator (see separator), written or escaped; each escape sequence,
// whether its ESC is written or escaped, is one too, from its ESC to its
// end (see sequences). The forms of a sequence read are those a terminal
// acts on:
//
//   - CSI: ESC [ (or U+009B), parameter and intermediate bytes, a final
//     byte (@ to ~);
//   - control strings: ESC ] (OSC), ESC P (DCS), ESC X, ESC ^, ESC _ (or
//     their C1 forms), any text and C0 controls, which a terminal ignores
//     there, then BEL or ST (ESC \ or U+009C); CAN or SUB, which cancel
//     it, or another C1 control or ESC, which end it unfinished;
//   - ESC, intermediate bytes (space to /), a final byte (0 to ~): the
//     two- and three-character forms (ESC ( B, ESC 7, ESC c…).
//
// A C0 control but ESC, CAN and SUB, anywhere in a sequence (right after
// its ESC too), is carried out and the sequence goes on.

// control reports whether r is a control character: C0, DEL or C1.
func control(r rune) bool { return r < 0x20 || 0x7f <= r && r <= 0x9f }

// separatorByte reports whether the ASCII byte c, as written, splits a
// secret: a blank, a line break, or another control.
func separatorByte(c byte) bool {
	return c < utf8.RuneSelf && (unicode.IsSpace(rune(c)) || control(rune(c)))
}

// The kinds of sequence body.
const (
	csiBody    = iota // parameters and intermediates, then a final byte
	stringBody        // any text, then BEL or ST
	escBody           // intermediates, then a final byte
	bodyKinds
)

// mayIntroduce are the ASCII bytes a reading of ESC starts with: ESC
// itself, and the bytes escapes start with.
var mayIntroduce = [utf8.RuneSelf]bool{0x1b: true, '\\': true, '&': true, '%': true, '^': true}

// at is the end of the escape sequence that starts at s[i] (its ESC,
// written or escaped, or its C1 introducer), the longest where several
// readings start one; 0 for none. us are the ways the text at i reads
// (see units), which the caller has read already. Bodies are read once
// for each kind and position, whatever the number of sequences that share
// them, so that the cost for a text is linear in its length.
func (q *seqScan) at(s string, i int, us []unit) int {
	c := s[i]
	switch {
	case c == 0xc2: // starts U+0080 to U+00BF: the C1 introducers
		_, n := utf8.DecodeRuneInString(s[i:])
		return q.sequence(s, s[i:i+n], i+n)
	case c >= utf8.RuneSelf || !mayIntroduce[c]:
		return 0
	}
	end := 0
	for _, u := range us {
		end = max(end, q.sequence(s, u.b, i+u.n))
	}
	return end
}

// seqScan finds the escape sequences of a text, as its readers ask.
type seqScan struct {
	// memo holds, for each kind of body, the end of the body that starts
	// at each position, plus one; 0 where not yet read.
	memo [bodyKinds][]int32
	path []int
	// reads counts the characters read in bodies, of each kind.
	reads [bodyKinds]int
}

// sequence is the end of the sequence introduced by intro (a decoded
// character) whose rest starts at j; 0 if intro introduces none.
func (q *seqScan) sequence(s, intro string, j int) int {
	if len(intro) == 1 && 0x80 <= intro[0] && intro[0] <= 0x9f {
		// A C1 control decoded as one byte (Python reads \233 as U+009B).
		intro = string(rune(intro[0]))
	}
	switch intro {
	case "\x1b":
		// A terminal carries out a control that follows an ESC, but for
		// those that cancel it, and reads the sequence on (ESC ^A [0m is
		// ESC [0m); each such control follows one ESC only, since ESC,
		// CAN and SUB end the look.
		u, j := nextReading(s, j)
		for len(u.b) == 1 && actedOn(rune(u.b[0])) {
			u, j = nextReading(s, j)
		}
		if len(u.b) != 1 {
			return 0
		}
		switch c := u.b[0]; {
		case c == '[':
			return q.body(s, csiBody, j)
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			return q.body(s, stringBody, j)
		case 0x20 <= c && c <= 0x2f:
			return q.body(s, escBody, j)
		case 0x30 <= c && c <= 0x7e:
			return j
		}
	case "\u009b":
		return q.body(s, csiBody, j)
	case "\u009d", "\u0090", "\u0098", "\u009e", "\u009f":
		return q.body(s, stringBody, j)
	}
	return 0
}

// nextReading is the reading of s at j, past the escaping backslashes
// that may stand there (\[ in Markdown), and where it ends.
func nextReading(s string, j int) (unit, int) {
	for k := 0; k < maxNesting+1 && j < len(s); k++ {
		u := readAt(s, j)
		j += u.n
		if u.b != "" {
			return u, j
		}
	}
	return unit{}, j
}

// body is the end of the body of kind that starts at j.
func (q *seqScan) body(s string, kind, j int) int {
	if q.memo[kind] == nil {
		q.memo[kind] = make([]int32, len(s)+1)
	}
	memo := q.memo[kind]
	q.path = q.path[:0]
	end := -1
	for end < 0 {
		if memo[j] > 0 {
			end = int(memo[j]) - 1
			break
		}
		q.path = append(q.path, j)
		if j >= len(s) {
			end = j
			break
		}
		u := readAt(s, j)
		q.reads[kind]++
		switch bodyStep(kind, u.b) {
		case goOn:
			j += u.n
		case endAfter:
			end = j + u.n
		case endBefore:
			end = j
		case endAfterST:
			// ESC \ ends a control string; an ESC followed by anything
			// else starts another sequence, and ends the string before it.
			end = j
			if k := j + u.n; k < len(s) {
				var buf [8]unit
				for _, v := range units(s, k, buf[:0]) {
					if v.b == `\` {
						end = max(end, k+v.n)
					}
				}
			}
		}
	}
	for _, p := range q.path {
		memo[p] = int32(end) + 1
	}
	return end
}

// What a character does to the body of a sequence.
const (
	goOn       = iota // part of the body
	endAfter          // its last character
	endBefore         // not part of it: the body ends unfinished before it
	endAfterST        // an ESC: the string ends after it if \ follows
)

// bodyStep is what the decoded character b does to a body of kind, as a
// terminal reads it. An empty b is an escaping backslash, or a <br>: part
// of the body.
func bodyStep(kind int, b string) int {
	r, n := utf8.DecodeRuneInString(b)
	if n == 0 {
		return goOn
	}
	if n != len(b) {
		return endBefore
	}
	switch kind {
	case csiBody, escBody:
		// Parameter bytes (CSI only) and intermediates, then a final byte;
		// a control is carried out, and it goes on, but ESC, CAN and SUB,
		// which cancel it.
		last := rune(0x2f)
		if kind == csiBody {
			last = 0x3f
		}
		switch {
		case 0x20 <= r && r <= last, actedOn(r), r == 0x7f:
			return goOn
		case last < r && r <= 0x7e:
			return endAfter
		}
	case stringBody:
		switch {
		case r == 0x07 || r == 0x9c: // BEL, ST
			return endAfter
		case r == 0x1b:
			return endAfterST
		case r == 0x18 || r == 0x1a: // CAN, SUB cancel it
			return endAfter
		case r < 0x20 || r == 0x7f: // other C0 controls and DEL are ignored in it
			return goOn
		case control(r):
			return endBefore
		}
		return goOn
	}
	return endBefore
}

// actedOn reports whether r is a C0 control that a terminal carries out
// inside an escape sequence, which goes on after it: all but ESC, CAN and
// SUB, which end it (the parser of DEC's terminals, which xterm's and
// others' follow).
func actedOn(r rune) bool {
	return r < 0x20 && r != 0x1b && r != 0x18 && r != 0x1a
}

// readAt is the character at s[i] as a reader decoding every escape
// reads it: the longest escape the text starts with, decoded as far as it
// goes (&amp;#43; is +), and a backslash that escapes the character after
// it read as a separator that decodes to nothing. Its sep says whether
// the character is a separator.
func readAt(s string, i int) unit {
	c := s[i]
	if c >= utf8.RuneSelf || !notPlain[c] {
		return plainByteAt(s, i)
	}
	var buf [8]unit
	return longest(units(s, i, buf[:0]))
}

// plainByteAt is the character at s[i], which starts no escape, as
// readAt reads it.
func plainByteAt(s string, i int) unit {
	if c := s[i]; c < utf8.RuneSelf {
		return unit{n: 1, b: s[i : i+1], sep: separatorByte(c)}
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return unit{n: n, b: s[i : i+n], sep: separator(r)}
}

// longest is the reading readAt takes of us, the ways a position reads.
func longest(us []unit) unit {
	best := us[0]
	for _, u := range us[1:] {
		// A backslash, written or decoded (%5C, &#92;, \\), is read as
		// one that escapes: as a separator.
		if u.n > best.n || u.n == best.n && u.sep && best.b == `\` {
			best = u
		}
	}
	return best
}
