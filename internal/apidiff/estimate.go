package apidiff

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// What the library does with two descriptions grows faster than their
// text in shapes that the parts do not bound, since each lies within one
// schema, or in what many operations share (measured in process, before
// this walk refused them):
//
//   - nesting: each change is named by its property path, built again at
//     every level of the walk, so a schema nested n levels deep (inline or
//     through $refs, each property a $ref to the next) costs n*n. A chain
//     of 1,600 links, 131 kB a side, took 1.3 s and 700 MB allocated.
//   - recursive schemas whose cycles differ in length: the library pairs
//     base and head schemas as it walks, so cycles of p and p+1 schemas
//     pair into p*(p+1) pairs in one cycle of its own, which it walks at a
//     cost of its length squared and more. Cycles of 40 and 41 schemas,
//     7 kB both, took 11 s; of 80 and 81, 7.7 minutes.
//   - lists of branches (oneOf, anyOf, allOf): each inline branch of the
//     base is compared with each of the head's. 800 and 800, 94 kB both,
//     took 14 s.
//   - a schema that many operations name: its changes are walked, and
//     reported, once an operation. 2,000 operations naming one schema of
//     1,000 changed properties, 593 kB both, took 65 s.
//   - lists compared each item with each: security requirements (4,000 a
//     side, 103 kB, 22 s; the whole API's, once an operation), an enum's
//     values (16,000, 181 kB, 17.5 s), media types and parameters one
//     side has and the other has not, paths not found as written (a path
//     parameter renamed in 4,000 paths, 222 kB, 40 s; a callback's).
//   - what many operations share outside schemas (a response, a callback),
//     compared once for each (a response of 1,000 headers that 1,000
//     operations share, 202 kB, 7.3 s); an object the head wrapped in a
//     oneOf, looked for in each branch.
//
// So before the library is called, what it will do is walked here, as it
// does it, from the units of both sides that the comparison gives it and
// through each side's $refs:
//
//   - the structure around schemas (path items, operations, responses,
//     media types), each pair of values once, counting the ways to each
//     schema that an operation names (structure);
//   - the pairs of schemas, key by key and each branch with each branch,
//     each pair once, and the depth of the deepest (pairs);
//   - for each schema an operation names, a walk of the library's checks:
//     each changed pair it reaches, with its depth, and each change (an
//     item of a list of values one), as many times as there are ways to it
//     (reach);
//   - the products of the lists compared each item with each.
//
// The walk counts that work, and its own, and stops at its bounds, each a
// number of steps a byte of the two texts: the comparison is then refused
// as too large (PairsError, ErrTooLarge), at a cost linear in the text,
// and the run publishes without it. Within the bounds, the library's time
// is linear in the text too: two releases of Stripe's description (26 s
// for 5.2 MB of both), the costliest pair of real descriptions measured,
// take seven eighths of the bound; the costliest shapes made to reach it,
// up to some 7 times Stripe's time a byte.

// maxPairDepth is the deepest the pairs of two schemas may nest, in JSON
// values (an object and each of its members' values are two levels): of
// the descriptions the corpus tests read, Stripe's pairs nest 83 deep, and
// a description made to stress tools (speakeasy's combinatorial.json) 168;
// GitHub's 18 to 20.
const maxPairDepth = 512

// pairWorkPerByte is the library's work (pairs, and the members of the
// paired values; the walks of its checks, by depth; its changes) a byte of
// the two descriptions' text allows: two releases of Stripe's description
// (2.2 and 3.0 MB as JSON), which the library compares in 26 s, take 112
// a byte; two of GitHub's, 0.4 to 0.6.
const pairWorkPerByte = 128

// minPairWork is the work allowed however small the two descriptions are.
const minPairWork = 1 << 20

// pairOpsPerByte is what the walk itself may read (the members of the
// values it pairs) a byte of the two descriptions' text: Stripe's
// releases take 0.85, GitHub's 0.05, at some 50 to 100 ns each.
const pairOpsPerByte = 8

// minPairOps is what the walk may read however small the descriptions.
const minPairOps = 1 << 20

// bytesPerPair is the text of the two descriptions a pair of schemas
// walked needs (the walk holds some 40 bytes a pair): the pairs of the
// corpus's descriptions are one for 100 bytes of them or fewer.
const bytesPerPair = 16

// minPairs is the pairs allowed however small the two descriptions are.
const minPairs = 1 << 14

// branchLists are the members whose branches the library compares each
// with each.
var branchLists = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true}

// PairsError is a comparison refused before the library was called: the
// pairs of schemas it would compare nest deeper, are more, or take more
// work than the library compares in time and memory linear in the text.
type PairsError struct {
	Depth, MostDepth int   // how deep the pairs nest, when too deep
	Pairs, MostPairs int   // how many pairs when the walk stopped, when too many
	Work, MostWork   int64 // the work they take, when too much
	Ops, MostOps     int64 // what the walk reads to find that, when too much
}

func (e *PairsError) Error() string { return e.reason() + pairsAdvice }

// pairsAdvice is what a refused comparison leaves to do.
const pairsAdvice = "; the run goes on without the report (set compare: false to skip the comparison)"

