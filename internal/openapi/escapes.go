package openapi

import "bytes"

// The YAML library refuses \/ in a double-quoted scalar, an escape YAML 1.2
// added (JSON has it) and the service reads as /. unescapeSlashes writes /
// for it before parsing, in double-quoted scalars only: a \/ in a plain,
// single-quoted or block scalar, or in a comment, is text and stays. It
// returns, for each line, the columns (1-based, after the rewrite) where a
// \/ became /, so that positions can be given as written.
func unescapeSlashes(data []byte) ([]byte, map[int][]int) {
	if !bytes.Contains(data, []byte(`\/`)) {
		return data, nil
	}
	out := make([]byte, 0, len(data))
	shifts := map[int][]int{}
	line, col := 1, 1 // where out is, in the rewritten text
	const (
		outside = iota
		single
		double
		comment
	)
	state := outside
	var prev byte = '\n' // the last byte outside scalars that is not a blank
	blockIndent := -1    // inside a block scalar more indented than this
	indent, atIndent := 0, true
	// header: the line so far ends in a block scalar's indicator (| or >)
	// and its chomping and indentation indicators (|-, >+2, ...).
	header := false
	put := func(b byte) {
		out = append(out, b)
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	for i := 0; i < len(data); i++ {
		b := data[i]
		if b == '\n' {
			put(b)
			if state == comment {
				state = outside
			}
			if state == outside {
				// A line that ended in a block indicator starts a block scalar.
				if header {
					blockIndent = indent
				}
				prev = '\n'
			}
			indent, atIndent, header = 0, true, false
			continue
		}
		if atIndent && b == ' ' {
			indent++
			put(b)
			continue
		}
		if atIndent {
			atIndent = false
			if blockIndent >= 0 && state == outside {
				if indent > blockIndent {
					// Block scalar content: copy the line as it is.
					for ; i < len(data) && data[i] != '\n'; i++ {
						put(data[i])
					}
					i--
					continue
				}
				blockIndent = -1
			}
		}
		switch state {
		case comment:
			put(b)
		case single:
			put(b)
			if b == '\'' {
				if i+1 < len(data) && data[i+1] == '\'' {
					put('\'')
					i++
				} else {
					state, prev = outside, 'x'
				}
			}
		case double:
			switch {
			case b == '\\' && i+1 < len(data) && data[i+1] == '/':
				shifts[line] = append(shifts[line], col)
				put('/')
				i++
			case b == '\\' && i+1 < len(data):
				put(b)
				put(data[i+1])
				i++
			case b == '"':
				put(b)
				state, prev = outside, 'x'
			default:
				put(b)
			}
		default:
			switch {
			case b == '#' && (prev == '\n' || i > 0 && (data[i-1] == ' ' || data[i-1] == '\t')):
				state = comment
			case (b == '"' || b == '\'') && startsScalar(prev):
				if b == '"' {
					state = double
				} else {
					state = single
				}
			}
			put(b)
			if b != ' ' && b != '\t' && state == outside {
				// A colon is a value indicator only before a blank.
				if b == ':' && i+1 < len(data) && data[i+1] != ' ' && data[i+1] != '\n' {
					prev = 'x'
				} else {
					prev = b
				}
				switch {
				case b == '|' || b == '>':
					header = true
				case header && (b == '+' || b == '-' || '1' <= b && b <= '9'):
				default:
					header = false
				}
			}
		}
	}
	return out, shifts
}

// startsScalar reports whether a quote after prev (the last non-blank byte
// outside scalars) begins a quoted scalar, rather than being text inside a
// plain one.
func startsScalar(prev byte) bool {
	switch prev {
	case '\n', ':', '-', '?', '[', '{', ',':
		return true
	}
	return false
}

// writtenCol is the column, as written, of a position in the rewritten text.
func writtenCol(shifts map[int][]int, line, col int) int {
	n := 0
	for _, c := range shifts[line] {
		if c < col {
			n++
		}
	}
	return col + n
}
