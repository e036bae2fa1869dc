package apidiff

import "sync/atomic"

// lineBytesRead counts the bytes of ignore lines read to match them
// against changes: the work that grows as the changes times the lines
// where each pair is checked on its own, which allocations do not show.
// Tests read it.
var lineBytesRead atomic.Int64

// textsIn says which texts some line holds and which lines hold some text,
// as strings.Contains would for every pair, reading each line once: an
// Aho–Corasick automaton of the texts, in time linear in the texts' and
// the lines' length together, where checking every pair took their
// numbers multiplied (a pull request's description may change thousands
// of components, and its ignore file hold thousands of lines).
func textsIn(texts, lines []string) (found, holds []bool) {
	a := newTextAutomaton(texts)
	holds = make([]bool, len(lines))
	for i, line := range lines {
		holds[i] = a.read(line)
	}
	return a.found(), holds
}

// textAutomaton is the trie of a set of texts with its failure links: the
// state reached after a byte of a line stands for the longest text prefix
// the line ends with there, and its failure links for the shorter ones.
type textAutomaton struct {
	next map[textEdge]int32
	fail []int32
	// first and sibling list each state's children, label the byte that
	// leads to it; order is every state, each after its failure link.
	first, sibling []int32
	label          []byte
	order          []int32
	ends           []bool  // a text ends at the state or at one its failure links reach
	seen           []bool  // a line read so far reached the state, or one whose failure links reach it
	end            []int32 // the state each text ends at
}

type textEdge struct {
	from int32
	c    byte
}

func newTextAutomaton(texts []string) *textAutomaton {
	a := &textAutomaton{next: map[textEdge]int32{}, end: make([]int32, len(texts))}
	a.state(0)
	for i, t := range texts {
		s := int32(0)
		for j := 0; j < len(t); j++ {
			to, ok := a.next[textEdge{s, t[j]}]
			if !ok {
				to = a.state(t[j])
				a.next[textEdge{s, t[j]}] = to
				a.sibling[to], a.first[s] = a.first[s], to
			}
			s = to
		}
		a.end[i], a.ends[s] = s, true
	}
	// Breadth first, so that a state's failure link, which is shallower,
	// is known before it.
	a.order = append(a.order[:0], 0)
	for k := 0; k < len(a.order); k++ {
		u := a.order[k]
		for v := a.first[u]; v >= 0; v = a.sibling[v] {
			if u != 0 {
				a.fail[v] = a.step(a.fail[u], a.label[v])
			}
			a.ends[v] = a.ends[v] || a.ends[a.fail[v]]
			a.order = append(a.order, v)
		}
	}
	return a
}

// state adds a state reached by c.
func (a *textAutomaton) state(c byte) int32 {
	a.fail = append(a.fail, 0)
	a.first, a.sibling = append(a.first, -1), append(a.sibling, -1)
	a.label = append(a.label, c)
	a.ends, a.seen = append(a.ends, false), append(a.seen, false)
	return int32(len(a.fail) - 1)
}

// step is the state after s reads c: the longest text prefix that what s
// stands for, followed by c, ends with.
func (a *textAutomaton) step(s int32, c byte) int32 {
	for {
		if to, ok := a.next[textEdge{s, c}]; ok {
			return to
		}
		if s == 0 {
			return 0
		}
		s = a.fail[s]
	}
}

// read reads line, and says whether it holds a text.
func (a *textAutomaton) read(line string) bool {
	lineBytesRead.Add(int64(len(line)))
	s := int32(0)
	a.seen[0] = true
	holds := a.ends[0]
	for i := 0; i < len(line); i++ {
		s = a.step(s, line[i])
		a.seen[s] = true
		holds = holds || a.ends[s]
	}
	return holds
}

// found says which texts a line read held.
func (a *textAutomaton) found() []bool {
	// A state reached stands for a text the line held there, and so for
	// every shorter one its failure links reach: deepest first, each
	// passes its mark on.
	for k := len(a.order) - 1; k > 0; k-- {
		if v := a.order[k]; a.seen[v] {
			a.seen[a.fail[v]] = true
		}
	}
	found := make([]bool, len(a.end))
	for i, s := range a.end {
		found[i] = a.seen[s]
	}
	return found
}
