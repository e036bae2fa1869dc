package x

func TestInTestdata(t *testing.T) { testenv.Long(t) }
