package apidiff

import (
	"cmp"
	"context"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// The library takes some 30 times the text it reads in memory as JSON
// (kin-openapi's objects, the diff), and some 130 times when it reads it
// with the places of its values (its YAML reader's nodes): a change that
// reaches every operation of a 5 MB description cost 1.5 GB. So the changed
// paths are given to it a part at a time, each part with the components its
// paths refer to and the document-level parts, and the reports are put
// together: memory is the descriptions', a few bytes a byte, and one part's
// worth of the library's.
//
// A part is its paths' changes: paths that the library matches as one
// endpoint go in the same part, and the changed components that no path of
// a part refers to go first, each a group of its own, packed into parts by
// size as paths are. A part holds at most
// what the library can read within a budget of live heap (partcost.go).
// What a part says of a component or of the document (a schema removed
// from components, info's version) may be said by other parts too: said
// once.
//
// Only the breaking changes are shown at their places (as annotations, of
// which GitHub shows ten): the changes are found without places, and then
// the paths that hold breaking changes are compared again, with places, up
// to maxPlacingText of them; a breaking change beyond is shown at its
// operation. A part is read with places directly (places.go), at about a
// third more than without, unless the walk leaves its text to the library
// (a field written twice, a $ref written after the values beside it): its
// YAML reader then takes the time and the memory the bounds below are set
// for, whoever wrote the text.

// maxPartText is the most text a part holds, both sides together, read
// without places: the library's memory for one part is some 30 times
// this, and the whole text of a large description is less.
const maxPartText = 8 << 20

// minPartText is the text a part may hold whatever the descriptions' size.
const minPartText = 128 << 10

// maxPlacedPart is the most text a part read with places holds, both sides
// together: some 130 times this in memory.
const maxPlacedPart = 256 << 10

// maxPlacingText is the most text, both sides and all parts together, read
// again with places for the breaking changes; and at most an eighth of the
// two descriptions (reading with places costs some four times as much),
// so that placing costs at most about half what finding the changes does.
// The parts go in the report's order of paths, so the first breaking
// changes, which the annotations show, are placed first.
const maxPlacingText = 1 << 20

// minPlacingText is the text placing may read whatever the descriptions'
// size: a small description's first breaking changes are placed.
const minPlacingText = 64 << 10

// parts cuts keep (the units to compare) into parts, each with all its
// units refer to, in a stable order. A part holds at most about most bytes
// of units (more when one endpoint's paths and what they refer to are
// more): a unit that several of its paths refer to counts once, so that
// paths that share their components (as most do) go together, and each
// part is given those components once.
func parts(keep map[unitKey]bool, base, head *doc, most int) []map[unitKey]bool {
	size := func(k unitKey) int { return len(base.units[k]) + len(head.units[k]) }
	byTemplate := map[string][]unitKey{}
	var first []unitKey
	for k := range keep {
		if k.sec == "paths" {
			t := template(k.name)
			byTemplate[t] = append(byTemplate[t], k)
		} else {
			first = append(first, k)
		}
	}
	byKey := func(a, b unitKey) int { return cmp.Or(cmp.Compare(a.sec, b.sec), cmp.Compare(a.name, b.name)) }
	templates := make([]string, 0, len(byTemplate))
	for t := range byTemplate {
		templates = append(templates, t)
	}
	slices.Sort(templates)
	// The changed units that are no path each go as a group of their
	// own, so that the components a change reaches (most of GitHub's, a
	// change to a schema many share) are cut into parts as paths are.
	slices.SortFunc(first, byKey)
	level := slices.Concat(base.levelRefs, head.levelRefs)
	groups := [][]unitKey{level}
	for _, k := range first {
		groups = append(groups, []unitKey{k})
	}
	for _, t := range templates {
		groups = append(groups, byTemplate[t])
	}
	var out []map[unitKey]bool
	in, n := map[unitKey]bool{}, 0
	// reach is what of group the part does not hold yet, with what that
	// refers to, and its size.
	reach := func(group []unitKey) ([]unitKey, int) {
		var added []unitKey
		seen := map[unitKey]bool{}
		g := 0
		queue := slices.Clone(group)
		slices.SortFunc(queue, byKey)
		for len(queue) > 0 {
			k := queue[0]
			queue = queue[1:]
			if in[k] || seen[k] {
				continue
			}
			seen[k] = true
			added = append(added, k)
			g += size(k)
			for _, d := range []*doc{base, head} {
				queue = append(queue, d.refs[k]...)
			}
		}
		return added, g
	}
	for i, group := range groups {
		added, g := reach(group)
		// A group the part holds already adds nothing, and cuts no part:
		// schemas that each refer to the next would each start one
		// holding the rest of them.
		if len(added) > 0 && i > 0 && n > 0 && n+g > most {
			out = append(out, in)
			in, n = map[unitKey]bool{}, 0
			added, g = reach(slices.Concat(group, level))
		}
		for _, k := range added {
			in[k] = true
		}
		n += g
	}
	return append(out, in)
}

// cutting is how compareParts cuts its parts.
type cutting struct {
	// most is the most text a part holds.
	most int
	// budget is the live heap the library may hold for a part, as the
	// parts so far cost; 0: parts of most bytes.
	budget int
	// both is the text of the two descriptions together.
	both int
	// cost is what a part cost a byte of its text (partCost).
	cost func(from uint64, n int) float64
}

// cutFor is how Compare cuts the parts of two descriptions of both bytes
// together into parts of at most most bytes.
func cutFor(both, most int) cutting {
	return cutting{most: most, budget: partBudget(both), both: both, cost: partCost}
}

// maxTextRead is how many times the two descriptions' text the parts may
// hold, all together: a part holds what its paths refer to, so parts cut
// small for the budget, when many paths share a large schema, would have
// the library read it once a path, and the time grow as the paths times
// the schema. Past that, parts are cut larger, over the budget.
const maxTextRead = 4

// compareParts compares base and head a part of keep at a time, with the
// changes the ignore lines list moved aside, keeping MaxKept changes as it
// goes; and how much text the library was given. A part holds at most
// about cut.most bytes of text, and at most what the library can read
// within cut.budget bytes of live heap, as the parts so far cost
// (partcost.go), so that the memory a comparison holds follows the
// descriptions' size, not the number of changes; unless parts that small
// would hold more than maxTextRead times the two descriptions' text all
// together, when they are cut as large as that text allows.
func compareParts(ctx context.Context, base, head *doc, keep map[unitKey]bool, drop map[string]bool, ignore *ignores, cut cutting) (*Report, int, error) {
	rep := &Report{}
	said := map[string]bool{} // what parts said of no one path
	done := map[unitKey]bool{}
	size, cost, measured := cut.most, float64(firstPartCost), false
	if cut.budget > 0 {
		size = min(partSize(cut.budget, cost, cut.most), maxFirstPart)
	}
	read, given := 0, 0 // the text of the parts compared, and as given to the library
	// A path another refers to (a link's operationRef) is read in that
	// path's part too: its changes are said by the first part that holds
	// all the changed paths the library matches with it.
	changed := map[string][]unitKey{} // the changed paths, by template
	for k := range keep {
		if k.sec == "paths" {
			changed[template(k.name)] = append(changed[template(k.name)], k)
		}
	}
	owned := map[string]bool{} // the templates whose changes were said
	// plan cuts rest into parts of size bytes; where they would hold more
	// text than the bound, all together, into parts of cut.most bytes, as
	// without a budget, and larger still while they would.
	plan := func(rest map[unitKey]bool) []map[unitKey]bool {
		sets := parts(rest, base, head, size)
		over := func() bool { return cut.both > 0 && read+textOf(sets, base, head) > maxTextRead*cut.both }
		if size < cut.most && over() {
			size = cut.most
			sets = parts(rest, base, head, size)
		}
		for size < maxPartText && over() {
			size = min(2*size, maxPartText)
			sets = parts(rest, base, head, size)
		}
		return sets
	}
	sets := plan(keep)
	for len(sets) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		set := sets[0]
		sets = sets[1:]
		from := heapAllocated()
		r, n, err := compareSet(ctx, base, head, set, drop, false)
		if err != nil {
			return nil, 0, err
		}
		m := textOf([]map[unitKey]bool{set}, base, head)
		read, given = read+m, given+n
		for k := range set {
			done[k] = true
		}
		// The first part measured sets the cost, a costlier one raises it:
		// a byte of the units' text, as parts are cut.
		c := 0.0
		if cut.budget > 0 && len(sets) > 0 {
			c = cut.cost(from, m)
		}
		if c > 0 && (!measured || c > cost) {
			cost, measured = c, true
			// The units not compared yet, in parts as large as that cost
			// allows, when it is a quarter more or less than so far.
			if next := partSize(cut.budget, cost, cut.most); next > size+size/4 || next < size-size/4 {
				size = next
				rest := map[unitKey]bool{}
				for k := range keep {
					if !done[k] {
						rest[k] = true
					}
				}
				sets = plan(rest)
			}
		}
		own := map[string]bool{}
		for k := range set {
			if t := template(k.name); k.sec == "paths" && !owned[t] && !own[t] &&
				!slices.ContainsFunc(changed[t], func(k unitKey) bool { return !set[k] }) {
				own[t] = true
			}
		}
		// What a part says of no one path, another may have said.
		fresh := &Report{}
		for i, c := range r.Changes {
			if _, ok := changed[template(c.Path)]; ok && c.Path != "" && !own[template(c.Path)] {
				continue // another part's
			}
			if c.Path == "" {
				key := c.ID + "\x00" + c.Operation + "\x00" + c.Text
				if said[key] {
					continue
				}
				said[key] = true
			}
			fresh.Changes, fresh.scopes = append(fresh.Changes, c), append(fresh.scopes, r.scopes[i])
		}
		for t := range own {
			owned[t] = true
		}
		fresh.accept(ignore)
		fresh.shorten()
		rep.Changes, rep.scopes = append(rep.Changes, fresh.Changes...), append(rep.scopes, fresh.scopes...)
		rep.Accepted = append(rep.Accepted, fresh.Accepted...)
		if len(rep.Changes) > 2*MaxKept || len(rep.Accepted) > 2*MaxKept {
			rep.keep(MaxKept)
		}
	}
	rep.keep(MaxKept)
	return rep, given, nil
}