// reason is why the comparison was refused.
func (e *PairsError) reason() string {
	switch {
	case e.Depth > 0:
		return fmt.Sprintf("the schemas, as the two descriptions pair them, nest more than %d levels deep (inline or through $refs, or recursive schemas whose cycles differ in length), and the comparison's time grows as the square of the depth", e.MostDepth)
	case e.Pairs > 0:
		return fmt.Sprintf("the two descriptions' schemas pair into more than %d pairs to compare, the most their size allows (recursive schemas that differ in shape, or what is compared each with each: oneOf, anyOf or allOf branches, and the parameters or media types one side has and the other has not)", e.MostPairs)
	case e.Ops > 0:
		return fmt.Sprintf("the pairs of the two descriptions' schemas to compare take reading more than %d values, the most their size allows (many ways through their $refs)", e.MostOps)
	}
	return fmt.Sprintf("comparing the two descriptions would take more than %d steps, the most their size allows (schemas that nest deep or change much, named by many operations)", e.MostWork)
}

func (e *PairsError) Unwrap() error { return ErrTooLarge }

// pairKey names a pair of nodes, base and head.
type pairKey uint64

func pairOf(b, h int32) pairKey { return pairKey(uint64(uint32(b))<<32 | uint64(uint32(h))) }

func (k pairKey) nodes() (int32, int32) { return int32(uint32(k >> 32)), int32(uint32(k)) }

// pairWalk walks the pairs of nodes of base and head that the library
// compares, counting its work, and its own, against bounds.
type pairWalk struct {
	base, head *tree
	maxDepth   int
	maxPairs   int
	maxWork    int64
	maxOps     int64
	tooMany    bool // a list of branches paired into more than maxPairs
	cost       pairCost
	// height is each schema pair walked (pairs), the height below it, or
	// onPath.
	height map[pairKey]int
	// uses counts the schema pairs that the operations name, by how many
	// times (structure).
	uses map[pairKey]int64
	// seen is the pairs a walk from one schema pair reached (reach), as
	// the walk's number.
	seen  map[pairKey]int32
	walks int32
	// reached is what a walk from each schema pair costs (reach).
	reached map[pairKey]int64
	// itemsChanged is, of each pair of lists of values reached, how many
	// items one has that the other has not (changedItems).
	itemsChanged map[pairKey]int64
	pending      []pairKey
}

const onPath = -1

// pairCost is what a walk of pairs found: the depth of the deepest pair,
// the library's work and the walk's own.
type pairCost struct {
	depth int
	work  int64
	ops   int64 // the members of paired values the walk read
}

// errStop is the error of a walk stopped at one of its bounds.
func (w *pairWalk) errStop() error {
	switch {
	case w.cost.depth > w.maxDepth:
		return &PairsError{Depth: w.cost.depth, MostDepth: w.maxDepth}
	case len(w.height) > w.maxPairs || len(w.seen) > w.maxPairs || w.tooMany:
		return &PairsError{Pairs: max(len(w.height), len(w.seen), w.maxPairs+1), MostPairs: w.maxPairs}
	case w.cost.ops > w.maxOps:
		return &PairsError{Ops: w.cost.ops, MostOps: w.maxOps}
	}
	return &PairsError{Work: w.cost.work, MostWork: w.maxWork}
}

// charge adds n to the work; false once it is over the bound.
func (w *pairWalk) charge(n int64) bool {
	w.cost.work += n
	return w.cost.work <= w.maxWork
}

