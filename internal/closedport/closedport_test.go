package closedport

import (
	"errors"
	"net"
	"syscall"
	"testing"
)

func TestConnectionsAreRefused(t *testing.T) {
	t.Parallel()
	addr := Addr(t)
	_, err := net.Dial("tcp", addr)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial %s: %v, want connection refused", addr, err)
	}
}
