//go:build !linux

package workspace

// replaceFile moves the file tmp to target, replacing a file there.
func (w *Workspace) replaceFile(tmp, target string) error {
	return w.root.Rename(tmp, target)
}