// below appends to w.pending the pairs below the pair b, h (both resolved)
// as the library pairs them, with whether each is a schema the structure
// around schemas names (its "schema" member), and but for those the same
// to the library when changed is set; false when a bound is passed.
func (w *pairWalk) below(b, h int32, changed bool, schemas *[]bool) bool {
	base, head := w.base, w.head
	nb, nh := base.nodes[b], head.nodes[h]
	scan := 1 + int64(nb.members()) + int64(nh.members())
	if schemas != nil {
		// The structure's extensions, compared as JSON: counted with the
		// pair, once for each way to it (structure).
		scan += base.extensions[b] + head.extensions[h]
	}
	if w.cost.ops += scan; w.cost.ops > w.maxOps || !w.charge(scan) {
		return false
	}
	bk := base.kids[nb.first : nb.first+nb.n]
	hk := head.kids[nh.first : nh.first+nh.n]
	add := func(x, y int32, schema bool) {
		if x < 0 || y < 0 {
			return
		}
		if bx, hy := base.nodes[x], head.nodes[y]; changed && !bx.touched() && !hy.touched() && bx.sum == hy.sum {
			return // no change below: the library's checks do not walk it
		}
		if x = base.resolved(x); x < 0 {
			return
		}
		if y = head.resolved(y); y < 0 {
			return
		}
		w.pending = append(w.pending, pairOf(x, y))
		if schemas != nil {
			*schemas = append(*schemas, schema)
		}
	}
	switch {
	case nb.object() && nh.object():
		for _, k := range bk {
			// An extension's value, read as text, is no node.
			key := base.key(k)
			if k.node < 0 {
				continue
			}
			v := head.member(h, key)
			if v < 0 {
				continue
			}
			lb, lh := base.nodes[k.node], head.nodes[v]
			switch {
			case string(key) == "security" && schemas != nil && !lb.object() && !lh.object():
				// Each requirement of one side with each of the other's.
				if !w.charge(int64(lb.members()) * int64(lh.members()) * securityCost) {
					return false
				}
			case string(key) == "content" && schemas != nil && lb.object() && lh.object():
				add(k.node, v, false)
				if !w.others(k.node, v, mediaTypeCost, add) {
					return false
				}
			case lb.object() || lh.object():
				add(k.node, v, string(key) == "schema")
			case branchLists[string(key)]:
				var xs, ys []int32
				for _, x := range base.kids[lb.first : lb.first+lb.n] {
					xs = append(xs, x.node)
				}
				for _, y := range head.kids[lh.first : lh.first+lh.n] {
					ys = append(ys, y.node)
				}
				if !w.eachWithEach(xs, ys, 1, false, add) {
					return false
				}
			case string(key) == "parameters" && schemas != nil:
				if !w.parameters(k.node, v, add) {
					return false
				}
			default:
				add(k.node, v, false)
			}
		}
		if schemas != nil && base.doc.swagger != head.doc.swagger && !w.acrossVersions(b, h, add) {
			return false
		}
		if nb.paths() && nh.paths() && !w.pathsByTemplate(b, h, add) {
			return false
		}
		if schemas == nil && !w.wrapped(b, h, add) {
			return false
		}
	case !nb.object() && !nh.object():
		// Member by member, by their places.
		for i, j := 0, 0; i < len(bk) && j < len(hk); {
			switch c := cmp.Compare(bk[i].key, hk[j].key); {
			case c < 0:
				i++
			case c > 0:
				j++
			default:
				add(bk[i].node, hk[j].node, false)
				i, j = i+1, j+1
			}
		}
	}
	return true
}

// parameters adds the pairs of the lists of parameters b and h as the
// library pairs them: by where each is (in) and its name; and, as it may
// pair the others (a path's parameters by their place in the path, a
// query's by the properties of an object exploded), each of the others
// with each; false when a bound is passed.
func (w *pairWalk) parameters(b, h int32, add func(x, y int32, schema bool)) bool {
	named := func(t *tree, list int32) map[string]int32 {
		n := t.nodes[list]
		out := make(map[string]int32, n.n)
		for _, k := range t.kids[n.first : n.first+n.n] {
			p := t.resolved(k.node)
			if p < 0 || !t.nodes[p].object() {
				continue
			}
			in, _ := t.str(p, "in")
			name, _ := t.str(p, "name")
			out[in+"\x00"+name] = k.node
		}
		return out
	}
	bs, hs := named(w.base, b), named(w.head, h)
	if w.cost.ops += int64(len(bs) + len(hs)); w.cost.ops > w.maxOps {
		return false
	}
	var restB, restH []int32
	for key, x := range bs {
		if y, ok := hs[key]; ok {
			add(x, y, false)
		} else {
			restB = append(restB, x)
		}
	}
	for key, y := range hs {
		if _, ok := bs[key]; !ok {
			restH = append(restH, y)
		}
	}
	slices.Sort(restB)
	slices.Sort(restH)
	return w.eachWithEach(restB, restH, 1, false, add)
}

// others adds, of the maps b and h, each member of b whose key h has not
// with each such member of h: the library compares each added media type
// with each removed one (cost a pair, in the walk's units) and pairs those
// it takes for the same; false when a bound is passed.
func (w *pairWalk) others(b, h int32, cost int64, add func(x, y int32, schema bool)) bool {
	rest := func(t, other *tree, m, o int32) []int32 {
		var out []int32
		n := t.nodes[m]
		for _, k := range t.kids[n.first : n.first+n.n] {
			if other.member(o, t.key(k)) < 0 {
				out = append(out, k.node)
			}
		}
		return out
	}
	return w.eachWithEach(rest(w.base, w.head, b, h), rest(w.head, w.base, h, b), cost, false, add)
}

// structureCost is what the library spends comparing a pair of the
// structure around schemas (a response, a header) again for each way to
// it, a member of the pair read, in the walk's units: a response of 1,000
// headers that 1,000 operations share took 7.3 s.
const structureCost = 16

// securityCost is what the library spends comparing a security
// requirement of one side with one of the other's, in the walk's units:
// lists of 4,000 each took 22 s.
const securityCost = 16

// mediaTypeCost is what the library spends comparing an added media type
// with a removed one, in the walk's units: 1,000 of each took 7.4 s.
const mediaTypeCost = 32

