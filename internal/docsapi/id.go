package docsapi

// ID is an identifier as the service sends it. The service may send a JSON
// number or a string; a number keeps its exact literal, so a 64-bit id is
// never rounded through a float.
type ID string

func (id ID) String() string { return string(id) }
