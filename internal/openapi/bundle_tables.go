package openapi

import (
	"hash/maphash"
	"math/bits"
)

// The bundler's table of the targets lifted (and of the files read) holds
// an entry for each $ref to a target of its own: 64,000 of them in 4 MB of
// description. Go maps of strings took 50 to 80 bytes an entry there, a
// third of what bundling held besides the tree; these tables find their
// entries by hash through four-byte slots instead, the strings held where
// they already are. So does an object's index for the members appended
// since it was sorted (objectIndex).

// posTable finds entries by a string key through their positions in a list
// its user keeps: open addressing over slots at most three quarters full
// (5 to 11 bytes an entry; at most half full took 8 to 16, a fifth of what
// bundling held besides the tree of a file of one small schema).
type posTable struct {
	slots []int32 // an entry's position + 1; 0 is free
	n     int     // the entries added
}

// tableSeed hashes every table's keys: what a table finds does not depend
// on it, so neither do the names the bundler picks.
var tableSeed = maphash.MakeSeed()

// find is the lowest position of the entries whose key is key, or -1.
func (t *posTable) find(key string, keyAt func(int) string) int {
	found := -1
	if len(t.slots) == 0 {
		return found
	}
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(tableSeed, key) & mask; t.slots[i] != 0; i = (i + 1) & mask {
		if pos := int(t.slots[i] - 1); (found < 0 || pos < found) && keyAt(pos) == key {
			found = pos
		}
	}
	return found
}

// add records the entry at pos, whose key is keyAt(pos).
func (t *posTable) add(pos int, keyAt func(int) string) {
	if 4*(t.n+1) > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]int32, max(16, 2*len(old)))
		for _, s := range old {
			if s != 0 {
				t.put(int(s-1), keyAt)
			}
		}
	}
	t.put(pos, keyAt)
	t.n++
}

// put places pos in the first free slot from its key's.
func (t *posTable) put(pos int, keyAt func(int) string) {
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(tableSeed, keyAt(pos)) & mask; ; i = (i + 1) & mask {
		if t.slots[i] == 0 {
			t.slots[i] = int32(pos + 1)
			return
		}
	}
}

// liftedTable maps each target lifted (its file and pointer) to the local
// $ref that now names it.
type liftedTable struct {
	keys, locals []string
	t            posTable
}

func (l *liftedTable) keyAt(pos int) string { return l.keys[pos] }

// get is the local $ref of the target key, if it was lifted.
func (l *liftedTable) get(key string) (string, bool) {
	if pos := l.t.find(key, l.keyAt); pos >= 0 {
		return l.locals[pos], true
	}
	return "", false
}

// set makes local the $ref of the target key, in place of any before.
func (l *liftedTable) set(key, local string) {
	if pos := l.t.find(key, l.keyAt); pos >= 0 {
		l.locals[pos] = local
		return
	}
	l.keys, l.locals = append(l.keys, key), append(l.locals, local)
	l.t.add(len(l.keys)-1, l.keyAt)
}

// loadedFile is a file a bundling read: the Source every node of its tree
// names, the tree, and the local $ref of the file lifted whole. A file of
// one small schema costs this record, its tree and its lifted name; a Go
// map from path to tree, a Source of its own and an entry of the targets
// lifted took some 150 bytes more, more than the file's text twice.
type loadedFile struct {
	src  Source
	root *Node // nil: it could not be loaded, and was reported
	// local names the file lifted whole (a $ref to it with no pointer),
	// once it is: "" until then.
	local string
}

// fileTable is the files a bundling read, by slash path, found through a
// posTable; their records are cut from blocks, as nodes are from a slab,
// for their Sources must not move. A record's position in the table says
// which block holds it (recordAt), where a list of pointers to them took
// 8 bytes a file more, and more while it grew.
type fileTable struct {
	blocks [][]loadedFile // the first two of one record, then doubling up to fileBlockMax
	n      int            // the records handed out
	t      posTable
}

// fileBlockMax bounds a block of records: the first blocks are small, so
// that a description of a few files costs a few records.
const fileBlockMax = 256

// blockOf is the block that holds the record at pos, and its place there:
// blocks of 1, 1, 2, 4, … fileBlockMax records, then fileBlockMax each.
func blockOf(pos int) (block, at int) {
	if pos >= fileBlockMax {
		pos -= fileBlockMax
		return bits.Len(fileBlockMax) + pos/fileBlockMax, pos % fileBlockMax
	}
	block = bits.Len(uint(pos))
	if block == 0 {
		return 0, 0
	}
	return block, pos - 1<<(block-1)
}

// recordAt is the record at pos.
func (ft *fileTable) recordAt(pos int) *loadedFile {
	block, at := blockOf(pos)
	return &ft.blocks[block][at]
}

func (ft *fileTable) keyAt(pos int) string { return ft.recordAt(pos).src.Name }

// dropTrees lets go of the trees the records hold, once bundling is done:
// the bundled description's nodes name their files' Sources, which sit in
// the records' blocks, and a block kept so must not keep the whole tree of
// every file in it (a large shared file of which one schema is used).
func (ft *fileTable) dropTrees() {
	for pos := range ft.n {
		f := ft.recordAt(pos)
		f.root, f.local = nil, ""
	}
}

// get is the record of the file name, or nil if it was not read.
func (ft *fileTable) get(name string) *loadedFile {
	if pos := ft.t.find(name, ft.keyAt); pos >= 0 {
		return ft.recordAt(pos)
	}
	return nil
}

// add records the file name, read with bud, and returns its record.
func (ft *fileTable) add(name string, bud *budget) *loadedFile {
	block, at := blockOf(ft.n)
	if block == len(ft.blocks) {
		ft.blocks = append(ft.blocks, make([]loadedFile, min(max(ft.n, 1), fileBlockMax)))
	}
	f := &ft.blocks[block][at]
	f.src = Source{Name: name, budget: bud}
	ft.n++
	ft.t.add(ft.n-1, ft.keyAt)
	return f
}

// len is how many files were read.
func (ft *fileTable) len() int { return ft.n }
