package apidiff

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/docs-publish/docs-publish/internal/report"
	"io"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/flatten/headers"
	"github.com/oasdiff/oasdiff/load"
)

// Level is how a change affects the API's clients.
type Level int

// The levels, from the least to the most serious.
const (
	Info     Level = iota // safe for clients: an addition, a relaxed rule
	Warning               // may affect some clients
	Breaking              // breaks clients written against the base
)

func (l Level) String() string {
	switch l {
	case Breaking:
		return "breaking"
	case Warning:
		return "warning"
	}
	return "info"
}

// Change is one change between the base and the head.
type Change struct {
	ID        string // the check that found it, such as "api-path-removed-without-deprecation"
	Level     Level
	Operation string // the HTTP method in upper case; "" for a change to no one operation
	Path      string // the path template the operation is under; "" when none
	Text      string // what changed, in English
	// HeadPointer is where a breaking change is written in the head, as a
	// JSON pointer into the head document (the new form of a changed or
	// added value; for a removal, often its parent); BasePointer is where
	// it was written in the base. Each is "" when the library does not
	// say, for the other changes, and for breaking changes beyond what the
	// comparison places (parts.go).
	HeadPointer, BasePointer string
}

// Report is what the head's change does to the API, most serious first.
// A comparison keeps at most MaxKept changes, and as many agreed ones,
// and counts the others: a change to a schema that a thousand operations
// share is a thousand changes, so their number can grow faster than the
// descriptions.
type Report struct {
	Changes []Change
	// Accepted are breaking changes and warnings that an ignore file lists as
	// agreed; they are not in Changes.
	Accepted []Change

	omitted         [Breaking + 1]int // changes not kept, by level
	omittedAccepted int               // agreed changes not kept

	// unusedIgnore are the ignore lines about a path of either description
	// that agreed to no change of the comparison.
	unusedIgnore []IgnoreLine

	// scopes are, for Accept, what kind of change each of Changes is, as
	// the library matches ignore lines: "" for a change to an operation,
	// else the word a line about it holds ("components", "info",
	// "security"). The library's own changes are not kept: they hold its
	// whole diff, 30 bytes a byte of the descriptions.
	scopes []string
}

// IgnoreLine is a line of an ignore file.
type IgnoreLine struct {
	Number int    // counted from 1
	Text   string // as written
}

// UnusedIgnore are the lines of the ignore file a comparison was given
// (CompareAccepting) that agreed to no change of it although they are about
// a path of the base or the head: mistyped, or stale. Lines about paths
// neither description has (the file may serve other APIs), lines without a
// path, and every line of a comparison of descriptions that say the same,
// are not among them.
func (r *Report) UnusedIgnore() []IgnoreLine {
	return r.unusedIgnore
}

// MaxKept is the most changes, and the most agreed changes, a comparison
// keeps: more than a job summary, a comment or the log show.
const MaxKept = 1000

// Count is how many changes of level l the comparison found, kept or not.
func (r *Report) Count(l Level) int {
	n := r.omitted[l]
	for _, c := range r.Changes {
		if c.Level == l {
			n++
		}
	}
	return n
}

// Total is how many changes the comparison found, kept or not.
func (r *Report) Total() int {
	n := len(r.Changes)
	for _, o := range r.omitted {
		n += o
	}
	return n
}

// OmittedAt is how many changes of level l the comparison found and did
// not keep: each less serious than those kept, or as serious and after
// them in the report's order.
func (r *Report) OmittedAt(l Level) int {
	return r.omitted[l]
}

// TotalAccepted is how many agreed changes the comparison found, kept in
// Accepted or not.
func (r *Report) TotalAccepted() int {
	return len(r.Accepted) + r.omittedAccepted
}

// Side is a version of the description that could not be read.
type Side string

// The two sides of a comparison.
const (
	Base Side = "base"
	Head Side = "head"
)

