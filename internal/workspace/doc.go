// Package workspace confines what a run reads and writes to the workspace,
// the one directory a workflow's later steps share with it.
//
// Every path resolves inside the workspace with symbolic links followed
// (through os.Root, so a link or a linked folder that points out is refused
// when it is used, not only by its text). Reads take regular files only,
// opened without blocking, so a FIFO or a device is refused instead of
// hanging or streaming forever. Writes are atomic: a file or a folder is
// written beside its target under a temporary name and renamed into place
// complete, readable by later steps (0644 files, 0755 folders) and owned by
// the workspace's owner when the run is root in a container.
package workspace
