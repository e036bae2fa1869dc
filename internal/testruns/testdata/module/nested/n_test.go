package n

func TestNested(t *testing.T) { testenv.Long(t) }
