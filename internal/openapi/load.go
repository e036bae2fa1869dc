package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/docs-publish/docs-publish/internal/memlimit"
	"github.com/go-json-experiment/json/jsontext"
)

// LoadError is a description, or a file it refers to, that cannot be loaded:
// unreadable, invalid, over a limit, or outside the workspace, with where it
// went wrong.
type LoadError struct {
	File string
	Pos  Pos // zero when there is no position
	Msg  string
	Err  error // the cause, when there is one: ErrLimit, ErrOutside, an I/O error
}

func (e *LoadError) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

func (e *LoadError) Unwrap() error { return e.Err }

// ErrNotDescription is the cause of a LoadError for a description that is
// not one: empty, or without a swagger: or openapi: key at its top level.
// Only the file asked for is held to it, not the files its $refs name.
var ErrNotDescription = errors.New("not an API description")

// errEmpty is the cause of a LoadError for a file that holds no document.
var errEmpty = errors.New("empty")

// Load reads the description name (a slash path in fsys, which is also how
// messages name the file) within lim, until ctx ends. When fsys can tell
// where a path leads (RealPather), a link to a hidden file or folder is
// refused.
func Load(ctx context.Context, fsys fs.FS, name string, lim Limits) (*Node, error) {
	return load(ctx, fsys, name, lim, nil)
}

// load is Load, making room in mem for the files it reads.
func load(ctx context.Context, fsys fs.FS, name string, lim Limits, mem *memlimit.Reservation) (*Node, error) {
	bud := newBudget(ctx, lim)
	bud.mem = mem
	if err := checkRealPath(fsys, name); err != nil {
		return nil, &LoadError{File: name, Msg: err.Error(), Err: err}
	}
	data, err := readFile(fsys, name, bud.lim.FileBytes)
	if err != nil {
		return nil, &LoadError{File: name, Msg: describeReadError(err), Err: err}
	}
	bud.file(int64(len(data)))
	return parseDescription(&Source{Name: name, budget: bud}, data)
}

// ReadFile reads a file of fsys that is not a description but is read with
// one (a list of agreed changes, say) by the rules of the files a
// description references: when fsys can tell where a path leads, a link to
// a hidden file or folder is refused (an error whose cause is
// ErrNotAllowed), and a file larger than max is refused (ErrLimit).
func ReadFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	if err := checkRealPath(fsys, name); err != nil {
		return nil, err
	}
	return readFile(fsys, name, max)
}

// readFile reads a file of fsys, refusing one larger than max.
func readFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkOpened(fsys, name, st); err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, &limitError{fmt.Sprintf("the file is %d bytes, more than %s", st.Size(), mib(max))}
	}
	// Read into a buffer of the size the file says, once: growing one
	// would copy a large description several times. A file that grew
	// since is read on, up to the limit.
	data := make([]byte, 0, st.Size()+1)
	for int64(len(data)) <= max {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):min(int64(cap(data)), max+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > max {
		return nil, &limitError{"the file is more than " + mib(max)}
	}
	return data, nil
}

// describeReadError says why a file could not be read, in a user's words.
func describeReadError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, ErrLimit):
		return err.Error() + " (the limit for one file): split the file"
	}
	return err.Error()
}

// Parse reads a description from data.
func Parse(name string, data []byte) (*Node, error) {
	return parseDescription(&Source{Name: name, budget: newBudget(context.Background(), DefaultLimits)}, data)
}

// parseDescription reads the description itself: a file that holds no
// document, or one that is not a description, is ErrNotDescription.
func parseDescription(src *Source, data []byte) (*Node, error) {
	root, err := parseAny(src, data)
	var le *LoadError
	if errors.Is(err, errEmpty) && errors.As(err, &le) {
		// Placed at its first line, an empty description is a fault in
		// what the file holds, as a syntax error is: not a wrong path.
		le.Err, le.Pos = ErrNotDescription, Pos{Line: 1, Col: 1}
	}
	if err != nil {
		return nil, err
	}
	return root, checkDescription(src.Name, root)
}