// ReadError is a side that kin-openapi could not read, although it was
// loaded, bundled and validated: a construct that the comparison does not
// support (a remote $ref, for one).
type ReadError struct {
	Side Side
	Err  error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("the %s description cannot be compared: %v", e.Side, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// PanicError is a comparison that panicked: the library's, over an
// unusual description (a null where it expects an object), or, with
// Internal set, the comparison's own code, a bug of this program's.
type PanicError struct {
	Value    any  // what was panicked with
	Internal bool // the panic was in the comparison's own code
}

func (e *PanicError) Error() string {
	if e.Internal {
		return fmt.Sprintf("the comparison failed with an internal error (%v): please report it, with the descriptions compared if you can", e.Value)
	}
	return fmt.Sprintf("the API diff library failed (%v), as it does on a null where an object belongs: look for such values and fix them", e.Value)
}

// guard is fn, a call into the library, with a panic turned into a
// *PanicError. The descriptions are untrusted input: a panic of the
// library's over an unusual one is an error of this comparison, not the
// end of the run, which a panic in a goroutine of the comparison would be.
// Every call into the library runs under it, in each goroutine the
// comparison starts.
func guard[T any](fn func() (T, error)) (v T, err error) {
	return recovered(false, fn)
}

// guardOwn is fn, the comparison's own code, with a panic turned into an
// internal *PanicError: a bug in it costs the run a warning, as the
// library's panics do, and says it is a bug rather than the description's.
func guardOwn[T any](fn func() (T, error)) (v T, err error) {
	return recovered(true, fn)
}

func recovered[T any](internal bool, fn func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, &PanicError{Value: p, Internal: internal}
		}
	}()
	return fn()
}

// Compare reports what changed from base to head: two API descriptions as
// JSON documents, Swagger 2.0 or OpenAPI 3.x, each with only local $refs.
// Its cost follows the change, not the descriptions: the same document twice
// is no change at once, and otherwise the library is given only the parts
// that can carry a change (prune.go), with the same report as the whole
// documents would give.
func Compare(base, head []byte) (*Report, error) {
	return guardOwn(func() (*Report, error) { return compareIn(context.Background(), base, head, nil, partText(base, head)) })
}

// partText is the most text a part holds for base and head: maxPartText,
// and at most a quarter of the two past minPartText, where half of them,
// or all of two under 1 MB, held more than the memory limit the run
// compares under. Within it, parts are cut to the library's budget of live
// heap as they cost (partcost.go).
func partText(base, head []byte) int {
	return min(maxPartText, max((len(base)+len(head))/4, minPartText))
}

// CompareAccepting is Compare with the changes that ignore (oasdiff's
// ignore file, as Accept reads it) lists moved aside as it goes, so that
// the changes the report keeps are those not agreed; and with an end: once
// ctx ends, it stops at its next call into the library and gives ctx's
// error (each call is one part's reading or checking, which the library
// cannot be stopped in), or, while it places breaking changes, the report
// with the places found so far.
func CompareAccepting(ctx context.Context, base, head []byte, ignore io.Reader) (*Report, error) {
	ig, err := ignoreLines(ignore)
	if err != nil {
		return nil, err
	}
	return guardOwn(func() (*Report, error) { return compareIn(ctx, base, head, ig, partText(base, head)) })
}

