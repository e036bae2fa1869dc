package redact

import "slices"

// automaton is the suffix automaton of a text: it reads another text a
// byte at a time and knows, after each, the longest run ending there that
// the text holds (its matching statistics), at a constant cost a byte
// amortized, whatever the text repeats. It has at most two states a byte
// of the text.
type automaton struct {
	length []int32 // of the longest text a state stands for
	link   []int32 // the state of its longest suffix in another state; -1 at the root
	next   [][]edge
}

type edge struct {
	c  byte
	to int32
}

func newAutomaton(text string) *automaton {
	a := &automaton{length: []int32{0}, link: []int32{-1}, next: [][]edge{nil}}
	last := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		cur := a.state(a.length[last] + 1)
		p := last
		for ; p >= 0 && a.to(p, c) < 0; p = a.link[p] {
			a.set(p, c, cur)
		}
		switch {
		case p < 0:
			a.link[cur] = 0
		case a.length[a.to(p, c)] == a.length[p]+1:
			a.link[cur] = a.to(p, c)
		default:
			q := a.to(p, c)
			clone := a.state(a.length[p] + 1)
			a.next[clone] = slices.Clone(a.next[q])
			a.link[clone] = a.link[q]
			for ; p >= 0 && a.to(p, c) == q; p = a.link[p] {
				a.set(p, c, clone)
			}
			a.link[q], a.link[cur] = clone, clone
		}
		last = cur
	}
	return a
}

func (a *automaton) state(length int32) int32 {
	a.length = append(a.length, length)
	a.link = append(a.link, -1)
	a.next = append(a.next, nil)
	return int32(len(a.length) - 1)
}

// to is the state state goes to on c, -1 for none.
func (a *automaton) to(state int32, c byte) int32 {
	for _, e := range a.next[state] {
		if e.c == c {
			return e.to
		}
	}
	return -1
}

func (a *automaton) set(state int32, c byte, to int32) {
	for i, e := range a.next[state] {
		if e.c == c {
			a.next[state][i].to = to
			return
		}
	}
	a.next[state] = append(a.next[state], edge{c, to})
}

// walk is a reading of a text by an automaton: after each byte, n is the
// length of the longest run ending there that the automaton's text holds.
type walk struct {
	state int32
	n     int
}

func (a *automaton) step(w *walk, c byte) {
	for w.state > 0 && a.to(w.state, c) < 0 {
		w.state = a.link[w.state]
		w.n = int(a.length[w.state])
	}
	if t := a.to(w.state, c); t >= 0 {
		w.state, w.n = t, w.n+1
		return
	}
	w.state, w.n = 0, 0
}
