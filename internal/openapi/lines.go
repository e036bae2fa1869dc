package openapi

import (
	"bytes"
	"io"
)

// lineReader hands a file to the JSON decoder chunk by chunk and tells the
// line and column of any offset at or after the last one asked for: the
// single pass keeps neither the file nor an index of all its lines, only
// the chunks it may still be asked about.
type lineReader struct {
	r      io.Reader
	chunks [][]byte // read and not yet passed by the cursor; the last is being served
	base   int64    // offset of chunks[0]
	served int      // bytes of the last chunk handed to the decoder
	spare  [][]byte // chunks to read into again
	err    error    // what the file said after its last chunk
	read   int64    // bytes read from the file

	at        int64 // the cursor: lines before it are counted
	line      int32 // newlines before at
	lineStart int64 // offset at which at's line starts
}

// chunkSize is what one read asks the file for.
const chunkSize = 64 << 10

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r} }

func (r *lineReader) Read(p []byte) (int, error) {
	last := len(r.chunks) - 1
	if last < 0 || r.served == len(r.chunks[last]) {
		if r.err != nil {
			return 0, r.err
		}
		var c []byte
		if n := len(r.spare); n > 0 {
			c, r.spare = r.spare[n-1], r.spare[:n-1]
		} else {
			c = make([]byte, chunkSize)
		}
		n, err := io.ReadFull(r.r, c[:cap(c)])
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		r.err = err
		if n == 0 {
			r.spare = append(r.spare, c)
			if r.err == nil {
				r.err = io.EOF
			}
			return 0, r.err
		}
		r.read += int64(n)
		r.chunks = append(r.chunks, c[:n])
		last, r.served = len(r.chunks)-1, 0
	}
	n := copy(p, r.chunks[last][r.served:])
	r.served += n
	return n, nil
}

// advance moves the cursor to off, counting the lines on the way, and lets
// go of the chunks it has passed.
func (r *lineReader) advance(off int64) {
	for r.at < off && len(r.chunks) > 0 {
		c := r.chunks[0]
		end := r.base + int64(len(c))
		to := min(off, end)
		seg := c[r.at-r.base : to-r.base]
		if n := bytes.Count(seg, newline); n > 0 {
			r.line += int32(n)
			r.lineStart = r.at + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
		r.at = to
		if to < end || len(r.chunks) == 1 {
			return
		}
		r.spare = append(r.spare, c[:cap(c)])
		r.chunks[0] = nil
		r.chunks = r.chunks[1:]
		r.base = end
	}
}

var newline = []byte{'\n'}

// pos is the line and column of off, which must not be before the last
// offset asked for.
func (r *lineReader) pos(off int64) Pos {
	r.advance(off)
	return Pos{Line: r.line + 1, Col: int32(off-r.lineStart) + 1}
}
