package publish

import (
	"bytes"
	"io"
	"io/fs"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/docs-publish/docs-publish/internal/openapi"
)

// A base is compared as it is. A key written twice in a JSON file makes a
// head invalid, but a published base may hold one (GitHub's own
// description did), and JSON parsers, oasdiff among them, read the last
// copy: the base is read so too, with its other files as they are.

// lastKeyWins is data with each member of an object that a later member of
// the same name replaces blanked out, its line breaks kept, so that every
// place in the file keeps its line and column; and how many there were.
// data itself when it holds none or is no JSON.
func lastKeyWins(data []byte) ([]byte, int) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	type span struct{ start, end int64 }
	var blank []span
	var walk func() error
	walk = func() error {
		switch dec.PeekKind() {
		case '{':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			seen := map[string]span{}
			for dec.PeekKind() != '}' {
				k, err := dec.ReadValue()
				if err != nil {
					return err
				}
				start := dec.InputOffset() - int64(len(k))
				name, err := jsontext.AppendUnquote(nil, k)
				if err != nil {
					return err
				}
				if err := walk(); err != nil {
					return err
				}
				if first, ok := seen[string(name)]; ok {
					blank = append(blank, first)
				}
				// The earlier copy goes with the comma after it: a later
				// copy follows it, so there is one, past white space only
				// (the white space after each member is read once: a
				// search further would read on to the next comma, for the
				// last member of every object).
				end := dec.InputOffset()
				i := end
				for i < int64(len(data)) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
					i++
				}
				if i < int64(len(data)) && data[i] == ',' {
					end = i + 1
				}
				seen[string(name)] = span{start, end}
			}
			_, err := dec.ReadToken()
			return err
		case '[':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			for dec.PeekKind() != ']' {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err := dec.ReadToken()
			return err
		}
		_, err := dec.ReadValue()
		return err
	}
	if err := walk(); err != nil || len(blank) == 0 {
		return data, 0
	}
	out := bytes.Clone(data)
	for _, s := range blank {
		for i := s.start; i < s.end; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	return out, len(blank)
}

// lastKeyFS is a base's files with lastKeyWins applied to each: the
// loader's own checks (sizes, links, where a path leads) see the files as
// they are.
type lastKeyFS struct {
	fs.FS
	max int64 // a file larger is given as it is, for the loader to refuse
}

// lastKeyRealFS is lastKeyFS over files that can tell where a path leads.
type lastKeyRealFS struct {
	lastKeyFS
	openapi.RealPather
}

// withLastKeys is fsys read with the last copy of each key winning.
func withLastKeys(fsys fs.FS) fs.FS {
	l := lastKeyFS{fsys, openapi.DefaultLimits.FileBytes}
	if rp, ok := fsys.(openapi.RealPather); ok {
		return lastKeyRealFS{l, rp}
	}
	return l
}

func (l lastKeyFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(l.FS, name) }

func (l lastKeyFS) Open(name string) (fs.File, error) {
	f, err := l.FS.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > l.max {
		// As it is, for the loader to say what is wrong with it.
		return f, nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, l.max+1))
	if err != nil {
		return nil, err
	}
	data, _ = lastKeyWins(data)
	return &memFile{Reader: bytes.NewReader(data), info: st}, nil
}

// memFile is a file's content in memory, with the file's own information.
type memFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m.info, nil }
func (m *memFile) Close() error               { return nil }
