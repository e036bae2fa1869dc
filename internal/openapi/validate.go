package openapi

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/big"
	"mime"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Severity of a finding.
type Severity string

// The severities: errors stop a run before its first request, warnings do
// not (unless the user asks them to).
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem in a description, where it was written.
type Finding struct {
	Severity Severity
	Msg      string
	File     string // as shown to the user
	Pos      Pos
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.File, f.Pos.Line, f.Pos.Col, f.Severity, f.Msg)
}

// Validate checks a (bundled) description: its version and structure, that
// every local $ref resolves, and the shared parameters and responses the
// service renders as components. Findings come in document order.
func Validate(root *Node) []Finding { return validate(root, nil) }

// validate is Validate that, given the files the description was read from
// (fsys), also reports a $ref to a file that is not there: one left as
// written, which the service cannot resolve either.
func validate(root *Node, fsys fs.FS) []Finding {
	findings, _ := validateFiles(root, fsys)
	return findings
}

// validateFiles is validate, and says which files, other than the
// description's own, its $refs name (given fsys: those are left as
// written), by their paths from the file that names them, sorted.
func validateFiles(root *Node, fsys fs.FS) ([]Finding, []string) {
	v := &validator{root: root, checked: map[*Node]bool{}, ix: index{}, fsys: fsys}
	v.version = versionOf(root)
	v.fmt = formatOf(root)
	v.structure()
	v.refs(root, at(sDoc))
	v.parameters()
	v.responses()
	v.unused(usedRefs(root))
	v.schemas() // schema.go
	return v.findings, slices.Sorted(maps.Keys(v.files))
}

// validateKept is Validate over what the single pass kept, with the $refs
// it met (refs) and the text of every $ref (used, as its keys: the pass's
// own set of them). ok is false when a value validation reads was not
// kept: then only the tree can tell.
//
// The $refs are checked on a goroutine of their own, by a validator of
// their own, while the rest is checked: a run waits for the head's
// validation, mostly with nothing else to do (with base-file, the base
// may still be loading on a goroutine of its own, and the three share the
// cores). The two only read what they share (the tree, and used): reading
// a packed list unpacks it, but the single pass keeps none (agree, in the
// tests, fails on one). Their findings are put back in the order one
// validator gives.
func validateKept(root *Node, refs []passRef, used map[string]string) (findings []Finding, ok bool) {
	v, r := newKeptValidator(root), newKeptValidator(root)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.keptRefs(refs, len(used))
	}()
	v.structure()
	structural := len(v.findings)
	v.parameters()
	v.responses()
	v.unused(used)
	<-done
	findings = slices.Concat(v.findings[:structural], r.findings, v.findings[structural:])
	return findings, !v.undecided && !r.undecided
}

func newKeptValidator(root *Node) *validator {
	return &validator{root: root, checked: map[*Node]bool{}, ix: index{}, kept: true, version: versionOf(root), fmt: formatOf(root)}
}

// keptRefs checks the $refs the single pass met, in document order, as
// refs does over a tree; texts is how many different texts they have.
func (v *validator) keptRefs(refs []passRef, texts int) {
	// In document order, as the walk over the tree meets them.
	slices.SortStableFunc(refs, func(a, b passRef) int { return int(a.object) - int(b.object) })
	problems := make(map[string]string, texts) // by text: many $refs say the same
	at := Node{Kind: String, Src: v.root.Src}
	for _, r := range refs {
		checked := r.checked3
		if v.version == 2 {
			checked = r.checked2
		}
		if !checked {
			continue
		}
		if isRemote(r.text) {
			at.Pos = r.pos
			at.SetScalar(r.text)
			v.remote(&at)
			continue
		}
		msg, done := problems[r.text]
		if !done {
			msg = v.refProblem(r.text, v.root.Src.Name)
			problems[r.text] = msg
		}
		if msg != "" {
			at.Pos = r.pos
			at.SetScalar(r.text)
			v.add(Error, &at, "%s", msg)
		}
	}
}

