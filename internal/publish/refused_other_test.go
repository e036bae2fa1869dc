//go:build !unix

package publish

import (
	"net"
	"testing"
)

// refusedAddr is a loopback address where connections are refused: a port
// just let go of (another test may take it again, rarely).
func refusedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
