package apidiff

import "runtime/metrics"

// What a part costs the library in memory depends on what changed in it,
// not only on its text: a part whose every operation changed held some 40
// bytes of live heap a byte of its text (kin-openapi's objects and the
// library's diff of each operation), one whose every schema changed some
// 70, and the parts of GitHub's releases, whose changes are few beside the
// components their paths share, some 13. So the first part is cut small,
// as if it cost firstPartCost, and the next ones at the most a part cost so
// far.
//
// What a part holds live is told from what it allocated: some 7 times as
// much on GitHub's releases (90 to 100 bytes a byte of text), 6 when every
// operation changed, 3 when every schema did; allocPerLive is between, so
// that GitHub's parts stay as large as before (parts of 1 MB took it a
// third more CPU, of 2 MB the same) and those of many small schemas hold
// about twice their budget. Counting it is free, where telling what is
// live takes a collection of the whole heap, some 100 ms of CPU when the
// process holds GitHub's description.

// firstPartCost is the live heap a byte of a part's text is taken to cost
// before a part was measured: less than a part whose every operation
// changed costs, so that a small change (Blockfrost's, 110 kB of text)
// is one part, and the first part is at most maxFirstPart.
const firstPartCost = 24

// maxFirstPart is the most text of the first part, which is cut before
// any part was measured: a part of that size whose every schema changed
// holds some 9 MB, whatever the descriptions' size.
const maxFirstPart = 128 << 10

// allocPerLive is what the library allocates for a part, about, for each
// byte it holds live at once.
const allocPerLive = 4

// minMeasuredText is the least text of a part whose cost counts: below
// it, what the rest of the process allocates meanwhile weighs too much.
const minMeasuredText = 32 << 10

// partBudget is the most live heap the library is to hold for one part
// when the two descriptions are both bytes together: 2 bytes a byte of the
// two, and 4 MB whatever their size (which, for two descriptions whose
// every operation changed, is parts of some 100 kB). At 4 bytes a byte, a
// run whose every operation changed took 12 to 13 bytes of memory a byte
// more of the two from 2 MB of both up (the parts and the index some 7
// live, the heap's gaps some 3.5, the collector's room over them), where
// the target is 10; at 2 it takes 7 to 9, and GitHub's releases with
// hundreds of changes take some half as much CPU again, in smaller parts.
func partBudget(both int) int {
	return max(minPartBudget, partBudgetPerByte*both)
}

const (
	partBudgetPerByte = 2
	minPartBudget     = 4 << 20
	// minBudgetedPart is the least text a part is cut to, whatever its
	// cost: a part holds the document-level members and what they refer
	// to, which every part reads again.
	minBudgetedPart = 64 << 10
)

// indexPerByte is what the comparison holds live a byte of the two
// descriptions besides its parts, about: the index of their units (prune.go).
const indexPerByte = 2

// Memory is the most live heap a comparison of two descriptions of n
// bytes together holds beyond them, about, however many changes they
// differ by: its index of the two and a part's budget. A unit larger than
// the budget (one path, one schema) is a part of its own, and costs more.
func Memory(n int64) int64 {
	return indexPerByte*n + int64(partBudget(int(n)))
}

// heapAllocated is what the process has allocated so far.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// partCost is the live heap a byte of a part's text of n bytes cost, told
// from what the process allocated since from, 0 when the part is too small
// to tell.
func partCost(from uint64, n int) float64 {
	if n < minMeasuredText {
		return 0
	}
	return float64(heapAllocated()-from) / allocPerLive / float64(n)
}
