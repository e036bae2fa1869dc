package a

import (
	"testing"

	"example.com/m/internal/testenv"
)

func TestQuick(t *testing.T) {}

func TestLongSweep(t *testing.T) {
	testenv.Sweep(t)
}

func TestInAClosure(t *testing.T) {
	t.Run("x", func(t *testing.T) { testenv.Sweep(t) })
}

// A method of the same name elsewhere is not testenv's.
func TestOtherSweep(t *testing.T) {
	var s sweeper
	s.Sweep(t)
}

type sweeper struct{}

func (sweeper) Sweep(*testing.T) {}