type validator struct {
	root     *Node
	files    map[string]bool // that $refs left as written name (with fsys), as they write them
	version  int
	fmt      format
	findings []Finding
	checked  map[*Node]bool
	ix       index
	// kept: root is what the single pass kept; undecided: a value
	// validation reads was not kept.
	kept, undecided bool
	// fsys holds the files of a description that is not bundled, to check
	// that the files its $refs name exist; nil checks only their names.
	fsys fs.FS
	// remotes are the addresses $refs name that were warned of.
	remotes map[string]bool
	// ops are the operations, listed once for every check that reads them.
	ops []operation
	// derefs are the values local $refs lead to, by their text: a
	// description refers to one shared component from thousands of places.
	derefs map[string]*Node
}

// resolve follows a local pointer. Over a kept tree, a pointer into what
// was not kept is undecided and resolves to nothing; read says the caller
// reads the value's members, which a stub does not hold.
func (v *validator) resolve(pointer string, read bool) (*Node, error) {
	if !v.kept {
		return v.ix.resolve(v.root, pointer)
	}
	n, err, ok := v.ix.resolveKept(v.root, pointer)
	if ok && err == nil && read && n.part == stub && (n.Kind == Object || n.Kind == Array) {
		ok = false
	}
	if !ok {
		v.undecided = true
		return nil, errUndecided
	}
	return n, err
}

// errUndecided is a pointer into what the single pass did not keep.
var errUndecided = errors.New("not kept")

func (v *validator) add(sev Severity, n *Node, format string, args ...any) {
	f := Finding{Severity: sev, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		f.Pos = n.Pos
		if n.Src != nil {
			f.File = n.Src.Name
		}
	}
	if f.File == "" && v.root.Src != nil {
		f.File = v.root.Src.Name
	}
	v.findings = append(v.findings, f)
}

// addKey adds a finding about the key of f, a member of obj, rather than
// about its value: at the key, in obj's file (bundling may have put there a
// value read from another file). A member bundling added has no key
// written anywhere: the finding is at its value.
func (v *validator) addKey(sev Severity, obj *Node, f Field, format string, args ...any) {
	if f.KeyPos == (Pos{}) {
		v.add(sev, f.Value, format, args...)
		return
	}
	v.add(sev, &Node{Pos: f.KeyPos, Src: obj.Src}, format, args...)
}

var versions = regexp.MustCompile(`^3\.[012]\.\d+(-.+)?$`)

func (v *validator) structure() {
	r := v.root
	if s := r.Get("swagger"); s != nil {
		if s.Kind != String || s.Scalar() != "2.0" {
			v.add(Error, s, `swagger must be "2.0" (a string): this is the only Swagger version%s`, quoteIt(s, "2.0"))
		}
	} else if o := r.Get("openapi"); o.Kind != String || !versions.MatchString(o.Scalar()) {
		v.add(Error, o, "openapi must be a 3.0.x, 3.1.x or 3.2.x version string, such as \"3.0.3\"%s", quoteIt(o, "3.0.3"))
	}
	info := r.Get("info")
	if info == nil || info.Kind != Object {
		v.add(Error, r, "info is missing: add info with title and version")
	} else {
		for _, k := range []string{"title", "version"} {
			switch f := info.Get(k); {
			case f == nil:
				v.add(Error, info, "info.%s is missing: add it, as a string", k)
			case f.Kind != String:
				v.add(Error, f, "info.%s must be a string%s", k, quoteIt(f, ""))
			}
		}
	}
	paths := r.Get("paths")
	if paths == nil {
		if !v.fmt.since31() {
			v.add(Error, r, "paths is missing: a description must list its paths (an empty paths: {} is allowed)")
		}
		return
	}
	if paths.Kind != Object {
		v.add(Error, paths, "paths must be a mapping of path templates")
		return
	}
	for _, f := range paths.Fields() {
		if !strings.HasPrefix(f.Key, "/") && !strings.HasPrefix(f.Key, "x-") {
			v.addKey(Error, paths, f, "path %q must start with /", f.Key)
		}
	}
	for _, o := range v.operations() {
		if o.op.Kind != Object {
			v.add(Error, o.op, "%s must be a mapping", o.where())
			continue
		}
		rs := o.op.Get("responses")
		if (rs == nil || rs.Kind != Object || len(rs.Fields()) == 0) && !v.fmt.since31() {
			v.add(Error, o.op, "%s has no responses: list at least one", o.where())
		}
	}
}

