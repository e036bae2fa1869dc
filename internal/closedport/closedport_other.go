//go:build !unix

package closedport

import "net"

// reserve takes a free port and lets it go: connecting is refused until
// something else takes it, which is rare.
func reserve() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr, func() {}, nil
}
