package openapi

import (
	"bytes"
	"errors"
	"io"
	"math"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// aheadReader runs the JSON decoder (jsontext) on another goroutine, a few
// batches of tokens ahead of the single pass, so that scanning the file,
// which costs about as much as the pass's own work, overlaps it: the
// machine has two cores or more. The pass reads the tokens back through
// calls like the decoder's (PeekKind, ReadToken, ReadValue), with the
// decoder's errors where it met them. Of a value the decoder
// reads whole, the pass takes only strings and other scalars: objects and
// arrays come token by token.
type aheadReader struct {
	full  chan *tokenBatch // batches read, in order; closed after the last
	free  chan *tokenBatch // batches the pass is done with, to fill again
	quit  chan struct{}    // closed when the pass stops reading
	done  chan struct{}    // closed when the decoder's goroutine is done
	lines *lineReader      // told of the file's chunks as their tokens arrive

	cur, prev *tokenBatch  // the batch read from, and the one before it
	toks      []aheadToken // cur's tokens
	i         int          // the next token in cur
	good      int          // cur's tokens read without an error
	start     int64        // the offset of the last token read
	read      int64        // bytes read from the file for the batches so far
	scratch   []byte       // a string written again, on the decoder's goroutine
}

// aheadToken is one token or scalar value the decoder read.
type aheadToken struct {
	start int64 // its offset in the file
	// What the pass writes for it is buf[lo:hi]: a string as Encode writes
	// it, any other scalar as it was. A string's text is buf[text:lo],
	// decoded, when it holds an escape, else buf[lo+1:hi-1].
	text, lo, hi uint32
	kind         jsontext.Kind // as PeekKind said
	escaped      bool
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

// errBatchTooLarge is a batch past what its offsets count: a string of
// gigabytes, over any file limit, would make one.
var errBatchTooLarge = errors.New("a JSON string too long for the single pass")

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
		// Filled to batchTokens, or past batchBytes by a token: sized for
		// that once, not grown.
		a.free <- &tokenBatch{toks: make([]aheadToken, 0, batchTokens), buf: make([]byte, 0, batchBytes+batchBytes/4)}
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
			b.err = a.next(dec, b)
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

// next reads one token into b, or the decoder's error: the string's work
// that does not depend on where it stands (its escapes decoded, and
// written again as Encode writes it) is done here, on the decoder's
// goroutine.
func (a *aheadReader) next(dec *jsontext.Decoder, b *tokenBatch) error {
	k := dec.PeekKind()
	var raw []byte
	var err error
	at := int64(0) // the token's length, back from where the decoder stands after it
	switch k {
	case '{', '}', '[', ']':
		_, err = dec.ReadToken()
		at = 1
	case 0:
		if _, err = dec.ReadToken(); err == nil {
			err = errNoToken
		}
	default:
		raw, err = dec.ReadValue()
		at = int64(len(raw))
	}
	t := aheadToken{kind: k, start: dec.InputOffset() - at}
	if err == nil && k == '"' && bytes.IndexByte(raw, '\\') >= 0 {
		t.escaped, t.text = true, uint32(len(b.buf))
		if b.buf, err = jsontext.AppendUnquote(b.buf, raw); err == nil {
			raw = appendString(a.scratch[:0], unsafe.String(unsafe.SliceData(b.buf[t.text:]), len(b.buf)-int(t.text)))
			a.scratch = raw
		}
	}
	t.lo = uint32(len(b.buf))
	b.buf = append(b.buf, raw...)
	t.hi = uint32(len(b.buf))
	if len(b.buf) > math.MaxUint32 && err == nil {
		err = errBatchTooLarge
	}
	b.toks = append(b.toks, t)
	return err
}

// close stops the decoder's goroutine and waits for it: the file it reads
// may be closed after.
func (a *aheadReader) close() {
	close(a.quit)
	<-a.done
}

// more takes the next batch once cur is read, and reports whether there
// is a token to look at: there is none only when the decoder stopped
// without an error, which it does not. Kept out of line, so that the
// calls that read a token are inlined.
//
//go:noinline
func (a *aheadReader) more() bool {
	b, ok := <-a.full
	if !ok {
		return false
	}
	if a.prev != nil {
		a.free <- a.prev
	}
	// What a read returned stays as it was past the next read, into the
	// next batch: the batch before is kept until the one after.
	a.prev, a.cur, a.toks, a.i = a.cur, b, b.toks, 0
	a.good = len(b.toks)
	if b.err != nil {
		a.good-- // the last token is where the decoder failed
	}
	a.read = b.read
	for _, c := range b.chunks {
		a.lines.add(c)
	}
	return true
}

// PeekKind is the next token's kind, 0 when the decoder failed before
// one.
func (a *aheadReader) PeekKind() jsontext.Kind {
	if a.i < len(a.toks) || a.more() {
		return a.toks[a.i].kind
	}
	return 0
}

// ReadToken reads the next token, or returns the decoder's error there
// (io.EOF after the document); an error stays.
func (a *aheadReader) ReadToken() error {
	_, err := a.take()
	return err
}

// ReadValue reads the next scalar other than a string: its raw bytes,
// valid until the read after the next, or the decoder's error there.
func (a *aheadReader) ReadValue() ([]byte, error) {
	t, err := a.take()
	if err != nil {
		return nil, err
	}
	return a.cur.buf[t.lo:t.hi], nil
}

// ReadString reads the next string: its text, and out as Encode writes
// it, both valid until the read after the next, or the decoder's error
// there.
func (a *aheadReader) ReadString() (text string, out []byte, err error) {
	t, err := a.take()
	if err != nil {
		return "", nil, err
	}
	buf := a.cur.buf
	lo, hi := t.lo+1, t.hi-1
	if t.escaped {
		lo, hi = t.text, t.lo
	}
	return unsafe.String(unsafe.SliceData(buf[lo:]), hi-lo), buf[t.lo:t.hi], nil
}

// take moves past the next token, unless the decoder failed there.
func (a *aheadReader) take() (*aheadToken, error) {
	if a.i >= a.good {
		if err := a.stalled(); err != nil {
			return nil, err
		}
	}
	t := &a.toks[a.i]
	a.i++
	a.start = t.start
	return t, nil
}

// stalled takes the next batch once cur is read, or returns the decoder's
// error where it failed.
func (a *aheadReader) stalled() error {
	if a.i == len(a.toks) && !a.more() {
		return errNoToken
	}
	if a.i == a.good {
		return a.cur.err
	}
	return nil
}

// Start is the offset in the file of the last token read.
func (a *aheadReader) Start() int64 { return a.start }

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
