package publish

import (
	"errors"
	"testing"
)

// TestByteSizeReadsEveryUnit: max-download-size is read in the unit the
// workflow wrote, binary or decimal, and a size too large to hold, zero
// or negative is refused with what to write instead.
func TestByteSizeReadsEveryUnit(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"1048576": 1 << 20, "10b": 10, "2k": 2 << 10, "2KiB": 2 << 10, "3kb": 3000,
		"5m": 5 << 20, "500MiB": 500 << 20, "7MB": 7_000_000,
		"1g": 1 << 30, " 1GiB ": 1 << 30, "2GB": 2_000_000_000,
	} {
		var b ByteSize
		if err := b.EnvDecode(in); err != nil || int64(b) != want {
			t.Errorf("%q read as %d (%v), want %d", in, int64(b), err, want)
		}
	}
	for _, in := range []string{"0", "-1MiB", "1.5GiB", "MiB", "4611686018427387905", "4294967297GiB", "4611686018427387905b"} {
		var b ByteSize
		var ve *ValueError
		if err := b.EnvDecode(in); !errors.As(err, &ve) {
			t.Errorf("%q read as %d, want a refusal", in, int64(b))
		}
	}
	var b ByteSize
	if err := b.EnvDecode("4GiB"); err != nil || int64(b) != 4<<30 {
		t.Errorf("4GiB read as %d (%v)", int64(b), err)
	}
}

// TestByteSizeSaysTheSizeAsWritten: a message about max-download-size
// says it in the unit a workflow writes where the size is a whole one.
func TestByteSizeSaysTheSizeAsWritten(t *testing.T) {
	t.Parallel()
	for size, want := range map[ByteSize]string{
		1 << 30: "1GiB", 3 << 30: "3GiB", 1 << 20: "1MiB", 1536 << 20: "1536MiB", 500 << 20: "500MiB",
		1<<20 + 1: "1048577 bytes", 1 << 10: "1024 bytes", 7_000_000: "7000000 bytes",
	} {
		if got := size.String(); got != want {
			t.Errorf("%d bytes said as %q, want %q", int64(size), got, want)
		}
	}
}

// TestCheckSegmentRefusesControlCharacters: a name with a control
// character (which a log line or a header could be split at) is refused,
// wherever it is in the name;
// a space is not one.
func TestCheckSegmentRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	for v, refused := range map[string]bool{"a\x1fb.yml": true, "a\x7fb.yml": true, "a\x00.yml": true, "\ta.yml": true, "a b.yml": false, "a~b.yml": false, "é.yml": false} {
		err := checkSegment("file-name", v)
		var ie *InputError
		if refused != errors.As(err, &ie) {
			t.Errorf("%q: %v, want refused %v", v, err, refused)
		}
	}
}
