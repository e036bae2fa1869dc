package openapi

import (
	"bytes"
	"testing"
	"time"
)

// recorder is an io.Writer that keeps each write, and tells of each.
type recorder struct {
	writes [][]byte
	wrote  chan int
}

func (r *recorder) Write(b []byte) (int, error) {
	r.writes = append(r.writes, bytes.Clone(b))
	r.wrote <- len(b)
	return len(b), nil
}

// TestAheadWriterWritesWhileFilling: a full buffer goes out at once, before
// the pass ends (by write or by byte), and close sends what is left: the
// writes are the bytes, in order, none of them empty.
func TestAheadWriterWritesWhileFilling(t *testing.T) {
	t.Parallel()
	for _, byByte := range []bool{false, true} {
		r := &recorder{wrote: make(chan int, 8)}
		a := newAheadWriter(r)
		var all []byte
		put := func(n int, c byte) {
			b := bytes.Repeat([]byte{c}, n)
			all = append(all, b...)
			if !byByte {
				a.write(b)
				return
			}
			for i := range b {
				a.write(b[i : i+1])
			}
		}
		put(aheadSize-1, 'a')
		put(1, 'b') // the buffer is full
		select {
		case n := <-r.wrote:
			if n != aheadSize {
				t.Errorf("by byte %v: a write of %d bytes, want %d", byByte, n, aheadSize)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("by byte %v: a full buffer was not written before close", byByte)
		}
		put(3, 'c')
		n, err := a.close()
		if err != nil || n != int64(len(all)) {
			t.Errorf("by byte %v: close = %d, %v; want %d, nil", byByte, n, err, len(all))
		}
		if got := bytes.Join(r.writes, nil); !bytes.Equal(got, all) {
			t.Errorf("by byte %v: %d bytes written, not the %d written to it", byByte, len(got), len(all))
		}
		if len(r.writes) != 2 {
			t.Errorf("by byte %v: %d writes, want 2", byByte, len(r.writes))
		}
		// Nothing left: close writes nothing more.
		r2 := &recorder{wrote: make(chan int, 8)}
		a2 := newAheadWriter(r2)
		if n, err := a2.close(); n != 0 || err != nil || len(r2.writes) != 0 {
			t.Errorf("close with nothing written: %d, %v, %d writes; want none", n, err, len(r2.writes))
		}
	}
}
