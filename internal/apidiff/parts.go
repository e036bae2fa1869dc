package apidiff

import (
	"cmp"
	"slices"
)

// The library takes about 130 times the text it reads in memory (its YAML
// reader's nodes, kin-openapi's objects, the diff): a change that reaches
// every operation of a 5 MB description cost 1.5 GB. So the changed paths
// are given to it a part at a time, each part with the components its
// paths refer to and the document-level parts, and the reports are put
// together: memory is the descriptions', a few bytes a byte, and one part's
// worth of the library's.
//
// A part is its paths' changes: paths that the library matches as one
// endpoint go in the same part, and the changed components that no path of
// the part refers to go in the first part. What a part says of a component
// or of the document (a schema removed from components, info's version)
// may be said by other parts too: said once.

// maxPartText is the most text a part holds, both sides together: the
// library's memory for one part is some 130 times this.
const maxPartText = 256 << 10

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
	groups := [][]unitKey{append(first, base.levelRefs...)}
	groups[0] = append(groups[0], head.levelRefs...)
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
		if i > 0 && n > 0 && n+g > most {
			out = append(out, in)
			in, n = map[unitKey]bool{}, 0
			added, g = reach(append(slices.Clone(group), append(base.levelRefs, head.levelRefs...)...))
		}
		for _, k := range added {
			in[k] = true
		}
		n += g
	}
	return append(out, in)
}

// compareParts compares base and head a part of keep, of at most about
// most bytes, at a time, with the changes the ignore lines list moved
// aside, keeping MaxKept changes as it goes.
func compareParts(base, head *doc, keep map[unitKey]bool, drop map[string]bool, ignore []string, most int) (*Report, error) {
	rep := &Report{}
	said := map[string]bool{} // what parts said of no one path
	for _, set := range parts(keep, base, head, most) {
		s1, l1, err := base.read(set, drop)
		if err != nil {
			return nil, &ReadError{Base, err}
		}
		s2, l2, err := head.read(set, drop)
		if err != nil {
			return nil, &ReadError{Head, err}
		}
		r, err := compare(s1, s2, l1, l2)
		if err != nil {
			return nil, err
		}
		// What a part says of no one path, another may have said.
		fresh := &Report{}
		for i, c := range r.Changes {
			if c.Path == "" {
				key := c.ID + "\x00" + c.Operation + "\x00" + c.Text + "\x00" + c.HeadPointer + "\x00" + c.BasePointer
				if said[key] {
					continue
				}
				said[key] = true
			}
			fresh.Changes, fresh.scopes = append(fresh.Changes, c), append(fresh.scopes, r.scopes[i])
		}
		fresh.accept(ignore)
		rep.Changes, rep.scopes = append(rep.Changes, fresh.Changes...), append(rep.scopes, fresh.scopes...)
		rep.Accepted = append(rep.Accepted, fresh.Accepted...)
		if len(rep.Changes) > 2*MaxKept || len(rep.Accepted) > 2*MaxKept {
			rep.keep(MaxKept)
		}
	}
	rep.keep(MaxKept)
	return rep, nil
}