// compareIn is Compare with the changes the ignore lines list moved aside,
// and the library given parts of at most about most bytes.
func compareIn(ctx context.Context, base, head []byte, ignore *ignores, most int) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if bytes.Equal(base, head) {
		return &Report{}, nil
	}
	// Written alike, so that a part compares equal by its bytes whatever
	// the layout of the file it came from.
	base, head = compact(base), compact(head)
	if bytes.Equal(base, head) {
		return &Report{}, nil
	}
	b, errB := index(base)
	h, errH := index(head)
	if errB != nil || errH != nil {
		// Text the index does not read, which the library may: as the
		// library reads it, written again (invalid UTF-8, a lone
		// surrogate, replaced), so that its pairs are walked as any
		// other's; or the library says what is wrong.
		var ok bool
		if base, head, ok = asTheLibraryReads(base, head); !ok {
			return compareWhole(ctx, base, head, ignore)
		}
		if b, errB = index(base); errB == nil {
			h, errH = index(head)
		}
		if errB != nil || errH != nil {
			return compareWhole(ctx, base, head, ignore)
		}
	}
	p := prune(b, h)
	if p.same {
		return &Report{}, nil
	}
	// What the library will pair, within bounds (estimate.go).
	if err := checkPairs(base, head, b, h, p); err != nil {
		return nil, err
	}
	if p.keep == nil {
		if b.swagger != h.swagger || b.wide || h.wide {
			// A reference to the whole document, or a change of version:
			// the units cannot be followed, and the documents go whole.
			return compareWhole(ctx, base, head, ignore)
		}
		// A document-level part that concerns every operation changed:
		// every unit is compared, a part at a time.
		p.keep = map[unitKey]bool{}
		for _, d := range []*doc{b, h} {
			for k := range d.units {
				p.keep[k] = true
			}
		}
	}
	b.verbatim = verbatimUnits(closure(p.keep, b, h), b, h)
	h.verbatim = b.verbatim
	both := len(base) + len(head)
	rep, _, err := compareParts(ctx, b, h, p.keep, p.drop, ignore, cutFor(both, most))
	if err != nil {
		return nil, err
	}
	rep.unusedIgnore = ignore.unused(func(add func(string)) {
		for _, d := range []*doc{b, h} {
			for _, m := range d.sections["paths"] {
				add(m.key)
			}
		}
	})
	place(ctx, rep, b, h, p.keep, p.drop, max(min(maxPlacingText, both/8), minPlacingText), placedPart(both))
	return rep, nil
}

// placedPart is the most text a part read with places holds when the two
// descriptions are both bytes together: maxPlacedPart, and no more than a
// thirty-second of both past minPlacingText, so that placing, some 130
// times its part in memory, costs at most some 4 bytes a byte of the two
// descriptions beyond a fixed part.
func placedPart(both int) int {
	return min(maxPlacedPart, max(both/32, minPlacingText))
}

// asTheLibraryReads is base and head read as the library reads JSON
// (encoding/json), and written again; false, and the two as they were,
// when they are more than it reads whole or it does not read them.
func asTheLibraryReads(base, head []byte) ([]byte, []byte, bool) {
	if int64(len(base)+len(head)) > maxWholeText {
		return base, head, false
	}
	again := func(data []byte) ([]byte, error) {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		return json.Marshal(v)
	}
	b, errB := again(base)
	h, errH := again(head)
	if errB != nil || errH != nil {
		return base, head, false
	}
	return b, h, true
}

// compact is data without the spaces between its tokens; data itself when
// it is no JSON, or starts as compact JSON does (a run's uploads are
// written compact). A document compact only in part costs more to compare,
// never a change missed.
func compact(data []byte) []byte {
	if len(data) < 2 || !bytes.ContainsAny(data[1:2], " \t\r\n") {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data))
	if err := json.Compact(&b, data); err != nil {
		return data
	}
	return b.Bytes()
}

