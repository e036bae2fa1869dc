package m

import (
	"testing"

	"example.com/m/internal/testenv"
)

func TestCorpus(t *testing.T) { testenv.Long(t) }
