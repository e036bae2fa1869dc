package publish

import (
	"context"
	"io/fs"
)

// earlyBase is base-file's description loaded on a core of its own while
// the head is loaded, so that the comparison does not wait for it: the two
// loads took a third of a comparison of two 0.5 MB YAML descriptions.
type earlyBase struct {
	done chan struct{} // closed when desc and err are set
	desc *described
	err  error
	stop context.CancelFunc
}

// loadBaseEarly starts loading base-file's description, when the run
// compares with one: the comparison takes it (takeBase). A base-file of the
// head's size is left to the comparison, which finds a copy of the head
// without loading it (sameAsBase).
func (f *flow) loadBaseEarly(ctx context.Context) {
	if !f.plan.Compare || f.plan.BaseFile == "" {
		return
	}
	fsys := f.ws.FS()
	head, err := fs.Stat(fsys, f.plan.File)
	if err != nil {
		return
	}
	if b, err := fs.Stat(fsys, f.plan.BaseFile); err != nil || b.Size() == head.Size() {
		return
	}
	ctx, stop := context.WithCancel(ctx)
	e := &earlyBase{done: make(chan struct{}), stop: stop}
	go func() {
		defer close(e.done)
		e.desc, e.err = loadBase(ctx, &base{fsys: fsys, name: f.plan.BaseFile})
	}()
	f.early = e
}

// takeBase is the base description: the one loaded early, when b is
// base-file's and it was, else loaded now.
func (f *flow) takeBase(ctx context.Context, b *base) (*described, error) {
	e := f.early
	if e == nil || f.plan.BaseFile == "" || b.name != f.plan.BaseFile {
		return loadBase(ctx, b)
	}
	f.early = nil
	defer e.stop()
	select {
	case <-e.done:
	case <-ctx.Done():
		e.discard()
		return nil, ctx.Err()
	}
	// As runAside: when both are ready, ctx's end wins.
	if err := ctx.Err(); err != nil {
		e.discard()
		return nil, err
	}
	return e.desc, e.err
}

// discard lets go of the tree the load gives, now or once it ends: no one
// takes it.
func (e *earlyBase) discard() {
	go func() {
		<-e.done
		e.desc.drop()
	}()
}

// dropEarlyBase stops loading the base early, when the comparison did not
// take it (the head could not be loaded, or is its base's copy).
func (f *flow) dropEarlyBase() {
	if e := f.early; e != nil {
		e.stop()
		f.early = nil
		e.discard()
	}
}
