package openapi

import (
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// aheadReader runs the JSON decoder (jsontext) on another goroutine, a few
// batches of tokens ahead of the single pass, so that scanning the file,
// which costs about as much as the pass's own work, overlaps it: the
// machine has two cores or more. The pass reads the tokens back through
// the decoder's own calls (PeekKind, ReadToken, ReadValue, InputOffset),
// with the decoder's errors where it met them. Of a value the decoder
// reads whole, the pass takes only strings and other scalars: objects and
// arrays come token by token.
type aheadReader struct {
	full  chan *tokenBatch // batches read, in order; closed after the last
	free  chan *tokenBatch // batches the pass is done with, to fill again
	quit  chan struct{}    // closed when the pass stops reading
	done  chan struct{}    // closed when the decoder's goroutine is done
	lines *lineReader      // told of the file's chunks as their tokens arrive

	cur, prev *tokenBatch // the batch read from, and the one before it
	i         int         // the next token in cur
	off       int64       // InputOffset after the last token read
	read      int64       // bytes read from the file for the batches so far
}

// aheadToken is one token or scalar value the decoder read.
type aheadToken struct {
	kind   jsontext.Kind // as PeekKind said
	end    int64         // the decoder's InputOffset after it
	lo, hi int           // a scalar's raw bytes in the batch's buf
}

// tokenBatch is tokens read together, the bytes of their scalars, and the
// file's chunks read for them. The last batch ends with the decoder's error
// (io.EOF after the document): its last token is the one it failed on.
type tokenBatch struct {
	toks   []aheadToken
	buf    []byte
	chunks [][]byte
	read   int64 // bytes read from the file by the end of the batch
	err    error
}

// A batch ends after batchTokens tokens or batchBytes of input;
// aheadBatches are in use at most at once: one filled, the rest read or
// waiting. They bound what the decoder reads ahead.
const (
	batchTokens  = 4096
	batchBytes   = 64 << 10
	aheadBatches = 4
)

// errNoToken stands for an error the decoder did not give (PeekKind said
// there was none to read, and ReadToken read one): it would loop otherwise.
var errNoToken = errors.New("the JSON decoder found no token and no error")

// newAheadReader starts decoding r on another goroutine; the file's chunks
// go to lines as the pass reaches their tokens. Call close when done.
func newAheadReader(r io.Reader, lines *lineReader) *aheadReader {
	a := &aheadReader{
		full:  make(chan *tokenBatch, aheadBatches),
		free:  make(chan *tokenBatch, aheadBatches),
		quit:  make(chan struct{}),
		done:  make(chan struct{}),
		lines: lines,
	}
	for range aheadBatches {
		a.free <- &tokenBatch{}
	}
	feed := &chunkFeeder{r: r, spare: lines.spare}
	// Keys written twice are caught by the pass itself, more cheaply: by
	// their hashes (see names).
	dec := jsontext.NewDecoder(feed, jsontext.AllowDuplicateNames(true))
	go a.decode(dec, feed)
	return a
}

// decode fills batches until the decoder stops or the pass does.
func (a *aheadReader) decode(dec *jsontext.Decoder, feed *chunkFeeder) {
	defer close(a.done)
	defer close(a.full)
	for {
		var b *tokenBatch
		select {
		case b = <-a.free:
		case <-a.quit:
			return
		}
		b.toks, b.buf, b.chunks, b.err = b.toks[:0], b.buf[:0], b.chunks[:0], nil
		feed.batch = b
		start := dec.InputOffset()
		for b.err == nil && len(b.toks) < batchTokens && dec.InputOffset()-start < batchBytes {
			k := dec.PeekKind()
			var raw []byte
			var err error
			switch k {
			case '{', '}', '[', ']':
				_, err = dec.ReadToken()
			case 0:
				if _, err = dec.ReadToken(); err == nil {
					err = errNoToken
				}
			default:
				raw, err = dec.ReadValue()
			}
			t := aheadToken{kind: k, end: dec.InputOffset(), lo: len(b.buf)}
			b.buf = append(b.buf, raw...)
			t.hi = len(b.buf)
			b.toks = append(b.toks, t)
			b.err = err
		}
		b.read = feed.read
		select {
		case a.full <- b:
		case <-a.quit:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// close stops the decoder's goroutine and waits for it: the file it reads
// may be closed after.
func (a *aheadReader) close() {
	close(a.quit)
	<-a.done
}

// token is the next token, taking the next batch when cur is read; nil
// when the decoder stopped without an error, which it does not.
func (a *aheadReader) token() *aheadToken {
	if a.cur == nil || a.i == len(a.cur.toks) {
		b, ok := <-a.full
		if !ok {
			return nil
		}
		if a.prev != nil {
			a.free <- a.prev
		}
		// What a read returned stays as it was past the next read, into
		// the next batch: the batch before is kept until the one after.
		a.prev, a.cur, a.i = a.cur, b, 0
		a.read = b.read
		for _, c := range b.chunks {
			a.lines.add(c)
		}
	}
	return &a.cur.toks[a.i]
}

// failed is the error of t, the last token of its batch when the decoder
// failed on it.
func (a *aheadReader) failed(t *aheadToken) error {
	if a.i == len(a.cur.toks)-1 {
		return a.cur.err
	}
	return nil
}

// PeekKind is the next token's kind, 0 when the decoder failed before
// one.
func (a *aheadReader) PeekKind() jsontext.Kind {
	t := a.token()
	if t == nil {
		return 0
	}
	return t.kind
}

// ReadToken reads the next token, or returns the decoder's error there
// (io.EOF after the document); an error stays.
func (a *aheadReader) ReadToken() error {
	_, err := a.ReadValue()
	return err
}

// ReadValue reads the next scalar, its raw bytes valid until the read
// after the next, or returns the decoder's error there; an error stays.
func (a *aheadReader) ReadValue() ([]byte, error) {
	t := a.token()
	if t == nil {
		return nil, errNoToken
	}
	if err := a.failed(t); err != nil {
		return nil, err
	}
	a.i++
	a.off = t.end
	return a.cur.buf[t.lo:t.hi], nil
}

// InputOffset is the offset in the file just after the last token read.
func (a *aheadReader) InputOffset() int64 { return a.off }

// chunkFeeder serves the file to the decoder chunk by chunk, on the
// decoder's goroutine, and hands each chunk with the batch it was read for
// to the line reader.
type chunkFeeder struct {
	r      io.Reader
	cur    []byte // the chunk being served
	served int
	err    error
	read   int64
	batch  *tokenBatch
	spare  chan []byte // chunks the line reader is done with
}

func (f *chunkFeeder) Read(p []byte) (int, error) {
	if f.served == len(f.cur) {
		if f.err != nil {
			return 0, f.err
		}
		var c []byte
		select {
		case c = <-f.spare:
		default:
			c = make([]byte, chunkSize)
		}
		n, err := io.ReadFull(f.r, c[:cap(c)])
		if err == io.ErrUnexpectedEOF || (err == nil && n == 0) {
			err = io.EOF
		}
		f.err = err
		if n == 0 {
			return 0, f.err
		}
		f.read += int64(n)
		f.cur, f.served = c[:n], 0
		f.batch.chunks = append(f.batch.chunks, f.cur)
	}
	n := copy(p, f.cur[f.served:])
	f.served += n
	return n, nil
}