// eachWithEach adds each of xs with each of ys, schemas the structure
// names when schema is set, charging cost a pair: as many pairs as the
// product, which the pairs' bound bounds before any is made; false when
// it is passed, or the work's.
func (w *pairWalk) eachWithEach(xs, ys []int32, cost int64, schema bool, add func(x, y int32, schema bool)) bool {
	n := int64(len(xs)) * int64(len(ys))
	if n > int64(w.maxPairs) {
		w.tooMany = true
		return false
	}
	if w.cost.ops += n; w.cost.ops > w.maxOps || !w.charge(n*cost) {
		return false
	}
	for _, x := range xs {
		for _, y := range ys {
			add(x, y, schema)
		}
	}
	return true
}

// pathsByTemplate adds, of the maps of path items b and h (a callback),
// the pairs the library makes of the paths one has and the other has not
// as written: each with each of the other's of the same template; and
// charges what it spends looking for them, each among all of the other's;
// false when a bound is passed.
func (w *pairWalk) pathsByTemplate(b, h int32, add func(x, y int32, schema bool)) bool {
	rest := func(t, other *tree, m, o int32) map[string][]int32 {
		out := map[string][]int32{}
		n := t.nodes[m]
		for _, k := range t.kids[n.first : n.first+n.n] {
			if key := t.key(k); other.member(o, key) < 0 {
				out[template(string(key))] = append(out[template(string(key))], k.node)
			}
		}
		return out
	}
	rb, rh := rest(w.base, w.head, b, h), rest(w.head, w.base, h, b)
	unmatched := int64(0)
	for _, xs := range rb {
		unmatched += int64(len(xs)) * int64(w.head.nodes[h].members())
	}
	for _, ys := range rh {
		unmatched += int64(len(ys)) * int64(w.base.nodes[b].members())
	}
	if !w.charge(unmatched * pathCost) {
		return false
	}
	for _, t := range slices.Sorted(maps.Keys(rb)) {
		if !w.eachWithEach(rb[t], rh[t], 1, false, add) {
			return false
		}
	}
	return true
}

// wrapped adds, of the schemas b and h, the pairs of each with each of
// the other's oneOf branches: the library looks for it among them, as a
// schema the other wrapped in a oneOf; false when a bound is passed.
func (w *pairWalk) wrapped(b, h int32, add func(x, y int32, schema bool)) bool {
	branches := func(t *tree, node int32) []int32 {
		l := t.member(node, []byte("oneOf"))
		if l < 0 || t.nodes[l].object() {
			return nil
		}
		var out []int32
		n := t.nodes[l]
		for _, k := range t.kids[n.first : n.first+n.n] {
			out = append(out, k.node)
		}
		return out
	}
	// properties is how many properties node has: the library looks for
	// each in each branch.
	properties := func(t *tree, node int32) int64 {
		if p := t.member(node, []byte("properties")); p >= 0 {
			return int64(t.nodes[p].members())
		}
		return 0
	}
	// Each side with each of the other's branches, whether or not it has
	// branches of its own.
	xs, ys := branches(w.base, b), branches(w.head, h)
	return w.charge(int64(len(xs))*properties(w.head, h)*wrapCost+int64(len(ys))*properties(w.base, b)*wrapCost) &&
		w.eachWithEach(xs, []int32{h}, 1, false, add) && w.eachWithEach([]int32{b}, ys, 1, false, add)
}

// wrapCost is what the library spends looking for a property of a schema
// in a branch of the other side's oneOf, in the walk's units: 5,000
// properties in 2,500 branches took 3.5 s.
const wrapCost = 4

// acrossVersions adds the pairs of b and h, one of a Swagger 2.0
// description and one of OpenAPI 3, that the library makes of them once
// it has made the first an OpenAPI 3 description as well: a response's
// schema with each of the other's media types' schemas, and an
// operation's body parameter's with its request body's; false when a
// bound is passed.
func (w *pairWalk) acrossVersions(b, h int32, add func(x, y int32, schema bool)) bool {
	// byMedia is the schemas of the media types of node's member key (its
	// content, or its request body's content).
	byMedia := func(t *tree, node int32, key string) []int32 {
		var out []int32
		c := t.resolved(t.member(node, []byte(key)))
		if key == "requestBody" && c >= 0 {
			c = t.resolved(t.member(c, []byte("content")))
		}
		if c < 0 || !t.nodes[c].object() {
			return nil
		}
		n := t.nodes[c]
		for _, k := range t.kids[n.first : n.first+n.n] {
			if m := t.resolved(k.node); m >= 0 && t.nodes[m].object() {
				if s := t.member(m, []byte("schema")); s >= 0 {
					out = append(out, s)
				}
			}
		}
		return out
	}
	// bodies is the schemas of the body parameters of node.
	bodies := func(t *tree, node int32) []int32 {
		var out []int32
		l := t.member(node, []byte("parameters"))
		if l < 0 || t.nodes[l].object() {
			return nil
		}
		n := t.nodes[l]
		for _, k := range t.kids[n.first : n.first+n.n] {
			if p := t.resolved(k.node); p >= 0 && t.nodes[p].object() {
				if in, _ := t.str(p, "in"); in == "body" {
					if s := t.member(p, []byte("schema")); s >= 0 {
						out = append(out, s)
					}
				}
			}
		}
		return out
	}
	// of is the schemas of node in the Swagger description t, and those
	// of the other node o in the OpenAPI 3 one, u, that the library pairs.
	of := func(t *tree, node int32, u *tree, o int32) ([]int32, []int32) {
		var xs, ys []int32
		if s := t.member(node, []byte("schema")); s >= 0 {
			xs, ys = append(xs, s), append(ys, byMedia(u, o, "content")...)
		}
		if bs := bodies(t, node); len(bs) > 0 {
			if rs := byMedia(u, o, "requestBody"); len(rs) > 0 {
				xs, ys = append(xs, bs...), append(ys, rs...)
			}
		}
		return xs, ys
	}
	var xs, ys []int32
	if w.base.doc.swagger {
		xs, ys = of(w.base, b, w.head, h)
	} else {
		ys, xs = of(w.head, h, w.base, b)
	}
	return w.eachWithEach(xs, ys, 1, true, add)
}

