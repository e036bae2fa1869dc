package publish

import (
	"bytes"
	"errors"
	"io"
	"io/fs"

	"github.com/docs-publish/docs-publish/internal/githubapi"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// sameAsBase says whether the base is the head's own file, byte for byte,
// for a description that names no other file (the head took the single
// pass, or its bundled tree was all written in its one file, as a YAML
// description may be): then the change leaves the API as it was, and the
// base need not be loaded. A base read through GitHub's API is loaded as
// usual rather than fetched twice.
func (f *flow) sameAsBase(b *base) bool {
	if !f.head.onePass && !(f.head.bundled && oneFile(f.head.doc)) {
		return false
	}
	if _, remote := b.fsys.(*githubapi.Files); remote {
		return false
	}
	head, err := f.ws.FS().Open(f.plan.File)
	if err != nil {
		return false
	}
	defer head.Close()
	base, err := b.fsys.Open(b.name)
	if err != nil {
		return false
	}
	defer base.Close()
	return sameContent(head, base, openapi.DefaultLimits.FileBytes)
}

// oneFile says whether every value of a bundled tree was written in the
// root's file: then the description names no other file.
func oneFile(root *openapi.Node) bool {
	if root == nil {
		return false
	}
	stack := []*openapi.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if n.Src != root.Src {
			return false
		}
		for _, fd := range n.Fields() {
			stack = append(stack, fd.Value)
		}
		stack = append(stack, n.Items()...)
	}
	return true
}

// sameContent says whether a and b hold the same bytes, reading each a
// piece at a time, and at most max bytes of each.
func sameContent(a, b io.Reader, max int64) bool {
	a, b = io.LimitReader(a, max+1), io.LimitReader(b, max+1)
	pa, pb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(a, pa)
		nb, errB := io.ReadFull(b, pb)
		if na != nb || !bytes.Equal(pa[:na], pb[:nb]) {
			return false
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		switch {
		case endA && endB:
			return true
		case errA != nil || errB != nil:
			return false
		}
	}
}

// readUpTo reads a file, and at most one byte more than max.
func readUpTo(fsys fs.FS, name string, max int64) ([]byte, error) {
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(io.LimitReader(file, max+1))
}

// memSink is an openapi.Sink in memory, for the base's document.
type memSink struct {
	buf []byte
	off int64
}

func (m *memSink) Write(p []byte) (int, error) {
	if end := m.off + int64(len(p)); end > int64(len(m.buf)) {
		m.buf = append(m.buf, make([]byte, end-int64(len(m.buf)))...)
	}
	n := copy(m.buf[m.off:], p)
	m.off += int64(n)
	return n, nil
}

func (m *memSink) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += m.off
	case io.SeekEnd:
		offset += int64(len(m.buf))
	}
	if offset < 0 {
		return 0, errors.New("seek before the start")
	}
	m.off = offset
	return offset, nil
}

func (m *memSink) Truncate(size int64) error {
	if size < int64(len(m.buf)) {
		m.buf = m.buf[:size]
	}
	return nil
}

// discardSink is an openapi.Sink that keeps nothing, for a base read for
// its tree alone.
type discardSink struct{}

func (discardSink) Write(p []byte) (int, error)    { return len(p), nil }
func (discardSink) Seek(int64, int) (int64, error) { return 0, nil }
func (discardSink) Truncate(int64) error           { return nil }
