package x

func TestInTestdata(t *testing.T) { testenv.Sweep(t) }
