package b

import "testing"

func needsLong(t *testing.T) { testenv.Long(t) }

func TestHidden(t *testing.T) { needsLong(t) }
