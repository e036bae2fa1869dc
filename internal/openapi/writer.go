package openapi

import "io"

// aheadWriter writes the upload the single pass's decoder makes (see
// aheadReader), given it batch by batch by the pass, on another
// goroutine, in buffers of aheadSize, so that
// writing the upload's pages, which costs as much as reading the
// description, overlaps the reading: the machine has two cores or more.
// A write for each batch of tokens took seven times as many writes, and
// as many wake-ups of the writer's goroutine.
type aheadWriter struct {
	cur  []byte
	full chan []byte // buffers to write, in order
	free chan []byte // buffers written, to fill again
	done chan struct{}
	n    int64 // bytes written, once done
	err  error // the first write error, once done
}

// aheadSize is one buffer's size; aheadBuffers are filled at most at once.
const (
	aheadSize    = 256 << 10
	aheadBuffers = 4
)

func newAheadWriter(w io.Writer) *aheadWriter {
	a := &aheadWriter{
		cur:  make([]byte, 0, aheadSize),
		full: make(chan []byte, aheadBuffers),
		free: make(chan []byte, aheadBuffers),
		done: make(chan struct{}),
	}
	for range aheadBuffers - 1 {
		a.free <- make([]byte, 0, aheadSize)
	}
	go func() {
		defer close(a.done)
		for b := range a.full {
			if a.err == nil {
				var n int
				n, a.err = w.Write(b)
				a.n += int64(n)
			}
			a.free <- b[:0]
		}
	}()
	return a
}

// write fills buffers of aheadSize, never a larger one: a buffer that
// grew would be another allocation each time round.
func (a *aheadWriter) write(b []byte) {
	for len(a.cur)+len(b) > cap(a.cur) {
		n := copy(a.cur[len(a.cur):cap(a.cur)], b)
		a.cur, b = a.cur[:len(a.cur)+n], b[n:]
		a.send()
	}
	a.cur = append(a.cur, b...)
	if len(a.cur) >= aheadSize {
		a.send()
	}
}

func (a *aheadWriter) send() {
	a.full <- a.cur
	a.cur = <-a.free
}

// close writes what is left and waits for the writes; it returns the bytes
// written and the first write error.
func (a *aheadWriter) close() (int64, error) {
	if len(a.cur) > 0 {
		a.full <- a.cur
		a.cur = nil
	}
	close(a.full)
	<-a.done
	return a.n, a.err
}
