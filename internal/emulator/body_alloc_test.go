package emulator

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"testing"
)

// TestBodyReadAsItArrives: a request that announces a body of 200 MiB (under
// the 256 MiB cap) and sends a few bytes costs the emulator about what it
// sent, not what it announced. The test is not parallel: it measures the
// bytes the whole process allocates while the request is served.
func TestBodyReadAsItArrives(t *testing.T) {
	s := start(t, Config{})
	const announced = 200 << 20
	send := func(t *testing.T, announced int64, body string) int {
		t.Helper()
		conn, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "PUT /projects/4711/files/openapi.yml HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s", s.Addr(), token, announced, body)
		conn.(*net.TCPConn).CloseWrite() // the body ends here, short of what was announced
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	send(t, 10, "0123456789") // the server's first request costs what any costs
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code := send(t, announced, "openapi: 3.0.0\n")
	runtime.ReadMemStats(&after)
	if code != http.StatusBadRequest {
		t.Errorf("a body cut short: %d, want 400", code)
	}
	if took := after.TotalAlloc - before.TotalAlloc; took > 16<<20 {
		t.Errorf("a request announcing %d MiB and sending 15 bytes allocated %d MiB", announced>>20, took>>20)
	}
}

// TestBodyReadWhole: bodies of every size around the buffer's first size
// and its doublings arrive whole, as announced or not.
func TestBodyReadWhole(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, firstBodyRead - 1, firstBodyRead, firstBodyRead + 1, 3*firstBodyRead + 7} {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(i * 7)
		}
		for _, length := range []int64{int64(n), -1} {
			got, err := readBody(trickled(body), length, 1<<30)
			if err != nil || string(got) != string(body) {
				t.Errorf("a body of %d bytes (announced %d): %d bytes back, %v", n, length, len(got), err)
			}
		}
	}
}

// trickled reads b a few bytes at a time, as a network does.
func trickled(b []byte) io.Reader { return &trickle{b: b} }

type trickle struct{ b []byte }

func (r *trickle) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1000)], r.b)
	r.b = r.b[n:]
	return n, nil
}
