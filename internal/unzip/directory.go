package unzip

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ErrBomb is the cause of a refusal for size: an archive whose central
// directory is larger than its limits allow.
var ErrBomb = errors.New("refused as a possible zip bomb")

// Records of the zip format that checkDirectory reads (APPNOTE 4.3.12,
// 4.3.14–16).
const (
	dirHeaderSig = 0x02014b50 // central directory file header
	dirHeaderLen = 46
	endSig       = 0x06054b50 // end of central directory record
	endLen       = 22
	end64LocSig  = 0x07064b50 // zip64 end of central directory locator
	end64LocLen  = 20
	end64Sig     = 0x06064b50 // zip64 end of central directory record
	end64Len     = 56
)

// maxDirBytesPerEntry is what the central directory may hold per entry
// allowed: the fixed header, the longest name allowed, and room for extra
// fields and a comment.
const maxDirBytesPerEntry = dirHeaderLen + maxName + 256

// checkDirectory refuses, before archive/zip parses the central directory
// (one allocation per entry, whatever the limits: 4M entries cost 0.9 GB),
// a zip whose end record, or zip64 end record, says it holds more entries
// than lim allows, and one whose directory holds more entries or bytes than
// that, counted in one pass that allocates nothing per entry. archive/zip
// checks only the low 16 bits of the count and reads headers until one does
// not parse, so the count alone proves nothing: the pass walks the headers
// from where archive/zip starts, as it does. An archive whose end record
// cannot be read is left to archive/zip to refuse.
func checkDirectory(r io.ReaderAt, size int64, lim Limits) error {
	end, starts, ok := readEnd(r, size)
	if !ok {
		return nil
	}
	if end.records > uint64(lim.MaxEntries) {
		return fmt.Errorf("zip's end record says it holds %d entries, more than %d: %w", end.records, lim.MaxEntries, ErrBomb)
	}
	maxBytes := int64(lim.MaxEntries) * maxDirBytesPerEntry
	if end.size > uint64(maxBytes) {
		return fmt.Errorf("zip's end record says its directory is %d bytes, more than %d for %d entries: %w", end.size, maxBytes, lim.MaxEntries, ErrBomb)
	}
	for _, start := range starts {
		if err := walkDirectory(r, start, size, lim.MaxEntries, maxBytes); err != nil {
			return err
		}
	}
	return nil
}

// walkDirectory counts the central directory headers from start on, as
// archive/zip reads them (until one is cut short or lacks its signature),
// and refuses more than maxEntries of them or more than maxBytes.
func walkDirectory(r io.ReaderAt, start, size int64, maxEntries int, maxBytes int64) error {
	br := bufio.NewReader(io.NewSectionReader(r, start, size-start))
	var h [dirHeaderLen]byte
	var total int64
	for n := 0; ; n++ {
		if _, err := io.ReadFull(br, h[:]); err != nil || binary.LittleEndian.Uint32(h[:]) != dirHeaderSig {
			return nil
		}
		rest := int(binary.LittleEndian.Uint16(h[28:])) + int(binary.LittleEndian.Uint16(h[30:])) + int(binary.LittleEndian.Uint16(h[32:]))
		if _, err := br.Discard(rest); err != nil {
			return nil
		}
		if n+1 > maxEntries {
			return fmt.Errorf("zip's directory holds more than %d entries: %w", maxEntries, ErrBomb)
		}
		if total += int64(dirHeaderLen + rest); total > maxBytes {
			return fmt.Errorf("zip's directory is more than %d bytes for %d entries: %w", maxBytes, maxEntries, ErrBomb)
		}
	}
}

// dirEnd is what the end record (or the zip64 one) says of the directory.
type dirEnd struct {
	records, size, offset uint64
}

// readEnd finds the end record as archive/zip does (the last signature in
// the last 65 KiB whose comment fits), and the zip64 end record it points
// to, and returns where archive/zip may start reading headers: the offset
// the record gives, from the base offset the records imply, and from the
// file's start when that base is not zero (archive/zip takes either). ok
// is false where archive/zip would refuse the records.
func readEnd(r io.ReaderAt, size int64) (end dirEnd, starts []int64, ok bool) {
	tail := min(size, 65*1024)
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && !errors.Is(err, io.EOF) {
		return end, nil, false
	}
	p := -1
	for i := len(buf) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) == endSig {
			if int(binary.LittleEndian.Uint16(buf[i+20:]))+endLen+i <= len(buf) {
				p = i
			}
			break
		}
	}
	if p < 0 {
		return end, nil, false
	}
	endAt := size - tail + int64(p)
	b := buf[p:]
	end = dirEnd{
		records: uint64(binary.LittleEndian.Uint16(b[10:])),
		size:    uint64(binary.LittleEndian.Uint32(b[12:])),
		offset:  uint64(binary.LittleEndian.Uint32(b[16:])),
	}
	if end.records == 0xffff || end.size == 0xffff || end.offset == 0xffffffff {
		if at, ok := end64At(r, endAt); ok {
			var e [end64Len]byte
			if _, err := r.ReadAt(e[:], at); err != nil || binary.LittleEndian.Uint32(e[:]) != end64Sig {
				return end, nil, false
			}
			endAt = at
			end = dirEnd{
				records: binary.LittleEndian.Uint64(e[32:]),
				size:    binary.LittleEndian.Uint64(e[40:]),
				offset:  binary.LittleEndian.Uint64(e[48:]),
			}
		}
	}
	if end.size > 1<<63-1 || end.offset > 1<<63-1 {
		return end, nil, false
	}
	base := endAt - int64(end.size) - int64(end.offset)
	start := base + int64(end.offset)
	if start < 0 || start >= size {
		return end, nil, false
	}
	starts = []int64{start}
	if base > 0 && int64(end.offset) < size {
		starts = append(starts, int64(end.offset))
	}
	return end, starts, true
}

// end64At is where the zip64 end locator just before the end record at
// endAt says the zip64 end record is; ok is false without a valid locator.
func end64At(r io.ReaderAt, endAt int64) (int64, bool) {
	if endAt < end64LocLen {
		return 0, false
	}
	var l [end64LocLen]byte
	if _, err := r.ReadAt(l[:], endAt-end64LocLen); err != nil {
		return 0, false
	}
	if binary.LittleEndian.Uint32(l[:]) != end64LocSig || binary.LittleEndian.Uint32(l[4:]) != 0 || binary.LittleEndian.Uint32(l[16:]) != 1 {
		return 0, false
	}
	at := binary.LittleEndian.Uint64(l[8:])
	if at > 1<<63-1 {
		return 0, false
	}
	return int64(at), true
}
