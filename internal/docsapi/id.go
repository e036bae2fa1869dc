package docsapi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ID is an identifier as the service sends it. The service may send a JSON
// number or a string; a number keeps its exact literal, so a 64-bit id is
// never rounded through a float.
type ID string

// UnmarshalJSON accepts a JSON string or number.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = ID(s)
	case bytes.Equal(b, []byte("null")):
		*id = ""
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("identifier %s is neither a string nor a number", b)
		}
		*id = ID(n.String())
	}
	return nil
}

func (id ID) String() string { return string(id) }