// frame is a pair on a walk's path: pending[start:end] are the pairs
// below it, from next on not walked yet.
type frame struct {
	pair             pairKey
	start, next, end int
	height           int
}

// structure walks the structure around schemas from the pairs roots (path
// items, operations, responses, media types), each pair once, and counts
// in uses the schema pairs it names, each as many times as the library's
// checks walk it: once for each way from a root to the pair that names
// it (an operation's, a response's shared by many operations), counted
// along the pairs in an order where each comes after all that lead to it
// (a way that comes back to a pair on it is not counted).
func (w *pairWalk) structure(roots []pairKey, operations []bool) error {
	index := map[pairKey]int32{}
	const walking = -1
	var (
		order []int32                 // the pairs, each after all below it
		links = map[int32][]int32{}   // the pairs below each
		names = map[int32][]pairKey{} // the schema pairs each names
		state []int32                 // walking, or its place in order
		stack []frame
		kinds []bool
	)
	var scans []int64 // what each pair cost the walk to read
	enter := func(p pairKey) error {
		i := int32(len(state))
		index[p] = i
		state = append(state, walking)
		start := len(w.pending)
		b, h := p.nodes()
		before := w.cost.work
		if !w.below(b, h, true, &kinds) {
			return w.errStop()
		}
		scans = append(scans, w.cost.work-before)
		stack = append(stack, frame{pair: p, start: start, next: start, end: len(w.pending)})
		return nil
	}
	for _, r := range roots {
		if _, ok := index[r]; ok {
			continue
		}
		if err := enter(r); err != nil {
			return err
		}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			i := index[f.pair]
			if f.next == f.end {
				state[i] = int32(len(order))
				order = append(order, i)
				w.pending, kinds = w.pending[:f.start], kinds[:f.start]
				stack = stack[:len(stack)-1]
				continue
			}
			c, schema := w.pending[f.next], kinds[f.next]
			f.next++
			if schema {
				names[i] = append(names[i], c)
				continue
			}
			if j, ok := index[c]; ok {
				if state[j] != walking {
					links[i] = append(links[i], j)
				}
				continue
			}
			links[i] = append(links[i], int32(len(state)))
			if err := enter(c); err != nil {
				return err
			}
		}
	}
	// The ways to each pair, from the roots down: in order, the pairs
	// that lead to a pair come after it.
	// The ways start at the path items: the library compares the other
	// components once, and walks its checks from operations.
	ways := make([]int64, len(state))
	for i, r := range roots {
		if operations[i] {
			ways[index[r]]++
		}
	}
	most := w.maxWork + 1
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		for _, j := range links[i] {
			ways[j] = min(most, ways[j]+ways[i])
		}
		for _, p := range names[i] {
			w.uses[p] = min(most, w.uses[p]+ways[i])
		}
		// The library compares a pair once a way to it (a response that
		// many operations share, for each): the walk read it once.
		if more, scan := ways[i]-1, scans[i]*structureCost; more > 0 && scan > 0 && (more > w.maxWork/scan || !w.charge(more*scan)) {
			w.cost.work = w.maxWork + 1
			return w.errStop()
		}
	}
	return nil
}

// pairs walks the schema pairs from root, each once however many paths
// lead to it, and the height of each: the longest path below it that does
// not come back to a pair on the path, as deep as the library's walk goes
// from it; an error when it is deeper than w.maxDepth.
func (w *pairWalk) pairs(root pairKey) error {
	if _, ok := w.height[root]; ok {
		return nil
	}
	var stack []frame
	enter := func(p pairKey) bool {
		w.height[p] = onPath
		if len(w.height) > w.maxPairs {
			return false
		}
		start := len(w.pending)
		b, h := p.nodes()
		if !w.below(b, h, false, nil) {
			return false
		}
		if nb, nh := w.base.nodes[b], w.head.nodes[h]; !nb.object() && !nh.object() && nb.sum != nh.sum {
			// A list of values that changed: each item of one side
			// looked for among the other's.
			if !w.charge(int64(nb.members()) * int64(nh.members())) {
				return false
			}
		}
		stack = append(stack, frame{pair: p, start: start, next: start, end: len(w.pending)})
		// A path as deep as the bound is a height past it.
		w.cost.depth = max(w.cost.depth, len(stack))
		return len(stack) <= w.maxDepth
	}
	if !enter(root) {
		return w.errStop()
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == f.end {
			done := *f
			w.height[done.pair] = done.height
			stack, w.pending = stack[:len(stack)-1], w.pending[:done.start]
			w.cost.depth = max(w.cost.depth, done.height+1)
			if w.cost.depth > w.maxDepth {
				return &PairsError{Depth: w.cost.depth, MostDepth: w.maxDepth}
			}
			if len(stack) > 0 {
				p := &stack[len(stack)-1]
				p.height = max(p.height, done.height+1)
			}
			continue
		}
		c := w.pending[f.next]
		f.next++
		if got, ok := w.height[c]; ok {
			if got != onPath {
				f.height = max(f.height, got+1)
			}
			continue
		}
		if !enter(c) {
			return w.errStop()
		}
	}
	return nil
}

