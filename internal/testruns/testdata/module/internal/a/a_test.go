package a

import (
	"testing"

	"example.com/m/internal/testenv"
)

func TestQuick(t *testing.T) {}

func TestLongOne(t *testing.T) {
	testenv.Long(t)
}

func TestInAClosure(t *testing.T) {
	t.Run("x", func(t *testing.T) { testenv.Long(t) })
}

// A method of the same name elsewhere is not testenv's.
func TestOtherLong(t *testing.T) {
	var s longer
	s.Long(t)
}

type longer struct{}

func (longer) Long(*testing.T) {}
