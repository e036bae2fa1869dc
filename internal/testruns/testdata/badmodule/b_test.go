package b

import "testing"

func needsSweep(t *testing.T) { testenv.Sweep(t) }

func TestHidden(t *testing.T) { needsSweep(t) }