// compareWhole is Compare over the whole documents, as the library reads
// JSON: without positions, with the changes the ignore lines list moved
// aside.
func compareWhole(ctx context.Context, base, head []byte, ignore *ignores) (*Report, error) {
	if n := int64(len(base) + len(head)); n > maxWholeText {
		return nil, fmt.Errorf("%w: the change (a new version of OpenAPI, or a $ref to the whole document) reaches all of both, %.1f MB, more than the %.1f MB the comparison reads whole", ErrTooLarge, float64(n)/(1<<20), float64(maxWholeText)/(1<<20))
	}
	s1, err := read(base)
	if err != nil {
		return nil, &ReadError{Base, err}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s2, err := read(head)
	if err != nil {
		return nil, &ReadError{Head, err}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep, err := compare(s1, s2, nil, nil)
	if err != nil {
		return nil, err
	}
	rep.accept(ignore)
	rep.shorten()
	rep.keep(MaxKept)
	rep.unusedIgnore = ignore.unused(func(add func(string)) {
		for _, s := range []*openapi3.T{s1, s2} {
			for p := range s.Paths.Map() {
				add(p)
			}
		}
	})
	return rep, nil
}

// read is one side as the library reads it: the units keep holds and what
// they refer to (everything when keep is nil); placed, with the lines that
// name the places the library gives, else (or when the library cannot
// read the text so) with nil lines; and the size of the text.
func (d *doc) read(keep map[unitKey]bool, drop map[string]bool, placed bool) (*openapi3.T, *lines, int, error) {
	placed = placed && !d.swagger
	text, _, err := d.text(keep, drop, false)
	if err != nil {
		return nil, nil, 0, err
	}
	if n := int64(len(text)); n > maxComparedText {
		return nil, nil, 0, fmt.Errorf("%w: the change reaches %.1f MB of it, more than the %.1f MB the comparison reads", ErrTooLarge, float64(n)/(1<<20), float64(maxComparedText)/(1<<20))
	}
	if placed {
		s, ls, err := readPlaced(text)
		if err == nil {
			return s, ls, len(text), nil
		}
		if errors.Is(err, errNotDirect) {
			// What the walk leaves to the library: read by its YAML
			// reader, each member on a line of its own.
			if yaml, ls, err := d.text(keep, drop, true); err == nil {
				if s, err := guard(func() (*openapi3.T, error) { return newLoader(true).LoadFromData(yaml) }); err == nil {
					return s, ls, len(text), nil
				}
			}
		}
		// What YAML does not read as JSON reads it (a key too long for a
		// YAML reader): without positions. Or it is an error again.
	}
	s, err := read(text)
	return s, nil, len(text), err
}

// readPlaced is text, an OpenAPI 3 document as JSON, as the library reads
// it with the places of its values (places.go), and the lines that name
// them; and with places the library does not give, in path items given by
// $ref.
func readPlaced(text []byte) (*openapi3.T, *lines, error) {
	doc, err := decodeDirect(text)
	if err != nil {
		return nil, nil, errNotDirect // the library's to read, and to word
	}
	n, ls, oddRef, err := places(text)
	if err != nil {
		return nil, nil, errNotDirect
	}
	if oddRef && len(doc.Extensions) > 0 {
		return nil, nil, errNotDirect
	}
	applyPlaces(reflect.ValueOf(doc), n)
	if _, err := guard(func() (any, error) { return nil, newLoader(true).ResolveRefsIn(doc, nil) }); err != nil {
		return nil, nil, err
	}
	placePathItemRefs(doc, n)
	return doc, ls, nil
}

// maxChangeText is the most of a change's text the report keeps, saying
// how much it left out (shortText): a text holds what changed (a pattern,
// the keys of a mapping, written whole), and each of a thousand changes
// kept of a long one would keep it.
const maxChangeText = 2000

// shortText is text cut to maxChangeText bytes, saying how much was left
// out (report.Shorten): the same, cut again.
func shortText(text string) string { return report.Shorten(text, maxChangeText) }

// shorten cuts the text of each change r keeps (shortText), once the
// ignore lines were matched against the whole of it.
func (r *Report) shorten() {
	for _, l := range [][]Change{r.Changes, r.Accepted} {
		for i := range l {
			l[i].Text = shortText(l[i].Text)
		}
	}
}

// ErrTooLarge is a change that reaches more of a description than the
// comparison reads: the library takes tens of times the text's size in
// memory, so a whole large description compared with a small one would
// exhaust a runner's.
var ErrTooLarge = errors.New("too large to compare")

// maxComparedText is the most text of one side the library is given.
var maxComparedText int64 = 32 << 20

// maxWholeText is the most text of both sides together that the library
// is given whole, when the parts cannot be followed (a Swagger 2.0
// description that became OpenAPI 3, a $ref to the whole document): some
// 30 times this in memory, as oasdiff itself takes.
var maxWholeText int64 = 16 << 20

// compare runs the library's checks; lines, where given, name the places of
// its positions in each side.
func compare(s1, s2 *openapi3.T, l1, l2 *lines) (*Report, error) {
	return guard(func() (*Report, error) { return compareGuarded(s1, s2, l1, l2) })
}

// compareGuarded is compare, where a panic of the library's goes on up.
func compareGuarded(s1, s2 *openapi3.T, l1, l2 *lines) (*Report, error) {
	// HTTP header names are case-insensitive: the oasdiff CLI compares them
	// in lower case unless told not to (--case-insensitive-headers), and so
	// does this. Its other defaults are the library's own.
	headers.Lowercase(s1)
	headers.Lowercase(s2)
	d, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(),
		&load.SpecInfo{Url: "base", Spec: s1}, &load.SpecInfo{Url: "head", Spec: s2})
	if err != nil {
		return nil, err
	}
	if sources == nil {
		// CheckBackwardCompatibility dereferences it on a removed path.
		sources = &diff.OperationsSourcesMap{}
	}
	found := checker.CheckBackwardCompatibilityUntilLevel(
		checks(), d, sources, checker.INFO)
	rep := &Report{}
	for _, c := range found {
		if notAChange[c.GetId()] {
			continue
		}
		rep.scopes = append(rep.scopes, scopeOf(c))
		rep.Changes = append(rep.Changes, Change{
			ID: c.GetId(), Level: levelOf(c.GetLevel()),
			Operation: c.GetOperation(), Path: c.GetPath(),
			Text:        c.GetUncolorizedText(localizer),
			HeadPointer: placeOf(c.GetRevisionSource(), l2),
			BasePointer: placeOf(c.GetBaseSource(), l1),
		})
	}
	rep.sort()
	return rep, nil
}

// placeOf is the JSON pointer of a place the library gives, "" when it gives
// none.
func placeOf(src *checker.Source, ls *lines) string {
	if src == nil || ls == nil {
		return ""
	}
	p, _ := ls.pointer(src.Line)
	return p
}

var localizer = checker.NewDefaultLocalizer()

// checks are the library's checks, all of them, at their own levels: made
// once, as the localizer is, since a comparison runs them once a part, and
// making them (each of its hundreds of rules, its checks found by name) took
// a tenth of what comparing Directus's description allocated. The checks
// only read it.
var checks = sync.OnceValue(func() *checker.Config {
	return checker.NewConfig(checker.GetAllChecks())
})

// notAChange are findings of the library's that are advice about the
// description's version (info.version not raised, lowered, or raised by
// less than a major version along with a breaking change), not changes to
// the API: they would count as API changes, and outlive the breaking
// changes an ignore file accepts. The three are alike, so all three go.
var notAChange = map[string]bool{
	checker.APIVersionNotBumpedId:      true,
	checker.APIVersionDecreasedId:      true,
	checker.APIMajorVersionNotBumpedId: true,
}

// read loads one side. Only the document itself is read: a $ref to
// anything else (a file, a URL) is refused, whatever kin-openapi's defaults.
func read(data []byte) (*openapi3.T, error) {
	return guard(func() (*openapi3.T, error) { return readGuarded(data) })
}

// readGuarded is read, where a panic of the library's goes on up.
func readGuarded(data []byte) (*openapi3.T, error) {
	var head struct {
		Swagger string `json:"swagger"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	loader := newLoader(false)
	if head.Swagger != "" {
		var doc2 openapi2.T
		if err := json.Unmarshal(data, &doc2); err != nil {
			return nil, err
		}
		doc3, err := openapi2conv.ToV3(&doc2)
		if err != nil {
			return nil, err
		}
		if err := loader.ResolveRefsIn(doc3, nil); err != nil {
			return nil, err
		}
		return doc3, nil
	}
	return readDirect(data, loader)
}

// newLoader is a loader that reads only the document itself: a $ref to
// anything else (a file, a URL) is refused, whatever kin-openapi's
// defaults. With origins, it keeps where each value was written, in a text
// it reads as YAML.
func newLoader(origins bool) *openapi3.Loader {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	loader.IncludeOrigin = origins
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		return nil, fmt.Errorf("$ref %s leaves the document: only local $refs can be compared", u.Redacted())
	}
	return loader
}

func levelOf(l checker.Level) Level {
	switch {
	case l >= checker.ERR:
		return Breaking
	case l == checker.WARN:
		return Warning
	}
	return Info
}

// sort puts the most serious first, then by path, operation and check,
// keeping scopes in step with Changes.
func (r *Report) sort() {
	order := make([]int, len(r.Changes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return byOrder(r.Changes[i], r.Changes[j]) })
	changes, scopes := make([]Change, len(order)), make([]string, len(order))
	for k, i := range order {
		changes[k], scopes[k] = r.Changes[i], r.scopes[i]
	}
	r.Changes, r.scopes = changes, scopes
}

// byOrder is the report's order: the most serious first, then by path,
// operation, check and text.
func byOrder(a, b Change) int {
	return cmp.Or(cmp.Compare(b.Level, a.Level), cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Operation, b.Operation), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Text, b.Text))
}

// Accept moves the breaking changes and warnings that an ignore file lists
// out of r.Changes into r.Accepted. The file is oasdiff's ignore file: one
// accepted change a line, in any case: for a change to an operation, its
// method and path and its text ("GET /books api path removed without
// deprecation"); for a change to components, security or info, that word
// and its text. Matching is the library's own.
func (r *Report) Accept(ignore io.Reader) error {
	ig, err := ignoreLines(ignore)
	if err != nil {
		return err
	}
	r.accept(ig)
	return nil
}

// ignores are the lines of an ignore file, and which of them agreed to a
// change so far: a comparison in parts gives each part the same.
type ignores struct {
	text  []string // as written
	lines []string // in lower case
	paths []string // the path each line is about (ignoredPath), "" for none
	used  []bool
	// byPath are the lines about each path: a change to a path is matched
	// against the lines about it only.
	byPath map[string][]int
}

// newIgnores is the ignore lines text, none used yet.
func newIgnores(text []string) *ignores {
	ig := &ignores{text: text, lines: make([]string, len(text)), paths: make([]string, len(text)), used: make([]bool, len(text)),
		byPath: map[string][]int{}}
	for i, t := range text {
		ig.lines[i] = strings.ToLower(t)
		ig.paths[i] = ignoredPath(ig.lines[i])
		ig.byPath[ig.paths[i]] = append(ig.byPath[ig.paths[i]], i)
	}
	return ig
}

// ignoreLines are the lines of an ignore file; nil when ignore is nil.
func ignoreLines(ignore io.Reader) (*ignores, error) {
	if ignore == nil {
		return nil, nil
	}
	var text []string
	sc := bufio.NewScanner(ignore)
	for sc.Scan() {
		text = append(text, sc.Text())
	}
	return newIgnores(text), sc.Err()
}

// unused are the lines that agreed to no change and are about a path that
// paths gives (each path once a side, in any case); none for nil.
func (ig *ignores) unused(paths func(add func(string))) []IgnoreLine {
	if ig == nil || !slices.ContainsFunc(ig.paths, func(p string) bool { return p != "" }) {
		return nil
	}
	have := map[string]bool{}
	paths(func(p string) { have[strings.ToLower(p)] = true })
	var out []IgnoreLine
	for i, p := range ig.paths {
		if p != "" && !ig.used[i] && have[p] {
			out = append(out, IgnoreLine{Number: i + 1, Text: ig.text[i]})
		}
	}
	return out
}

// accept is Accept with the ignore file's lines, marking those that agree
// to a change.
func (r *Report) accept(ig *ignores) {
	if ig == nil || len(ig.lines) == 0 {
		return
	}
	// A line agrees to a change when it holds the change's text and what
	// its kind asks besides (matchGroup), all in lower case, as the
	// library's MatchIgnore reads it. Every line that agrees to a change
	// is marked, not only the first: a second such line is not unused.
	groups := map[matchGroup][]int{}
	for i, c := range r.Changes {
		if c.Level > Info {
			g := matchGroup{scope: r.scopes[i]}
			if g.scope == "" {
				g.path, g.opPath = strings.ToLower(c.Path), strings.ToLower(c.Operation+" "+c.Path)
			}
			groups[g] = append(groups[g], i)
		}
	}
	agreed := make([]bool, len(r.Changes))
	for g, cs := range groups {
		var at []int
		var lines []string
		for _, j := range ig.about(g) {
			if strings.Contains(ig.lines[j], g.opPath) {
				at, lines = append(at, j), append(lines, ig.lines[j])
			}
		}
		if len(lines) == 0 {
			continue
		}
		texts := make([]string, len(cs))
		for k, i := range cs {
			texts[k] = strings.ToLower(r.Changes[i].Text)
		}
		found, holds := textsIn(texts, lines)
		for k, i := range cs {
			agreed[i] = found[k]
		}
		for k, j := range at {
			ig.used[j] = ig.used[j] || holds[k]
		}
	}
	var changes []Change
	var scopes []string
	for i, c := range r.Changes {
		if agreed[i] {
			r.Accepted = append(r.Accepted, c)
			continue
		}
		changes, scopes = append(changes, c), append(scopes, r.scopes[i])
	}
	r.Changes, r.scopes = changes, scopes
}

// matchGroup is what a line must hold, besides a change's text, to agree
// to it: for a change to components, security or info (scope), that word;
// for a change to an operation, its path as the line's first word that
// starts with a slash (path), and its method and path (opPath).
type matchGroup struct {
	scope, path, opPath string
}

// about are the lines that may agree to the changes of g: those about its
// path, or those that hold its scope's word.
func (ig *ignores) about(g matchGroup) []int {
	if g.scope == "" {
		if g.path == "" {
			return nil
		}
		return ig.byPath[g.path]
	}
	var js []int
	for j, line := range ig.lines {
		if strings.Contains(line, g.scope) {
			js = append(js, j)
		}
	}
	return js
}

// keep sorts the report, its agreed changes too, and keeps its first most
// changes and agreed changes, counting the others: in the order the whole
// documents give, wherever the parts they were found in were cut.
func (r *Report) keep(most int) {
	r.sort()
	slices.SortStableFunc(r.Accepted, byOrder)
	n := min(most, len(r.Changes))
	for _, c := range r.Changes[n:] {
		r.omitted[c.Level]++
	}
	// Clipped, so that what is not kept is let go of.
	r.Changes, r.scopes = slices.Clip(r.Changes[:n]), slices.Clip(r.scopes[:n])
	if n := len(r.Accepted) - most; n > 0 {
		r.omittedAccepted += n
		r.Accepted = slices.Clip(r.Accepted[:most])
	}
}

// scopeOf is the kind of change c is, as the library matches ignore lines.
func scopeOf(c checker.Change) string {
	switch c.(type) {
	case checker.ComponentChange, *checker.ComponentChange:
		return "components"
	case checker.InfoChange, *checker.InfoChange:
		return "info"
	case checker.SecurityChange, *checker.SecurityChange:
		return "security"
	}
	return ""
}

// ignoredPath is the path an ignore line is about: its first word that
// starts with a slash, as oasdiff reads it; "" when there is none.
func ignoredPath(line string) string {
	for _, w := range strings.Fields(line) {
		if strings.HasPrefix(w, "/") {
			return w
		}
	}
	return ""
}
