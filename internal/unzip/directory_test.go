package unzip

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// random is n bytes that do not compress.
func random(n int) []byte {
	b := make([]byte, n)
	x := uint32(1)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// files is n one-byte files named 0, 1, 2…
func files(n int) []entry {
	es := make([]entry, n)
	for i := range es {
		es[i] = entry{name: fmt.Sprint(i), body: "x"}
	}
	return es
}

// withEnd is z (a zip without a comment) with its end record's entry
// count, directory size and offset changed by edit.
func withEnd(z []byte, edit func(records *uint16, size, offset *uint32)) []byte {
	z = append([]byte(nil), z...)
	e := z[len(z)-endLen:]
	records, size, offset := binary.LittleEndian.Uint16(e[10:]), binary.LittleEndian.Uint32(e[12:]), binary.LittleEndian.Uint32(e[16:])
	edit(&records, &size, &offset)
	binary.LittleEndian.PutUint16(e[8:], records)
	binary.LittleEndian.PutUint16(e[10:], records)
	binary.LittleEndian.PutUint32(e[12:], size)
	binary.LittleEndian.PutUint32(e[16:], offset)
	return z
}

// withZip64End is z (a zip without a comment) ending in a zip64 end
// record that says it holds records entries, its locator, and an end
// record that sends the reader to them.
func withZip64End(z []byte, records uint64) []byte {
	e := z[len(z)-endLen:]
	size, offset := binary.LittleEndian.Uint32(e[12:]), binary.LittleEndian.Uint32(e[16:])
	at := len(z) - endLen
	out := append([]byte(nil), z[:at]...)
	out = binary.LittleEndian.AppendUint32(out, end64Sig)
	out = binary.LittleEndian.AppendUint64(out, end64Len-12)
	out = binary.LittleEndian.AppendUint16(out, 45)
	out = binary.LittleEndian.AppendUint16(out, 45)
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = binary.LittleEndian.AppendUint64(out, records)
	out = binary.LittleEndian.AppendUint64(out, records)
	out = binary.LittleEndian.AppendUint64(out, uint64(size))
	out = binary.LittleEndian.AppendUint64(out, uint64(offset))
	out = binary.LittleEndian.AppendUint32(out, end64LocSig)
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = binary.LittleEndian.AppendUint64(out, uint64(at))
	out = binary.LittleEndian.AppendUint32(out, 1)
	out = binary.LittleEndian.AppendUint32(out, endSig)
	out = append(out, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0)
	return out
}

// TestDirectoryRefusedBeforeParsing: the end records' counts, and the
// headers archive/zip would read whatever the records say, are held to
// the limits before archive/zip reads the directory.
func TestDirectoryRefusedBeforeParsing(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxEntries: 10, MaxBytes: 1 << 20}
	twelve := makeZip(t, files(12))
	three := makeZip(t, files(3))
	one := Limits{MaxEntries: 1, MaxBytes: 1 << 20}
	fat := makeZip(t, []entry{{name: strings.Repeat("n", 1400), body: "x"}})
	big := makeZip(t, []entry{{name: "a", body: string(random(2000))}})
	cases := []struct {
		name string
		zip  []byte
		lim  Limits
		want string // "" extracts
	}{
		{"more entries than allowed", twelve, lim, "end record says it holds 12 entries, more than 10"},
		{"the end record understates the count", withEnd(twelve, func(r *uint16, s, _ *uint32) { *r, *s = 1, 100 }), lim, "directory holds more than 10 entries"},
		{"the count one past the limit", makeZip(t, files(11)), lim, "more than 10"},
		{"the count at the limit", makeZip(t, files(10)), lim, ""},
		{"a zip64 end record over the limit", withZip64End(three, 1<<40), lim, "holds 1099511627776 entries"},
		{"a zip64 end record within the limit", withZip64End(three, 3), lim, ""},
		// The directory said to start at the first byte and end at the
		// end record: archive/zip would read from there.
		{"a directory too large by its end record", withEnd(big, func(_ *uint16, s, o *uint32) { *s, *o = uint32(len(big)-endLen), 0 }), one, fmt.Sprintf("directory is %d bytes, more than 1326", len(big)-endLen)},
		{"a directory larger than its end record says", withEnd(fat, func(_ *uint16, s, _ *uint32) { *s = 100 }), one, "directory is more than 1326 bytes"},
		{"data before the archive", append([]byte(strings.Repeat("#!/bin/sh\n", 100)), makeZip(t, files(10))...), lim, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := extract(t, tc.zip, tc.lim)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (!errors.Is(err, ErrBomb) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), nothingExtracted)):
				t.Fatalf("error %v, want ErrBomb saying %q", err, tc.want)
			}
		})
	}
}

// TestDirectoryCostBoundedByTheLimits: a zip whose end record says it
// holds one entry in 100 bytes and whose directory holds n (archive/zip checks only
// the low 16 bits, and reads every header first: 4M entries cost 0.9 GB)
// costs the same at n and 4n: what the limits allow, not what it holds.
// Not parallel: it counts allocations.
func TestDirectoryCostBoundedByTheLimits(t *testing.T) {
	testenv.Long(t)
	lim := Limits{MaxEntries: 100, MaxBytes: 1 << 20}
	zips := map[int][]byte{}
	for _, n := range []int{5000, 5000 * growthtest.Factor} {
		zips[n] = withEnd(makeZip(t, files(n)), func(r *uint16, s, _ *uint32) { *r, *s = 1, 100 })
	}
	growthtest.Bounded(t, "a directory understating its entries", 5000, func(n int) {
		if _, _, err := extract(t, zips[n], lim); !errors.Is(err, ErrBomb) {
			t.Errorf("%d entries: %v, want ErrBomb", n, err)
		}
	})
}