// textOf is the text of the units of sets, both sides, a unit counted in
// each set that holds it.
func textOf(sets []map[unitKey]bool, base, head *doc) int {
	n := 0
	for _, set := range sets {
		for k := range set {
			n += len(base.units[k]) + len(head.units[k])
		}
	}
	return n
}

// partSize is the most text of a part whose every byte costs cost bytes of
// live heap, for the library to hold at most budget: between
// minBudgetedPart and most.
func partSize(budget int, cost float64, most int) int {
	return min(most, max(minBudgetedPart, int(float64(budget)/cost)))
}

// compareSet compares the units of set, placed or not, each side read on a
// core of its own; and how much text the two sides were.
func compareSet(ctx context.Context, base, head *doc, set map[unitKey]bool, drop map[string]bool, placed bool) (*Report, int, error) {
	type side struct {
		s   *openapi3.T
		l   *lines
		n   int
		err error
	}
	// Each side under guardOwn, its calls into the library under guard:
	// placing passes a part that fails over, and a panic in the goroutine
	// would end the run.
	readSide := func(d *doc) side {
		s, err := guardOwn(func() (side, error) {
			var s side
			s.s, s.l, s.n, s.err = d.read(set, drop, placed)
			return s, nil
		})
		if err != nil {
			s.err = err
		}
		return s
	}
	var b side
	done := make(chan struct{})
	go func() {
		defer close(done)
		b = readSide(base)
	}()
	h := readSide(head)
	<-done
	if b.err != nil {
		return nil, 0, &ReadError{Base, b.err}
	}
	if h.err != nil {
		return nil, 0, &ReadError{Head, h.err}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	r, err := compare(b.s, h.s, b.l, h.l)
	return r, b.n + h.n, err
}

// placeKey names a change across comparisons of different parts, its
// text as the report keeps it.
func placeKey(c Change) string {
	return c.ID + "\x00" + c.Operation + "\x00" + c.Path + "\x00" + shortText(c.Text)
}

// place gives the breaking changes of rep their places, comparing again,
// with places, the paths that hold them (and, for a breaking change to no
// one path, the changed units of keep that are no path), up to
// most bytes of text, in parts of about part bytes. A change it does not
// reach keeps no place: it is an extra, so a part that fails to compare is
// passed over.
func place(ctx context.Context, rep *Report, base, head *doc, keep map[unitKey]bool, drop map[string]bool, most, part int) {
	wanted := map[string]bool{}
	templates := map[string]bool{}
	level := false
	for _, c := range rep.Changes {
		if c.Level != Breaking {
			break // the most serious come first
		}
		wanted[placeKey(c)] = true
		if c.Path == "" {
			level = true
		} else {
			templates[template(c.Path)] = true
		}
	}
	if len(wanted) == 0 {
		return
	}
	again := map[unitKey]bool{}
	for k := range keep {
		if k.sec == "paths" && templates[template(k.name)] || k.sec != "paths" && level {
			again[k] = true
		}
	}
	at := map[string][2]string{}
	read := 0
	for _, set := range parts(again, base, head, min(part, most)) {
		if ctx.Err() != nil {
			break // the changes found so far keep their places
		}
		// A part that would take the text read past most is passed over:
		// the library's memory for it is some 130 times its text.
		if n := textOf([]map[unitKey]bool{set}, base, head); read+n > most {
			continue
		}
		r, n, err := compareSet(ctx, base, head, set, drop, true)
		read += n
		if err != nil {
			continue
		}
		for _, c := range r.Changes {
			if k := placeKey(c); wanted[k] && (c.HeadPointer != "" || c.BasePointer != "") {
				if _, ok := at[k]; !ok {
					at[k] = [2]string{c.HeadPointer, c.BasePointer}
				}
			}
		}
	}
	for i, c := range rep.Changes {
		if p, ok := at[placeKey(c)]; ok {
			rep.Changes[i].HeadPointer, rep.Changes[i].BasePointer = p[0], p[1]
		}
	}
}
