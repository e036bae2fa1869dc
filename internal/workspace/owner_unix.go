//go:build unix

package workspace

import (
	"os"
	"syscall"
)

// owner is who owns the workspace, when the run is root and they are not:
// a container action runs as root, while the runner's later steps run as
// the workspace's owner and could not remove what root left behind.
type owner struct {
	uid, gid int
	set      bool
}

func ownerOf(root *os.Root) owner {
	if os.Geteuid() != 0 {
		return owner{}
	}
	st, err := root.Stat(".")
	if err != nil {
		return owner{}
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || sys.Uid == 0 {
		return owner{}
	}
	return owner{uid: int(sys.Uid), gid: int(sys.Gid), set: true}
}

func (o owner) give(root *os.Root, name string) error {
	if !o.set {
		return nil
	}
	return root.Lchown(name, o.uid, o.gid)
}
