package docsapi

import (
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"
)

// unansweredURL is a loopback address whose connections are never
// answered, as a host behind a firewall that drops them: a listener with a
// full accept queue, on which Linux drops new connections unanswered.
func unansweredURL(t *testing.T) (string, bool) {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil { // a queue of one, never accepted
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	// Fill the queue; then check that a connection is indeed not answered.
	for range 2 {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			t.Cleanup(func() { c.Close() })
		}
	}
	if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
		c.Close()
		t.Logf("connections to a full accept queue are answered here: the connect timeout case is not run")
		return "", false
	}
	return "https://" + addr, true
}