// parseAny reads any YAML or JSON value: a description or a file of shared
// components it refers to. A document that starts with { or [ takes the JSON
// path; anything else, or JSON-looking YAML that is not valid JSON in a file
// not named .json, is read as YAML.
func parseAny(src *Source, data []byte) (*Node, error) {
	name := src.Name
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM is not content
	var root *Node
	var err error
	if looksLikeJSON(data) {
		before := *src.budget
		isJSON := strings.EqualFold(path.Ext(name), ".json")
		if !isJSON && (plainKeyFirst(data) || !jsontext.Value(data).IsValid()) {
			// YAML in flow style ({type: string}), which parseJSON's
			// decoder refuses (IsValid checks by the same rules): YAML
			// reads it first. JSON's parser state and error cost more
			// than many a small file's tree; they are built only to
			// report a file that is neither, as before.
			if yroot, yerr := parseYAML(src, data); yerr == nil {
				return yroot, nil
			}
			*src.budget = before
			return parseJSON(src, data)
		}
		root, err = parseJSON(src, data)
		if err != nil && !errors.Is(err, ErrLimit) && src.budget.ctx.Err() == nil && !isJSON {
			*src.budget = before // the JSON attempt spent nothing the YAML one keeps
			if yroot, yerr := parseYAML(src, data); yerr == nil {
				root, err = yroot, nil
			}
		}
	} else {
		root, err = parseYAML(src, data)
	}
	return root, err
}

// checkDescription insists on a mapping with a swagger or openapi key.
func checkDescription(name string, root *Node) error {
	if root.Kind != Object {
		return &LoadError{File: name, Pos: root.Pos, Msg: fmt.Sprintf("is neither a YAML nor a JSON API description: its top level is %s %s, not a mapping with a swagger: or openapi: key", article(root.Kind), root.Kind), Err: ErrNotDescription}
	}
	if root.Get("swagger") == nil && root.Get("openapi") == nil {
		return &LoadError{File: name, Pos: root.Pos, Msg: "has no swagger: or openapi: key at its top level, as a Swagger 2.0 or OpenAPI 3.x description has", Err: ErrNotDescription}
	}
	return nil
}

// article is "a" or "an", for a kind's name.
func article(k Kind) string {
	if strings.ContainsAny(k.String()[:1], "aeiou") {
		return "an"
	}
	return "a"
}

func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// plainKeyFirst reports whether data, which looksLikeJSON, opens a mapping
// whose first key is not quoted ({type: string}), which JSON cannot be:
// told from the first bytes, where checking the whole text built a syntax
// error (three allocations, some 150 bytes, for every small file so
// written).
func plainKeyFirst(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	return len(t) > 0 && t[0] != '"' && t[0] != '}'
}

// lineIndex turns byte offsets into line and column.
type lineIndex []int // offsets at which lines start

func newLineIndex(data []byte) lineIndex {
	idx := lineIndex{0}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return idx
		}
		off += i + 1
		idx = append(idx, off)
	}
}

func (idx lineIndex) pos(off int64) Pos {
	lo, hi := 0, len(idx)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if int64(idx[mid]) <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{Line: int32(lo + 1), Col: int32(off-int64(idx[lo])) + 1}
}

// Faults is a description that did not load whole: the LoadErrors at
// places in it, and what Validate found in everything that did load, so
// that one run shows every fault. Nothing of it was written.
type Faults struct {
	Load     LoadErrors
	Findings []Finding
}

// Error sums the faults up: how many errors, in how many files.
func (e *Faults) Error() string {
	errs, files := e.Count()
	return fmt.Sprintf("%s in %s", plural(errs, "error"), plural(files, "file"))
}

// Unwrap gives the load errors, for errors.As.
func (e *Faults) Unwrap() error { return e.Load }

// Count is how many errors there are (load errors and Validate's errors),
// and in how many files.
func (e *Faults) Count() (errs, files int) {
	in := map[string]bool{}
	for _, le := range e.Load {
		errs++
		in[le.File] = true
	}
	for _, f := range e.Findings {
		if f.Severity == Error {
			errs++
			in[f.File] = true
		}
	}
	return errs, len(in)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
