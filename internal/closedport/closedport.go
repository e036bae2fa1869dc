// Package closedport gives tests a loopback address where connections are
// refused, as they are where nothing listens, and that no other test can
// take meanwhile.
package closedport

import "testing"

// Addr is a loopback host:port where connections are refused, until the
// test ends.
func Addr(t testing.TB) string {
	t.Helper()
	addr, release, err := reserve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return addr
}

// URL is Addr as an http:// address.
func URL(t testing.TB) string { return "http://" + Addr(t) }
