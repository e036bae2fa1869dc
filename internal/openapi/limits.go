package openapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/docs-publish/docs-publish/internal/memlimit"
)

// Limits bound what loading one description may cost, whoever wrote it: a
// description is input from anyone who can open a pull request.
type Limits struct {
	// FileBytes bounds one file; at most maxFileBytes.
	FileBytes int64
	// TotalBytes bounds all the files of a description together.
	TotalBytes int64
	// Values bounds the values (keys, scalars, mappings, sequences) of all
	// the files of a description together: what parsing holds in memory.
	Values int64
	// DocumentBytes bounds the document written out (the upload).
	DocumentBytes int64
	// Files bounds how many files a description may refer to.
	Files int
	// ExpandedBytes bounds what YAML aliases and inlined $refs may add to
	// the document, counted as the JSON they become.
	ExpandedBytes int64
	// Depth bounds the nesting of one file.
	Depth int
	// DepthAcrossFiles bounds nesting counted on through the $refs that
	// lead from file to file.
	DepthAcrossFiles int
}

// DefaultLimits fit the largest real descriptions (GitHub's REST API, 13 MB
// as JSON, 73 MB dereferenced; multi-file descriptions of thousands of
// files) many times over.
var DefaultLimits = Limits{
	FileBytes:        128 << 20,
	TotalBytes:       256 << 20,
	Values:           20_000_000,
	DocumentBytes:    512 << 20,
	Files:            20_000,
	ExpandedBytes:    64 << 20,
	Depth:            1_000,
	DepthAcrossFiles: 10_000,
}

// maxFileBytes caps FileBytes: a node counts its text, members and
// elements in int32 (node.go), and a packed list's text is at most a few
// times its file.
const maxFileBytes = 512 << 20

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	return Limits{
		FileBytes:        min(cmp.Or(l.FileBytes, d.FileBytes), maxFileBytes),
		TotalBytes:       cmp.Or(l.TotalBytes, d.TotalBytes),
		Values:           cmp.Or(l.Values, d.Values),
		DocumentBytes:    cmp.Or(l.DocumentBytes, d.DocumentBytes),
		Files:            cmp.Or(l.Files, d.Files),
		ExpandedBytes:    cmp.Or(l.ExpandedBytes, d.ExpandedBytes),
		Depth:            cmp.Or(l.Depth, d.Depth),
		DepthAcrossFiles: cmp.Or(l.DepthAcrossFiles, d.DepthAcrossFiles),
	}
}

// ErrLimit is the cause of a LoadError for a description over a limit.
var ErrLimit = errors.New("over a limit of docs-publish")

// ErrOutside is the cause of a LoadError for a $ref to a file outside the
// files a description may read (the workspace).
var ErrOutside = errors.New("outside the workspace")

// ErrNotAllowed is the cause of a LoadError for a $ref to a hidden file or a
// file inside .git: they hold credentials, not descriptions.
var ErrNotAllowed = errors.New("a file a $ref may not name")

// budget is what one description, all its files together, may still spend,
// and the context that may stop the work.
type budget struct {
	ctx      context.Context
	lim      Limits
	values   int64 // values parsed
	aliased  int64 // values aliases added
	expanded int64 // bytes of JSON aliases and inlined $refs added
	// read is the bytes of the files read, main and referenced; mem, when
	// set, keeps room for the tree they make in the collector's limit.
	read int64
	mem  *memlimit.Reservation
	// kept: the values read are what the single pass kept (it reads one
	// file, with a budget of its own).
	kept bool
}

// memoryPerByte is the room in the collector's soft limit (see memlimit) a
// description's tree is given per byte of its files, while it is prepared:
// about what the densest shapes keep live, so that the heap follows what is
// live instead of growing to twice it, and no more than the 10 bytes a
// byte a description may take.
const memoryPerByte = 8

// file counts n bytes of a file read, and makes room for them.
func (b *budget) file(n int64) {
	b.read += n
	b.mem.Set(memoryPerByte * b.read)
}

func newBudget(ctx context.Context, lim Limits) *budget {
	return &budget{ctx: ctx, lim: lim.withDefaults()}
}

// value counts one parsed value, and now and then checks that the work is
// still wanted. It returns a limit error or the context's error.
func (b *budget) value() error {
	b.values++
	if b.values > b.lim.Values {
		return &limitError{fmt.Sprintf("the description holds more than %d values (the limit of docs-publish)", b.lim.Values)}
	}
	if b.values%(1<<16) == 0 {
		return b.ctx.Err()
	}
	return nil
}

// limitError is a limit hit, with ErrLimit as its cause.
type limitError struct{ msg string }

func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == ErrLimit }

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