// quoteIt is the advice for a value written unquoted that YAML reads as
// another kind than a string (version: 2.0 is a number): say what it was
// read as, and to quote it, as in example ("" for its own text).
func quoteIt(n *Node, example string) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case Null:
		return ": it is empty"
	case Number, Bool:
		kind := map[Kind]string{Number: "a number", Bool: "a boolean"}[n.Kind]
		return fmt.Sprintf(": %s is written without quotes, so it is read as %s; quote it, as in %q", n.Scalar(), kind, cmp.Or(example, n.Scalar()))
	case Object, Array:
		kind := map[Kind]string{Object: "a mapping", Array: "a list"}[n.Kind]
		return fmt.Sprintf(": it is written as %s; give its text, in quotes", kind)
	}
	return ""
}

// operation is one method of one path.
type operation struct {
	path, method string
	item, op     *Node
}

func (o operation) where() string { return strings.ToUpper(o.method) + " " + o.path }

// operations lists the operations of the description in document order,
// with their path items resolved.
func (v *validator) operations() []operation {
	if v.ops == nil {
		v.ops = v.listOperations()
	}
	return v.ops
}

func (v *validator) listOperations() []operation {
	paths := v.root.Get("paths")
	if paths == nil || paths.Kind != Object {
		return []operation{}
	}
	ops := []operation{}
	for _, pf := range paths.Fields() {
		item := v.deref(pf.Value)
		if strings.HasPrefix(pf.Key, "x-") || item == nil || item.Kind != Object {
			continue
		}
		for _, m := range methods {
			if op := item.Get(m); op != nil {
				ops = append(ops, operation{pf.Key, m, item, op})
			}
		}
		if v.fmt.major == 3 && v.fmt.minor >= 2 { // OpenAPI 3.2: QUERY, and any other method
			if op := item.Get("query"); op != nil {
				ops = append(ops, operation{pf.Key, "query", item, op})
			}
			if more := item.Get("additionalOperations"); more != nil && more.Kind == Object {
				for _, f := range more.Fields() {
					ops = append(ops, operation{pf.Key, f.Key, item, f.Value})
				}
			}
		}
	}
	return ops
}

// deref follows local references (a few hops) to the value they name. A
// value behind a reference to another file or a URL is not here to check:
// deref returns nil for it, as for a $ref Bundle could not resolve.
func (v *validator) deref(n *Node) *Node {
	for i := 0; i < 16; i++ {
		ref, ok := refOf(n)
		if !ok {
			return n
		}
		if !strings.HasPrefix(ref.Scalar(), "#") || ref.unresolved {
			return nil
		}
		t, ok := v.derefs[ref.Scalar()]
		if !ok {
			t = v.follow(ref.Scalar())
			if v.derefs == nil {
				v.derefs = map[string]*Node{}
			}
			v.derefs[ref.Scalar()] = t
		}
		if t == nil {
			return nil
		}
		n = t
	}
	return nil
}

// follow is the value the local $ref ref leads to, one hop, or nil.
func (v *validator) follow(ref string) *Node {
	_, ptr, err := splitRef(ref)
	if err != nil {
		return nil
	}
	t, err := v.resolve(ptr, true)
	if err != nil {
		return nil
	}
	return t
}

// refs reports every local reference that does not resolve.
func (v *validator) refs(n *Node, p place) {
	switch n.Kind {
	case Array:
		// A packed Array's items are scalars: no reference among them.
		for _, it := range n.Items() {
			v.refs(it, child(p, "", v.version == 3))
		}
	case Object:
		if ref, ok := refOf(n); ok && isRemote(ref.Scalar()) {
			v.remote(ref)
		} else if ok && !ref.unresolved {
			v.checkRef(ref)
		}
		for _, f := range n.Fields() {
			if f.Key != "$ref" && !skipKey(p, f.Key) {
				v.refs(f.Value, child(p, f.Key, v.version == 3))
			}
		}
	}
}

// remote warns of a $ref to an address (https: and the like), once per
// address: it is published as written, since nothing is fetched from the
// network.
func (v *validator) remote(ref *Node) {
	if v.remotes[ref.Scalar()] {
		return
	}
	if v.remotes == nil {
		v.remotes = map[string]bool{}
	}
	v.remotes[ref.Scalar()] = true
	v.add(Warning, ref, "$ref %s is an address, not a file: it is published as written, not bundled, so the docs show it only if the service can read that address; to bundle it, copy the file into the repository and refer to it by its path", ref.Scalar())
}

