package publish

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/openapi"
	"github.com/docs-publish/docs-publish/internal/report"
)

// A change is annotated where it is written, so that GitHub shows it beside
// the line of the pull request that made it: at its new form in the head,
// in whichever file of the description holds it; for a removal, at the
// nearest place above it that the head still has (a removed enum value at
// its enum, a removed operation at its path). When the head has nothing
// left of it, a removal is annotated where the base wrote it if the base is
// a workspace file of its own (base-file); a base commit's lines are not
// the head's, so the removal is annotated at the head's `paths:` (or
// `components:`), or on the main file, saying where the base had it. The
// comparison says where by JSON pointers into the bundled documents, and
// the bundled trees keep the file, line and column each value was written
// at.

// placer finds where changes are written.
type placer struct {
	f *flow
	b *base
	// baseDoc is the base's tree, read when first called (baseAgain);
	// nil: no base.
	baseDoc func() *openapi.Node
	// headFile is the head's file, read once a pointer reached past what
	// the upload's tree holds: the tree of a description read in a single
	// pass (one JSON file) keeps only what validation reads, and the rest
	// is found in the file's text.
	headFile []byte
	triedIt  bool
}

// unitDepth is how deep a pointer names one path item or component
// (/paths/{path}, /components/{section}/{name}): a removal is annotated no
// higher in the head.
func unitDepth(toks []string) int {
	if len(toks) > 0 && toks[0] == "components" {
		return 3
	}
	return 2
}

// where is where ch is written, what the annotation adds to say so (where
// the base had a removal annotated elsewhere), and whether the comparison
// said.
func (p *placer) where(ch apidiff.Change) (report.Where, string, bool) {
	if !p.f.head.bundled {
		// The upload keeps its $refs (bundle: false): the comparison's
		// places are the bundle's, not the upload's.
		return report.Where{}, "", false
	}
	if ch.HeadPointer != "" {
		toks := throughPath(tokens(ch.HeadPointer), ch.Path)
		if w, n := p.inHead(toks); n == len(toks) {
			return w, "", true
		}
	}
	if ch.BasePointer == "" {
		return report.Where{}, "", false
	}
	toks := throughPath(tokens(ch.BasePointer), ch.Path)
	w, n := p.inHead(toks)
	if n >= unitDepth(toks) && n > 0 {
		return w, "", true
	}
	was, found, _ := locate(treeOf(p.baseDoc), toks)
	if found != len(toks) || was.File == "" {
		return report.Where{}, "", false
	}
	if n < 1 {
		w = report.Where{File: p.f.plan.File}
	}
	at, note := p.removed(w, was)
	return at, note, true
}

// removed is where a removal that the base wrote at was is annotated: there
// when the base is a workspace file of its own; else at inHead, the head's
// nearest place above it, with a note that says where the base had it.
func (p *placer) removed(inHead, was report.Where) (report.Where, string) {
	if p.b.ownFile {
		return was, ""
	}
	return inHead, fmt.Sprintf("removed: the base has it at line %d of %s", was.Line, was.File)
}

// atOperation, for a change the comparison gives no place for, is where
// its operation is written in the head, or for an operation the change
// removed, where removed places it: in the base, or at its path in the
// head (the head's paths when the path went too); a change to no one
// operation is about the description's main file.
func (p *placer) atOperation(ch apidiff.Change) (report.Where, string) {
	main := report.Where{File: p.f.plan.File}
	if ch.Path == "" {
		return main, ""
	}
	if op := openapi.Operation(p.f.head.doc, ch.Path, ch.Operation); op != nil && op.Value.Src != nil {
		return report.Where{File: op.Value.Src.Name, Line: int(op.KeyPos.Line), Col: int(op.KeyPos.Col)}, ""
	}
	// The base's tree is nil when it could not be read again.
	base := treeOf(p.baseDoc)
	if base == nil {
		return main, ""
	}
	op := openapi.Operation(base, ch.Path, ch.Operation)
	if op == nil || op.Value.Src == nil {
		return main, ""
	}
	// The nearest place the head still has: the operation's path, else
	// the paths.
	inHead := main
	if w, n, _ := locate(p.f.head.doc, []string{"paths", ch.Path}); n >= 1 && w.File != "" {
		inHead = w
	}
	return p.removed(inHead, report.Where{File: op.Value.Src.Name, Line: int(op.KeyPos.Line), Col: int(op.KeyPos.Col)})
}

// inHead is the deepest place of toks that the head holds, and how many
// tokens deep it is.
func (p *placer) inHead(toks []string) (report.Where, int) {
	w, n, partial := locate(p.f.head.doc, toks)
	if n == len(toks) || !partial || !p.f.head.onePass {
		return w, n
	}
	if !p.triedIt {
		p.triedIt = true
		p.headFile, _ = readUpTo(p.f.ws.FS(), p.f.plan.File, openapi.DefaultLimits.FileBytes)
	}
	if line, col, k := placeInJSON(p.headFile, toks); k > n {
		return report.Where{File: p.f.plan.File, Line: line, Col: col}, k
	}
	return w, n
}