// reach is what one walk of the library's checks from the schema pair
// root costs: each changed pair it reaches (once), with its depth, which
// is the length of the name it gives the pair's property; and each change
// it reports, a pair whose own values differ, changeCost.
func (w *pairWalk) reach(root pairKey) (int64, error) {
	if n, ok := w.reached[root]; ok {
		return n, nil
	}
	w.walks++
	walk := w.walks
	var n int64
	type at struct {
		pair  pairKey
		depth int64
	}
	// Depth first: a pair's depth is where the walk first reaches it, as
	// the library's walk names it.
	stack := []at{{root, 1}}
	w.seen[root] = walk
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		start := len(w.pending)
		b, h := c.pair.nodes()
		if !w.below(b, h, true, nil) {
			return 0, w.errStop()
		}
		cost := c.depth + w.oneSided(b, h) + w.unmatched(b, h)*keyCost
		if nb, nh := w.base.nodes[b], w.head.nodes[h]; len(w.pending) == start && nb.sum != nh.sum {
			cost += changeCost
			if !nb.object() && !nh.object() {
				// A list of values (an enum, what is required): a change
				// for each item added or removed.
				cost += (w.changedItems(b, h) - 1) * itemCost
			}
		}
		if n += cost; !w.charge(cost) {
			return 0, w.errStop()
		}
		for _, p := range w.pending[start:] {
			if w.seen[p] != walk {
				w.seen[p] = walk
				stack = append(stack, at{p, c.depth + 1})
			}
		}
		w.pending = w.pending[:start]
		if len(w.seen) > w.maxPairs {
			return 0, w.errStop()
		}
	}
	w.reached[root] = n
	return n, nil
}

// changedItems is how many items of the lists b and h the other has not,
// at least 1: read once for each pair of lists.
func (w *pairWalk) changedItems(b, h int32) int64 {
	key := pairOf(b, h)
	if n, ok := w.itemsChanged[key]; ok {
		return n
	}
	xs, ys := w.base.items(b), w.head.items(h)
	if w.cost.ops += int64(len(xs) + len(ys)); w.cost.ops > w.maxOps {
		return int64(len(xs) + len(ys))
	}
	count := map[string]int{}
	for _, x := range xs {
		count[string(x)]++
	}
	for _, y := range ys {
		count[string(y)]--
	}
	n := int64(0)
	for _, c := range count {
		n += int64(max(c, -c))
	}
	n = max(n, 1)
	w.itemsChanged[key] = n
	return n
}

// unmatched is how many members of the objects b and h that the tree
// holds (objects and lists, every member of a map of names) the other has
// not: the library reports a change for each (a property added, a key of
// a mapping removed), once for each operation that reaches them.
func (w *pairWalk) unmatched(b, h int32) int64 {
	nb, nh := w.base.nodes[b], w.head.nodes[h]
	if !nb.object() || !nh.object() || nb.sum == nh.sum {
		return 0
	}
	n := int64(0)
	for _, side := range []struct {
		t, other *tree
		node, o  int32
	}{{w.base, w.head, b, h}, {w.head, w.base, h, b}} {
		m := side.t.nodes[side.node]
		for _, k := range side.t.kids[m.first : m.first+m.n] {
			if _, ok := side.other.memberKid(side.o, side.t.key(k)); !ok {
				n++
			}
		}
	}
	w.cost.ops += int64(nb.n + nh.n)
	return n
}

// keyCost is the work of a change the library reports of a member one
// side has and the other has not (a property added, a key of a mapping
// removed): 1,280,000 such changes, 20 operations naming 1,000 keys four
// ways, took 13.5 s; charged at a quarter of changeCost, for Stripe's
// releases, which add and remove many properties, take 111 steps a byte
// of the 128 so, where 137 at half.
const keyCost = changeCost / 4

// oneSided is the work of the changes the library reports of the lists
// of values that one of the objects b and h has and the other has not:
// a change an item (each property that became required, say).
func (w *pairWalk) oneSided(b, h int32) int64 {
	nb, nh := w.base.nodes[b], w.head.nodes[h]
	if !nb.object() || !nh.object() || nb.sum == nh.sum {
		return 0
	}
	n := int64(0)
	for _, key := range [][]byte{[]byte("required"), []byte("enum"), []byte("x-extensible-enum")} {
		x, y := w.base.member(b, key), w.head.member(h, key)
		switch {
		case x >= 0 && y < 0:
			n += listItems(w.base, x)
		case y >= 0 && x < 0:
			n += listItems(w.head, y)
		}
	}
	return n * itemCost
}

