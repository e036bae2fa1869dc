//go:build !unix

package workspace

import "os"

type owner struct{}

func ownerOf(*os.Root) owner { return owner{} }

func (owner) give(*os.Root, string) error { return nil }
