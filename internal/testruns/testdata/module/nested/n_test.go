package n

func TestNested(t *testing.T) { testenv.Sweep(t) }