// checkRef reports a $ref that does not resolve, or names a file it may not.
func (v *validator) checkRef(ref *Node) {
	from := ""
	if ref.Src != nil {
		from = ref.Src.Name
	}
	if msg := v.refProblem(ref.Scalar(), from); msg != "" {
		v.add(Error, ref, "%s", msg)
	}
}

// refProblem is what is wrong with a $ref written in the file from, or "".
func (v *validator) refProblem(ref, from string) string {
	file, ptr, err := splitRef(ref)
	switch {
	case err != nil:
		return err.Error()
	case file != "":
		// Left by bundle: false on purpose: the service resolves
		// references across the project's files itself. They are
		// published as written, so the rules for what a $ref may
		// name hold for them too.
		p, err := refFile(from, file)
		if err != nil {
			return fmt.Sprintf("$ref %s %v", ref, err)
		}
		if v.fsys == nil {
			break
		}
		if _, err := fs.Stat(v.fsys, p); errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("$ref %s: %s does not exist: add the file, or fix the $ref (bundle is false, so the $ref is published as written)", ref, p)
		}
		if v.files == nil {
			v.files = map[string]bool{}
		}
		v.files[path.Clean(file)] = true
	default:
		if _, err := v.resolve(ptr, false); err != nil && err != errUndecided {
			return fmt.Sprintf("$ref %s does not resolve: %v: fix the $ref, or add what it names", ref, err)
		}
	}
	return ""
}

// sharedSection returns the shared parameters or responses.
func (v *validator) sharedSection(s slot) *Node {
	sec := section(s, v.fmt)
	n := v.root
	for _, k := range sec {
		n = n.Get(k)
	}
	if n == nil || n.Kind != Object {
		return nil
	}
	return n
}

// paramIn is where a parameter may be, in a format: OpenAPI 3.2 adds
// querystring, the whole query string as one parameter.
func paramIn(f format) []string {
	switch {
	case f.major == 2:
		return []string{"path", "query", "header", "body", "formData"}
	case f.minor >= 2:
		return []string{"path", "query", "querystring", "header", "cookie"}
	}
	return []string{"path", "query", "header", "cookie"}
}

// parameters checks shared parameters, then those of every operation.
func (v *validator) parameters() {
	seen := map[paramKey]string{}
	if shared := v.sharedSection(sParam); shared != nil {
		for _, f := range shared.Fields() {
			p := v.deref(f.Value)
			if p == nil || p.Kind != Object {
				continue
			}
			v.parameter(p, "shared parameter "+f.Key)
			k := paramKey{p.Get("name").Str(), p.Get("in").Str()}
			if other, dup := seen[k]; dup && k.name != "" {
				v.addKey(Warning, shared, f, "shared parameters %s and %s are both %s in %s: give them descriptive names, or keep one", other, f.Key, k.name, k.in)
			}
			seen[k] = f.Key
		}
	}
	// One list for all the operations, emptied for each.
	var ps opParams
	for _, o := range v.operations() {
		if o.op.Kind != Object {
			continue
		}
		ps.reset()
		own := o.op.Get("parameters")
		for _, list := range []*Node{o.item.Get("parameters"), own} {
			if list == nil || list.Kind != Array {
				continue
			}
			for _, it := range list.Elems() {
				p := v.deref(it)
				if p == nil || p.Kind != Object {
					continue
				}
				v.parameter(p, "parameter")
				e := ps.at(paramKey{p.Get("name").Str(), p.Get("in").Str()})
				if list == own && e.listed && e.name != "" {
					v.add(Warning, it, "%s lists parameter %s in %s twice", o.where(), e.name, e.in)
				}
				if list == own {
					e.listed = true
				}
				e.it = it
				if e.in == "formData" && !v.consumesForm(o.op) {
					v.add(Error, it, "%s has formData parameter %s but does not consume multipart/form-data or application/x-www-form-urlencoded: add one of them to consumes", o.where(), e.name)
				}
			}
		}
		for _, e := range ps.list {
			if e.in == "path" && !strings.Contains(o.path, "{"+e.name+"}") {
				v.add(Error, e.it, "path parameter %s is not in the path template of %s: add {%s} to the path, or change in:", e.name, o.where(), e.name)
			}
		}
	}
}

// paramKey is what tells an operation's parameters apart: its name and
// where it is.
type paramKey struct{ name, in string }

