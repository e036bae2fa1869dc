package docsapi

import (
	"bytes"
	"io"
)

// streamBody is a request body read from its parts each time the request
// is sent: a head, content read from its start, and a tail. A retry, or a
// redirect that repeats the request, reads it again rather than keeping a
// copy in memory.
type streamBody struct {
	head    []byte
	content Content
	tail    []byte
}

// size is the body's length in bytes, sent as Content-Length.
func (b *streamBody) size() int64 {
	return int64(len(b.head)) + b.content.Size() + int64(len(b.tail))
}

// open returns a reader of the whole body, from its start.
func (b *streamBody) open() io.Reader {
	return io.MultiReader(bytes.NewReader(b.head), io.NewSectionReader(b.content, 0, b.content.Size()), bytes.NewReader(b.tail))
}
