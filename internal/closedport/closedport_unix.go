//go:build unix

package closedport

import (
	"fmt"
	"syscall"
)

// reserve binds a socket without listening: connecting to it is refused,
// and the port stays taken.
func reserve() (string, func(), error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "", nil, err
	}
	syscall.CloseOnExec(fd)
	release := func() { syscall.Close(fd) }
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		release()
		return "", nil, err
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		release()
		return "", nil, err
	}
	return fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port), release, nil
}