// opParams are the parameters of one operation, in the order first
// listed, each with the last of its entries (the operation's own wins over
// its path's). An operation has a few: they are looked through, where two
// maps cleared for each operation were 40% of checking the parameters of
// GitHub's description; an operation with many gets an index.
type opParams struct {
	list  []opParam
	index map[paramKey]int // into list, once it holds more than smallParams
}

type opParam struct {
	paramKey
	it     *Node // the entry that stands
	listed bool  // in the operation's own list
}

const smallParams = 16

func (ps *opParams) reset() {
	ps.list = ps.list[:0]
	ps.index = nil
}

// at is the parameter k, added if new.
func (ps *opParams) at(k paramKey) *opParam {
	if ps.index != nil {
		if i, ok := ps.index[k]; ok {
			return &ps.list[i]
		}
	} else {
		for i := range ps.list {
			if ps.list[i].paramKey == k {
				return &ps.list[i]
			}
		}
	}
	ps.list = append(ps.list, opParam{paramKey: k})
	switch {
	case ps.index != nil:
		ps.index[k] = len(ps.list) - 1
	case len(ps.list) > smallParams:
		ps.index = make(map[paramKey]int, 2*len(ps.list))
		for i := range ps.list {
			ps.index[ps.list[i].paramKey] = i
		}
	}
	return &ps.list[len(ps.list)-1]
}

func (v *validator) consumesForm(op *Node) bool {
	c := op.Get("consumes")
	if c == nil {
		c = v.root.Get("consumes")
	}
	if c == nil || c.Kind != Array {
		return false
	}
	for _, it := range c.Elems() {
		if isFormMediaType(it.Str()) {
			return true
		}
	}
	return false
}

// isFormMediaType reports whether a media type carries form fields: any
// multipart/* type (multipart/vnd.specific+form-data;version=1.0 too) and
// application/x-www-form-urlencoded, with suffixes and parameters.
func isFormMediaType(mt string) bool {
	t, _, err := mime.ParseMediaType(mt)
	if err != nil {
		t, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(mt)), ";")
	}
	typ, sub, _ := strings.Cut(t, "/")
	if typ == "multipart" {
		return true
	}
	base, _, _ := strings.Cut(sub, "+")
	return typ == "application" && (base == "x-www-form-urlencoded" || strings.HasSuffix(sub, "+x-www-form-urlencoded"))
}

var validTypes = map[int][]string{
	2: {"string", "number", "integer", "boolean", "array", "file"},
	3: {"string", "number", "integer", "boolean", "array", "object"},
}

// parameter checks one parameter object once.
func (v *validator) parameter(p *Node, what string) {
	if v.checked[p] {
		return
	}
	v.checked[p] = true
	name := p.Get("name")
	if name == nil || name.Kind != String || name.Scalar() == "" {
		v.add(Error, p, "%s has no name: name is the parameter's name in HTTP requests", what)
	} else if what == "parameter" {
		what += " " + name.Scalar()
	}
	in := p.Get("in")
	if in == nil || !slices.Contains(paramIn(v.fmt), in.Str()) {
		v.add(Error, orNode(in, p), "%s: in must be one of %s%s", what, strings.Join(paramIn(v.fmt), ", "), didYouMean(in.Str(), paramIn(v.fmt)))
	}
	if in.Str() == "path" {
		if r := p.Get("required"); r == nil || r.Kind != Bool || r.Scalar() != "true" {
			v.add(Error, p, "%s is in path, so it must have required: true", what)
		}
	}
	rules := p // Swagger 2.0 keeps type and restrictions on the parameter
	if v.version == 3 || in.Str() == "body" {
		rules = v.deref(p.Get("schema"))
		if rules == nil {
			if v.version == 3 && p.Get("content") == nil {
				v.add(Error, p, "%s has neither schema nor content", what)
			}
			if in.Str() == "body" {
				v.add(Error, p, "%s is in body, so it needs a schema", what)
			}
			return
		}
	}
	v.restrictions(rules, what, rules != p)
}

func orNode(a, b *Node) *Node {
	if a != nil {
		return a
	}
	return b
}

