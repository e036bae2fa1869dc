package openapi

import (
	"bytes"
	"errors"
	"hash/maphash"
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
//
// The decoder's goroutine also makes the upload, each batch's tokens as
// Encode writes them with the commas and colons between them; the pass
// hands each batch's part to a writer on a third goroutine as it is done
// with the batch: the decoder, which sets the pace, does not copy it into
// the writer's buffers (7 MB of GitHub's description).
type aheadReader struct {
	full  chan *tokenBatch // batches read, in order; closed after the last
	free  chan *tokenBatch // batches the pass is done with, to fill again
	quit  chan struct{}    // closed when the pass stops reading
	done  chan struct{}    // closed when the decoder's goroutine is done
	lines *lineReader      // told of the file's chunks as their tokens arrive
	seed  maphash.Seed     // of the keys' hashes (ReadKey)
	w     *aheadWriter     // the upload; nil once closed

	cur, prev *tokenBatch  // the batch read from, and the one before it
	toks      []aheadToken // cur's tokens
	i         int          // the next token in cur
	good      int          // cur's tokens read without an error
	start     int64        // the offset of the last token read
	read      int64        // bytes read from the file for the batches so far
}

// aheadToken is one token or scalar value the decoder read. It is kept to
// 16 bytes: the decoder writes a batch's tokens on one core and the pass
// reads them on another, and every cache line of them crosses between the
// two.
type aheadToken struct {
	// start is its offset in the file, from the batch's base.
	start uint32
	// buf[lo:hi] is the token as Encode writes it: a string written again,
	// any other token as it was; a string's text is buf[lo+1:hi-1]. A
	// string that holds an escape has its text decoded in text[lo:hi]
	// instead: what it wrote in buf is the decoder's alone.
	lo, hi  uint32
	kind    jsontext.Kind // as PeekKind said
	escaped bool
}

// tokenBatch is tokens read together, their part of the upload, and the
// file's chunks read for them. The last batch ends with the decoder's error
// (io.EOF after the document): its last token is the one it failed on.
type tokenBatch struct {
	toks []aheadToken
	base int64 // the file's offset the tokens' starts count from
	// buf is the batch's part of the upload: its tokens as Encode writes
	// them, each after the comma or colon before it.
	buf    []byte
	text   []byte // the text of the strings with an escape, decoded
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

// newAheadReader starts decoding r on another goroutine, and writing the
// upload to out on a third, batch by batch as the pass is done with them;
// the file's chunks go to lines as the pass reaches their tokens. Call
// close when done.
func newAheadReader(r io.Reader, lines *lineReader, out io.Writer) *aheadReader {
	a := &aheadReader{
		full:  make(chan *tokenBatch, aheadBatches),
		free:  make(chan *tokenBatch, aheadBatches),
		quit:  make(chan struct{}),
		done:  make(chan struct{}),
		lines: lines,
		seed:  maphash.MakeSeed(),
		w:     newAheadWriter(out),
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
	var up upload
	for {
		var b *tokenBatch
		select {
		case b = <-a.free:
		case <-a.quit:
			return
		}
		b.toks, b.buf, b.text, b.chunks, b.err = b.toks[:0], b.buf[:0], b.text[:0], b.chunks[:0], nil
		feed.batch = b
		b.base = dec.InputOffset()
		for b.err == nil && len(b.toks) < batchTokens && dec.InputOffset()-b.base < batchBytes {
			b.err = up.next(dec, b)
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

// upload is where the decoder stands in the document it writes out: what
// goes before the next token, and whether each value open is an object.
type upload struct {
	sep     byte   // ',' after a value, ':' after a key, 0 after '{', '[' or at the start
	objects []bool // by depth, whether the value open there is an object
}

// next reads one token into b, or the decoder's error, and writes it to
// b's part of the upload: the string's work that does not depend on where
// it stands (its escapes decoded, and written again as Encode writes it)
// is done here, on the decoder's goroutine.
func (u *upload) next(dec *jsontext.Decoder, b *tokenBatch) error {
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
	// The token is written in its place, field by field: built apart and
	// copied there, it was read back whole just after its fields were
	// stored one by one, and the copy's stores held two fifths of this
	// function's CPU time.
	b.toks = append(b.toks, aheadToken{})
	t := &b.toks[len(b.toks)-1]
	start := dec.InputOffset() - at - b.base
	t.kind, t.start, t.lo, t.hi = k, uint32(start), uint32(len(b.buf)), uint32(len(b.buf))
	if start > math.MaxUint32 {
		// White space of gigabytes, over any file limit, before a token.
		t.start = 0
		return errBatchTooLarge
	}
	if err != nil {
		return err
	}
	switch k {
	case '}', ']':
		u.objects = u.objects[:len(u.objects)-1]
		b.buf = append(b.buf, byte(k))
		u.sep = ','
	default:
		// A string in an object, not after a key, is a key.
		key := k == '"' && u.sep != ':' && len(u.objects) > 0 && u.objects[len(u.objects)-1]
		if u.sep != 0 {
			b.buf = append(b.buf, u.sep)
		}
		t.lo = uint32(len(b.buf))
		switch {
		case k == '{' || k == '[':
			u.objects = append(u.objects, k == '{')
			b.buf = append(b.buf, byte(k))
			u.sep = 0
		case k == '"' && bytes.IndexByte(raw, '\\') >= 0:
			tlo := len(b.text)
			if b.text, err = jsontext.AppendUnquote(b.text, raw); err != nil {
				t.hi = t.lo
				return err
			}
			t.escaped, t.lo, t.hi = true, uint32(tlo), uint32(len(b.text))
			b.buf = appendString(b.buf, unsafe.String(unsafe.SliceData(b.text[tlo:]), len(b.text)-tlo))
		default:
			b.buf = append(b.buf, raw...)
		}
		switch {
		case key:
			u.sep = ':'
		case k != '{' && k != '[':
			u.sep = ','
		}
	}
	if !t.escaped {
		t.hi = uint32(len(b.buf))
	}
	if len(b.buf) > math.MaxUint32 || len(b.text) > math.MaxUint32 {
		return errBatchTooLarge
	}
	return nil
}

// finish waits for the decoder's goroutine, writes the batches the pass
// still holds and waits for the writes: it returns the bytes written and
// the first write error. Call it once the pass has read the decoder's
// last token (io.EOF after the document).
func (a *aheadReader) finish() (int64, error) {
	<-a.done
	for _, b := range []*tokenBatch{a.prev, a.cur} {
		if b != nil {
			a.w.write(b.buf)
		}
	}
	w := a.w
	a.w = nil
	return w.close()
}

// close stops the decoder's goroutine and the writer's and waits for
// them: the file it reads may be closed after, and the upload emptied.
// What was written of a pass that did not finish is of no account: its
// upload is written again, or not at all.
func (a *aheadReader) close() {
	close(a.quit)
	<-a.done
	if a.w != nil {
		a.w.close()
	}
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
		a.w.write(a.prev.buf)
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

// ReadString reads the next string: its text, valid until the read after
// the next, or the decoder's error there.
func (a *aheadReader) ReadString() (string, error) {
	t, err := a.take()
	if err != nil {
		return "", err
	}
	if t.escaped {
		return unsafe.String(unsafe.SliceData(a.cur.text[t.lo:]), t.hi-t.lo), nil
	}
	return unsafe.String(unsafe.SliceData(a.cur.buf[t.lo+1:]), t.hi-t.lo-2), nil
}

// ReadKey reads the next string, a key: its text, valid until the read
// after the next, and its hash, or the decoder's error there. The hash is
// the pass's work, not the decoder's: the decoder sets the pace.
func (a *aheadReader) ReadKey() (string, uint64, error) {
	s, err := a.ReadString()
	if err != nil {
		return "", 0, err
	}
	return s, maphash.String(a.seed, s), nil
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
	a.start = a.cur.base + int64(t.start)
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
