package closedport

import (
	"errors"
	"net"
	"net/http"
	"net/url"
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

// TestURLIsRefused: URL is a plain http:// address that an HTTP client
// tries, and is refused at.
func TestURLIsRefused(t *testing.T) {
	t.Parallel()
	u := URL(t)
	if p, err := url.Parse(u); err != nil || p.Scheme != "http" || p.Port() == "" {
		t.Fatalf("URL %q: %v, want http://host:port", u, err)
	}
	resp, err := http.Get(u)
	if err == nil {
		resp.Body.Close()
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("GET %s: %v, want connection refused", u, err)
	}
}