// restrictions checks type, bounds and default of a parameter or schema.
func (v *validator) restrictions(r *Node, what string, isSchema bool) {
	types := validTypes[v.version]
	if isSchema {
		types = validTypes[3] // a JSON schema: object is a type, file is not
	}
	if v.fmt.since31() {
		types = append(types, "null")
	}
	var typ string
	if t := r.Get("type"); t != nil {
		switch t.Kind {
		case String:
			typ = t.Scalar()
			if !slices.Contains(types, typ) {
				v.add(Error, t, "%s: type %q is not one of %s%s", what, typ, strings.Join(types, ", "), didYouMean(typ, types))
				typ = ""
			}
		case Array:
			if !v.fmt.since31() {
				v.add(Error, t, "%s: type must be a single type name before OpenAPI 3.1", what)
			}
		}
	} else if v.version == 2 && !isSchema {
		v.add(Error, r, "%s has no type: set type to one of %s", what, strings.Join(types, ", "))
	}
	minL, maxL := num(r.Get("minLength")), num(r.Get("maxLength"))
	if minL != nil && maxL != nil && minL.Cmp(maxL) > 0 {
		v.add(Error, r.Get("minLength"), "%s: minLength %s is greater than maxLength %s", what, minL.Text('g', -1), maxL.Text('g', -1))
	}
	lo, hi := num(r.Get("minimum")), num(r.Get("maximum"))
	if lo != nil && hi != nil && lo.Cmp(hi) > 0 {
		v.add(Error, r.Get("minimum"), "%s: minimum %s is greater than maximum %s", what, lo.Text('g', -1), hi.Text('g', -1))
	}
	var re *regexp.Regexp
	if pat := r.Get("pattern"); pat != nil && pat.Kind == String {
		var err error
		if re, err = regexp.Compile(pat.Scalar()); err != nil {
			v.add(Warning, pat, "%s: pattern %q uses ECMA-262 syntax this check cannot read (%v): defaults are not checked against it", what, pat.Scalar(), err)
		}
	}
	// A default that does not fit its rules is a warning: other tools
	// accept it, and the service renders it. OpenAPI 3.1's schemas (JSON
	// Schema 2020-12) do not require a default to be valid at all.
	def := r.Get("default")
	if def == nil || v.fmt.since31() {
		return
	}
	if typ != "" && !fitsType(def, typ) {
		v.add(Warning, def, "%s: default %s is not of type %s", what, def.AppendJSON(nil), typ)
		return
	}
	if def.Kind == String {
		n := big.NewFloat(float64(len([]rune(def.Scalar()))))
		if minL != nil && n.Cmp(minL) < 0 || maxL != nil && n.Cmp(maxL) > 0 {
			v.add(Warning, def, "%s: default %q breaks its length limits", what, def.Scalar())
		}
		if re != nil && !re.MatchString(def.Scalar()) {
			v.add(Warning, def, "%s: default %q does not match pattern %s", what, def.Scalar(), re)
		}
	}
	if d := num(def); d != nil && (lo != nil && d.Cmp(lo) < 0 || hi != nil && d.Cmp(hi) > 0) {
		v.add(Warning, def, "%s: default %s is outside minimum..maximum", what, def.Scalar())
	}
	if enum := r.Get("enum"); enum != nil && enum.Kind == Array {
		want := string(def.AppendJSON(nil))
		if !slices.ContainsFunc(enum.Elems(), func(e *Node) bool { return string(e.AppendJSON(nil)) == want }) {
			v.add(Warning, def, "%s: default %s is not one of its enum values", what, want)
		}
	}
}

func num(n *Node) *big.Float {
	if n == nil || n.Kind != Number {
		return nil
	}
	f, _, err := big.ParseFloat(shortNumber(n.Scalar()), 10, 128, big.ToNearestEven)
	if err != nil {
		return nil
	}
	return f
}

// numberDigits is more decimal digits than num's 128 bits hold.
const numberDigits = 48

