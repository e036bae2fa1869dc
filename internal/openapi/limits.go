package openapi

import (
	"cmp"
	"errors"
	"fmt"
)

// Limits bound what loading one description may cost, whoever wrote it: a
// description is input from anyone who can open a pull request.
type Limits struct {
	// FileBytes bounds one file.
	FileBytes int64
	// TotalBytes bounds all the files of a description together.
	TotalBytes int64
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
	FileBytes:        256 << 20,
	TotalBytes:       512 << 20,
	Files:            20_000,
	ExpandedBytes:    64 << 20,
	Depth:            1_000,
	DepthAcrossFiles: 10_000,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	return Limits{
		FileBytes:        cmp.Or(l.FileBytes, d.FileBytes),
		TotalBytes:       cmp.Or(l.TotalBytes, d.TotalBytes),
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
