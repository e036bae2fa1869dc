package publish

import (
	"context"
	"runtime"

	"github.com/docs-publish/docs-publish/internal/githubapi"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// baseAgain is the base's tree for placing changes once compared. The tree
// the comparison loaded is let go before it compares: it held some 8 bytes
// a byte of the base beside what the comparison keeps live, and most
// changes are placed in the head. The base is read again from its files
// the first time a change needs a place in it (an operation or a component
// the head no longer has), as it was read the first time, its JSON not
// kept. A base read through GitHub's API keeps its tree: read again, it
// would be fetched again, against the API's time and files for the run.
type baseAgain struct {
	f    *flow
	ctx  context.Context
	b    *base
	desc *described
	read bool // read again, or kept: doc reads no more
}

// letBaseGo lets the base's tree d go, unless b is read through GitHub's
// API, and gives what reads it again when a change needs it.
func (f *flow) letBaseGo(ctx context.Context, b *base, d *described) *baseAgain {
	if _, remote := b.fsys.(*githubapi.Files); remote {
		return &baseAgain{desc: d, read: true}
	}
	// Read again for its tree alone (placing changes needs no upload), and
	// as it was read in the end, not first as the head is.
	again := *b
	again.treeOnly = true
	if d != nil && d.lastKeys { // d may be nil, as drop takes it: nothing read yet
		again.lastKeys = true
	}
	d.drop()
	return &baseAgain{f: f, ctx: ctx, b: &again}
}

// doc is the base's tree, read again when first asked for; nil when it
// cannot be read, and then the changes it would place are annotated at
// their operation.
func (a *baseAgain) doc() *openapi.Node {
	if !a.read {
		a.read = true
		// What the comparison left is garbage: collected first, the
		// load reuses its room rather than growing the heap past it, as
		// the collector's limit, the comparison's cap gone, would let it
		// (GitHub's 20.0.0 → 21.0.0: a peak of 125 MB where 142).
		runtime.GC()
		a.f.rep.Debugf("reading %s again to place the changes the head has no place for", a.b.label)
		d, err := loadBase(a.ctx, a.b)
		if err != nil {
			a.f.rep.Infof("%s cannot be read again to place the changes it holds (%v): they are annotated at their operation or on the description's main file instead; a base that changed while the job ran reads as it is on the next run", a.b.label, err)
			return nil
		}
		a.desc = d
	}
	if a.desc == nil {
		return nil
	}
	return a.desc.doc
}

// drop lets the tree go, kept or read again.
func (a *baseAgain) drop() {
	a.desc.drop()
}

// treeOf is the tree doc gives, nil for no doc.
func treeOf(doc func() *openapi.Node) *openapi.Node {
	if doc == nil {
		return nil
	}
	return doc()
}
