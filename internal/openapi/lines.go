package openapi

import "bytes"

// lineReader tells the line and column of any offset in a file at or after
// the last one asked for, from the file's chunks as they are read: the
// single pass keeps neither the file nor an index of all its lines, only
// the chunks it may still be asked about.
type lineReader struct {
	chunks [][]byte    // read and not yet passed by the cursor
	base   int64       // offset of chunks[0]
	spare  chan []byte // chunks passed, for the file's reader to read into again

	at        int64 // the cursor: lines before it are counted
	line      int32 // newlines before at
	lineStart int64 // offset at which at's line starts
}

// chunkSize is what one read asks the file for; spareChunks are kept to
// read into again.
const (
	chunkSize   = 64 << 10
	spareChunks = 8
)

func newLineReader() *lineReader { return &lineReader{spare: make(chan []byte, spareChunks)} }

// add appends the file's next chunk.
func (r *lineReader) add(c []byte) { r.chunks = append(r.chunks, c) }

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
		select {
		case r.spare <- c[:cap(c)]:
		default:
		}
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
