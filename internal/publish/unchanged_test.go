package publish

import (
	"strings"
	"testing"
)

func TestSameContent(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("openapi ", 20_000) // more than one piece
	cases := []struct {
		name string
		a, b string
		want bool
	}{
		{"the same", long, long, true},
		{"both empty", "", "", true},
		{"the last byte differs", long + "a", long + "b", false},
		{"one is the other's start", long, long + "x", false},
		{"one is empty", "", "x", false},
	}
	for _, tc := range cases {
		if got := sameContent(strings.NewReader(tc.a), strings.NewReader(tc.b), 1<<20); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMemSink(t *testing.T) {
	t.Parallel()
	var m memSink
	m.Write([]byte("hello world"))
	m.Seek(0, 0)
	m.Truncate(0)
	m.Write([]byte("hi"))
	m.Seek(0, 2)
	m.Write([]byte("!"))
	if string(m.buf) != "hi!" {
		t.Errorf("%q, want %q", m.buf, "hi!")
	}
}