// placeInJSON is where the deepest value of toks that a JSON text holds is
// written (a member at its key, an item where it starts), and how many
// tokens deep it is; 0 when the text holds none of it. It reads down the
// path, skipping every other value whole.
func placeInJSON(data []byte, toks []string) (line, col, depth int) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	var at int64 = -1
	kind := dec.PeekKind()
	if kind != '{' && kind != '[' {
		return 0, 0, 0
	}
	if _, err := dec.ReadToken(); err != nil {
		return 0, 0, 0
	}
	for depth < len(toks) {
		found := false
		for i := 0; dec.PeekKind() != '}' && dec.PeekKind() != ']' && dec.PeekKind() != 0; i++ {
			from := dec.InputOffset()
			if kind == '{' {
				name, err := dec.ReadToken()
				if err != nil {
					return place(data, at, depth)
				}
				found = name.String() == toks[depth]
			} else {
				found = strconv.Itoa(i) == toks[depth]
			}
			if found {
				depth, at = depth+1, from
				break
			}
			if dec.SkipValue() != nil {
				return place(data, at, depth)
			}
		}
		if !found || depth == len(toks) {
			break
		}
		if kind = dec.PeekKind(); kind != '{' && kind != '[' {
			break
		}
		if _, err := dec.ReadToken(); err != nil {
			break
		}
	}
	return place(data, at, depth)
}

// place is the line and column of the token at or after offset at.
func place(data []byte, at int64, depth int) (line, col, d int) {
	if at < 0 {
		return 0, 0, 0
	}
	// The token starts after the separators before it.
	for at < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[at]) >= 0 {
		at++
	}
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	return bytes.Count(data[:at], []byte{'\n'}) + 1, int(at) - start + 1, depth
}

// tokens splits a JSON pointer.
func tokens(pointer string) []string {
	toks := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// locate follows toks from root as far as the tree goes, through the
// local $refs it meets (a path item a bundle lifted into components): the
// place of the deepest value reached (a member at its key, an item where
// it starts; a value reached through a $ref, where the $ref leads), how
// many tokens that took (-1 when root is nil or has no file), and whether
// it stopped at a value the tree holds only in part.
func locate(root *openapi.Node, toks []string) (report.Where, int, bool) {
	if root == nil || root.Src == nil {
		return report.Where{}, -1, true
	}
	n := root
	w := report.Where{File: root.Src.Name, Line: int(root.Pos.Line), Col: int(root.Pos.Col)}
	hops := 0 // $refs followed since the last token: a cycle of them ends
	for i := 0; i < len(toks); {
		var next *openapi.Node
		pos := openapi.Pos{}
		switch n.Kind {
		case openapi.Object:
			for j := range n.Fields() {
				if n.Fields()[j].Key == toks[i] {
					next, pos = n.Fields()[j].Value, n.Fields()[j].KeyPos
					break
				}
			}
		case openapi.Array:
			if k, err := strconv.Atoi(toks[i]); err == nil && k >= 0 && k < len(n.Elems()) {
				next = n.Items()[k]
				pos = next.Pos
			}
		}
		if next == nil && hops < maxHops {
			if target := localTarget(root, n); target != nil && target.Src != nil {
				n, hops = target, hops+1
				continue
			}
		}
		if next == nil || next.Src == nil {
			return w, i, n.Partial()
		}
		n, hops, i = next, 0, i+1
		w = report.Where{File: next.Src.Name, Line: int(pos.Line), Col: int(pos.Col)}
	}
	return w, len(toks), false
}

// maxHops is how many $refs in a row locate follows.
const maxHops = 8

// localTarget is what the local $ref n holds names in root, or nil.
func localTarget(root, n *openapi.Node) *openapi.Node {
	ref := n.Get("$ref")
	if ref == nil || ref.Kind != openapi.String || !strings.HasPrefix(ref.Scalar(), "#") {
		return nil
	}
	u, err := url.Parse(ref.Scalar())
	if err != nil {
		return nil
	}
	target, err := openapi.Resolve(root, u.Fragment)
	if err != nil {
		return nil
	}
	return target
}

// throughPath is toks, a place in the path item components/pathItems/X,
// as a place under path, whose path item the change is about: the same
// value, reached as the description's reader reaches it. A side's path
// may hold the path item itself, or a $ref to a component of another name
// than the other side's; and a lifted component's key is written nowhere,
// while the path's is. Other places are as they are.
func throughPath(toks []string, path string) []string {
	if path == "" || len(toks) < 3 || toks[0] != "components" || toks[1] != "pathItems" {
		return toks
	}
	return append([]string{"paths", path}, toks[3:]...)
}

// annotation is one annotation of breaking changes: a change, and the
// other operations that the same change to a shared part reaches.
type annotation struct {
	change apidiff.Change
	where  report.Where
	note   string   // where the base had a removal annotated elsewhere
	also   []string // "GET /books/{bookId}"
}

// annotations groups the breaking changes by what they are and where they
// are written: a change to a shared component reaches every operation that
// uses it, and is annotated once, at the component; different changes at
// one place (the values removed from one enum) are one annotation each.
func (p *placer) annotations(changes []apidiff.Change) []annotation {
	var out []annotation
	at := map[string]int{}
	for _, ch := range changes {
		if ch.Level != apidiff.Breaking {
			continue
		}
		w, note, placed := p.where(ch)
		if !placed {
			w, note = p.atOperation(ch)
			out = append(out, annotation{change: ch, where: w, note: note})
			continue
		}
		key := strings.Join([]string{ch.ID, ch.Text, note, w.File, strconv.Itoa(w.Line), strconv.Itoa(w.Col)}, "\x00")
		if i, ok := at[key]; ok {
			if op := strings.TrimSpace(ch.Operation + " " + ch.Path); op != "" {
				out[i].also = append(out[i].also, op)
			}
			continue
		}
		at[key] = len(out)
		out = append(out, annotation{change: ch, where: w, note: note})
	}
	return out
}

// message is the annotation's text: the change, where the base had it
// when it is annotated elsewhere, and where else it reaches.
func (a annotation) message() string {
	s := "breaking change: " + changeLine(a.change)
	if a.note != "" {
		s += "; " + a.note
	}
	if len(a.also) > 0 {
		s += "; also at " + strings.Join(a.also, ", ")
	}
	return s
}