// shortNumber is the JSON number lit cut to its first numberDigits
// significant digits, with the exponent that keeps its magnitude: what
// num keeps of it, in time linear in its length (math/big reads every
// digit of a longer one in quadratic time).
func shortNumber(lit string) string {
	if len(lit) <= numberDigits {
		return lit
	}
	sign, t := "", lit
	if strings.HasPrefix(t, "-") {
		sign, t = "-", t[1:]
	}
	mant, exp, _ := strings.Cut(strings.ToLower(t), "e")
	e := 0
	if exp != "" {
		var err error
		if e, err = strconv.Atoi(exp); err != nil {
			return lit // an exponent beyond int: big.ParseFloat refuses it too
		}
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	e -= len(frac)
	if len(digits) > numberDigits {
		e += len(digits) - numberDigits
		digits = digits[:numberDigits]
	}
	if digits == "" {
		digits = "0"
	}
	return sign + digits + "e" + strconv.Itoa(e)
}

func fitsType(n *Node, typ string) bool {
	switch typ {
	case "string", "file":
		return n.Kind == String
	case "number":
		return n.Kind == Number
	case "integer":
		f := num(n)
		return f != nil && f.IsInt()
	case "boolean":
		return n.Kind == Bool
	case "array":
		return n.Kind == Array
	case "object":
		return n.Kind == Object
	case "null":
		return n.Kind == Null
	}
	return true
}

// headerTypes are the types of a Swagger 2.0 header.
var headerTypes = []string{"string", "number", "integer", "boolean", "array"}

// responses checks shared responses and those of every operation.
func (v *validator) responses() {
	check := func(r *Node, what responseName) {
		r = v.deref(r)
		if r == nil || r.Kind != Object || v.checked[r] {
			return
		}
		v.checked[r] = true
		if d := r.Get("description"); d == nil || d.Kind != String {
			v.add(Error, r, "%s has no description: say why it is returned", what)
		}
		hs := r.Get("headers")
		if hs == nil {
			return
		}
		if hs.Kind != Object {
			v.add(Error, hs, "%s: headers must be a mapping of header names", what)
			return
		}
		for _, h := range hs.Fields() {
			hv := v.deref(h.Value)
			if hv == nil || hv.Kind != Object {
				v.add(Error, h.Value, "%s: header %s must be a mapping", what, h.Key)
				continue
			}
			if v.version == 2 {
				if t := hv.Get("type"); !slices.Contains(headerTypes, t.Str()) {
					v.add(Error, orNode(t, hv), "%s: header %s needs a type, one of %s%s", what, h.Key, strings.Join(headerTypes, ", "), didYouMean(t.Str(), headerTypes))
				}
			} else if hv.Get("schema") == nil && hv.Get("content") == nil {
				v.add(Error, hv, "%s: header %s needs a schema", what, h.Key)
			}
		}
	}
	if shared := v.sharedSection(sResponse); shared != nil {
		for _, f := range shared.Fields() {
			check(f.Value, responseName{key: f.Key})
		}
	}
	for _, o := range v.operations() {
		if rs := o.op.Get("responses"); rs != nil && rs.Kind == Object {
			for _, rf := range rs.Fields() {
				if !strings.HasPrefix(rf.Key, "x-") {
					check(rf.Value, responseName{key: rf.Key, op: o})
				}
			}
		}
	}
}

// responseName names a response in a finding: a shared one (op.method
// empty) or one of an operation's. It is written out only for a finding:
// most responses have none.
type responseName struct {
	key string
	op  operation
}

func (r responseName) String() string {
	if r.op.method == "" {
		return "shared response " + r.key
	}
	return fmt.Sprintf("response %s of %s", r.key, r.op.where())
}

// usedRefs is the text of every $ref in a tree.
func usedRefs(root *Node) map[string]string {
	used := map[string]string{}
	var collect func(n *Node)
	collect = func(n *Node) {
		if r, ok := refOf(n); ok {
			used[r.Scalar()] = r.Scalar()
		}
		for _, f := range n.Fields() {
			collect(f.Value)
		}
		for _, it := range n.Items() { // a packed Array holds no $ref
			collect(it)
		}
	}
	collect(root)
	return used
}

// unused warns of shared parameters and responses no endpoint refers to
// (used holds the text of every $ref, as its keys).
func (v *validator) unused(used map[string]string) {
	for _, s := range []slot{sParam, sResponse} {
		shared := v.sharedSection(s)
		if shared == nil {
			continue
		}
		prefix := "#/" + strings.Join(section(s, v.fmt), "/") + "/"
		kind := map[slot]string{sParam: "parameter", sResponse: "response"}[s]
		for _, f := range shared.Fields() {
			if _, ok := used[prefix+escapeToken(f.Key)]; !ok {
				v.addKey(Warning, shared, f, "shared %s %s is not used by any endpoint", kind, f.Key)
			}
		}
	}
}