// itemCost is the work of a change the library reports of an item of a
// list of values (an enum value added, a property that became required):
// 200 operations naming an enum of 4,000 values that all changed took
// 32 s, some 20 µs a change, where Stripe's releases, whose lists change
// in many places, take half of what changeCost would count.
const itemCost = changeCost / 2

// changeCost is the work of a change the library reports, in the walk's
// units (a pair of its walk): each operation that names a schema of 1,000
// changed properties, each a change, took 32 µs a change, where a walk
// over Stripe's schemas took some 0.25 µs a pair.
const changeCost = 128

// newPairWalk is a walk of the pairs of base and head within the bounds.
func newPairWalk(base, head *tree, maxDepth, maxPairs int, maxWork, maxOps int64) *pairWalk {
	return &pairWalk{base: base, head: head, maxDepth: maxDepth, maxPairs: maxPairs, maxWork: maxWork, maxOps: maxOps,
		height: map[pairKey]int{}, uses: map[pairKey]int64{}, seen: map[pairKey]int32{}, reached: map[pairKey]int64{},
		itemsChanged: map[pairKey]int64{}}
}

// walkPairs walks the pairs of nodes of base and head that the library
// compares from roots (structure: path items and the components around
// schemas; schemas: the schemas of components), and says whether they are
// within bounds: no deeper than maxDepth, no more than maxPairs pairs of
// schemas, no more than maxWork of the library's work (each pair and the
// members of the two nodes it pairs, once for the pairs of schemas and of
// the structure, and a walk of the checks from each schema the operations
// name, for each time they name it), and no more than maxOps of its own.
func walkPairs(base, head *tree, structure [][2]int32, operations []bool, schemas [][2]int32, maxDepth, maxPairs int, maxWork, maxOps int64) (pairCost, error) {
	w := newPairWalk(base, head, maxDepth, maxPairs, maxWork, maxOps)
	resolved := func(rs [][2]int32) []pairKey {
		var out []pairKey
		for _, r := range rs {
			if b, h := base.resolved(r[0]), head.resolved(r[1]); b >= 0 && h >= 0 {
				out = append(out, pairOf(b, h))
			}
		}
		return out
	}
	var roots []pairKey
	var from []bool
	for i, r := range structure {
		if b, h := base.resolved(r[0]), head.resolved(r[1]); b >= 0 && h >= 0 {
			roots, from = append(roots, pairOf(b, h)), append(from, operations[i])
		}
	}
	if err := w.structure(roots, from); err != nil {
		return w.cost, err
	}
	named := slices.Sorted(maps.Keys(w.uses)) // so that a refusal does not depend on a map's order
	for _, p := range named {
		if err := w.pairs(p); err != nil {
			return w.cost, err
		}
		n, err := w.reach(p)
		if err != nil {
			return w.cost, err
		}
		if more := w.uses[p] - 1; more > 0 && n > 0 && (more > w.maxWork/n || !w.charge(n*more)) {
			w.cost.work = w.maxWork + 1
			return w.cost, w.errStop()
		}
	}
	for _, p := range resolved(schemas) {
		if err := w.pairs(p); err != nil {
			return w.cost, err
		}
	}
	return w.cost, nil
}

// checkPairs walks the pairs of schemas the library compares when given
// the units of p.keep (nil: all) of b and h, indexed from base and head,
// within the bounds for the two descriptions' size.
func checkPairs(base, head []byte, b, h *doc, p plan) error {
	keep, changed := p.keep, p.changed
	if changed == nil {
		changed = changedUnits(b, h)
	}
	bTree, hTree := newTree(base, b, changed), newTree(head, h, changed)
	if bTree == nil || hTree == nil {
		return fmt.Errorf("%w: the two descriptions are more than the walk of their pairs reads"+pairsAdvice, ErrTooLarge)
	}
	both := len(base) + len(head)
	maxWork := max(minPairWork, pairWorkPerByte*int64(both))
	// The paths the library does not find on the other side as written
	// (a path parameter renamed), each looked for among the other side's,
	// normalized and sorted again each time.
	paths := pathsUnmatched(b, h) * pathCost
	// The security required of the whole API, compared for each operation
	// that requires none of its own, each requirement of one side with each
	// of the other's; and its servers, each with each.
	items := func(key string) int64 {
		return listItems(bTree, bTree.part(key)) * listItems(hTree, hTree.part(key))
	}
	paths += items("security")*securityCost*operationsIn(hTree, h, keep) + items("servers")
	if paths > maxWork {
		return &PairsError{Work: paths, MostWork: maxWork}
	}
	structure, operations, schemas := pairRoots(bTree, hTree, b, h, keep)
	_, err := walkPairs(bTree, hTree, structure, operations, schemas, maxPairDepth, max(minPairs, both/bytesPerPair),
		maxWork-paths, max(minPairOps, pairOpsPerByte*int64(both)))
	if err == nil && (bTree.unread || hTree.unread) {
		// What the walk did not read it cannot weigh.
		return errUnread
	}
	return err
}

