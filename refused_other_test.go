//go:build !unix

package main

import "net"

// closedURL is an address where connections are refused: a port just let
// go of (another test may take it again, rarely).
var closedURL = func() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}()