// listItems is how many items the list node of t has; 0 for none.
func listItems(t *tree, node int32) int64 {
	if node < 0 || t.nodes[node].object() {
		return 0
	}
	return int64(t.nodes[node].members())
}

// methods are the members of a path item that are its operations.
var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// operationsIn is how many operations the path items of keep (nil: all) of
// d, read into t, have.
func operationsIn(t *tree, d *doc, keep map[unitKey]bool) int64 {
	n := int64(0)
	for _, m := range d.sections["paths"] {
		k := unitKey{"paths", m.key}
		if keep != nil && !keep[k] {
			continue
		}
		if p := t.resolved(t.unit(k)); p >= 0 && t.nodes[p].object() {
			for _, kid := range t.kids[t.nodes[p].first : t.nodes[p].first+t.nodes[p].n] {
				if methods[string(t.key(kid))] {
					n++
				}
			}
		}
	}
	return n
}

// pathsUnmatched is, for each path of b or h that the other has not as
// written, how many paths the other has.
func pathsUnmatched(b, h *doc) int64 {
	n := int64(0)
	for _, sides := range [][2]*doc{{b, h}, {h, b}} {
		for _, m := range sides[0].sections["paths"] {
			if _, ok := sides[1].units[unitKey{"paths", m.key}]; !ok {
				n += int64(len(sides[1].sections["paths"]))
			}
		}
	}
	return n
}

// pathCost is what the library spends on a path it does not find as
// written, a path of the two descriptions, in the walk's units: 4,000
// paths whose parameters were all renamed took 40 s.
const pathCost = 4

// errUnread is a comparison refused because the walk of its pairs could
// not read a part of the descriptions that the index read.
var errUnread = fmt.Errorf("%w: a part of the descriptions could not be read to weigh what comparing them takes"+pairsAdvice, ErrTooLarge)

// pairRoots are the units of keep (nil: all) that the library compares,
// each a node of bTree and one of hTree: the structure around schemas
// (path items, and the components other than schemas), and the schemas.
func pairRoots(bTree, hTree *tree, b, h *doc, keep map[unitKey]bool) (structure [][2]int32, operations []bool, schemas [][2]int32) {
	headPaths := map[string][]unitKey{} // the head's paths of each template
	for _, m := range h.sections["paths"] {
		headPaths[template(m.key)] = append(headPaths[template(m.key)], unitKey{"paths", m.key})
	}
	// In the order of their names, so that the nodes are read, and the
	// pairs walked, in the same order on every run.
	keys := slices.SortedFunc(maps.Keys(b.units), func(x, y unitKey) int {
		return cmp.Or(cmp.Compare(x.sec, y.sec), cmp.Compare(x.name, y.name))
	})
	for _, k := range keys {
		if keep != nil && !keep[k] {
			continue
		}
		others := []unitKey{counterpart(k, b.swagger, h.swagger)}
		if _, ok := h.units[others[0]]; !ok && k.sec == "paths" {
			// Any of the head's paths of the same template: the library
			// takes the first whose parameters it can map.
			others = headPaths[template(k.name)]
		}
		for _, other := range others {
			if _, ok := h.units[other]; !ok {
				continue
			}
			x, y := bTree.unit(k), hTree.unit(other)
			switch {
			case x < 0 || y < 0:
			case k.sec == "components/schemas" || k.sec == "definitions":
				schemas = append(schemas, [2]int32{x, y})
			default:
				structure, operations = append(structure, [2]int32{x, y}), append(operations, k.sec == "paths")
			}
		}
	}
	// Webhooks (OpenAPI 3.1), path items by name, are document-level.
	if x, y := bTree.part("webhooks"), hTree.part("webhooks"); x >= 0 && y >= 0 && bTree.nodes[x].object() && hTree.nodes[y].object() {
		n := bTree.nodes[x]
		for _, k := range bTree.kids[n.first : n.first+n.n] {
			if v := hTree.member(y, bTree.key(k)); k.node >= 0 && v >= 0 {
				structure, operations = append(structure, [2]int32{k.node, v}), append(operations, true)
			}
		}
	}
	return structure, operations, schemas
}

// counterpart is the unit of the head that the library compares with the
// base's unit k: the same, or across versions the section that took its
// place (a Swagger 2.0 definition and an OpenAPI 3 schema).
func counterpart(k unitKey, fromSwagger, toSwagger bool) unitKey {
	switch {
	case fromSwagger == toSwagger || k.sec == "paths":
		return k
	case fromSwagger:
		sec := k.sec
		if sec == "definitions" {
			sec = "schemas"
		}
		return unitKey{"components/" + sec, k.name}
	default:
		sec := strings.TrimPrefix(k.sec, "components/")
		if sec == "schemas" {
			sec = "definitions"
		}
		return unitKey{sec, k.name}
	}
}
