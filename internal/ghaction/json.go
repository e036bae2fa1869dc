package ghaction

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/go-json-experiment/json/jsontext"
)

// scrubJSON is a JSON text with every secret scrubbed and its shape kept:
// object names and the syntax are as they were; each string value is
// scrubbed as written (escaped), and one that a mask would leave invalid
// (a mask inside an escape) becomes the mask alone; a number or a literal
// that holds a secret becomes null; ##[ and ##vso[ in a string are broken
// by an escape. Text that is not JSON is scrubbed and defused as a line.
func scrubJSON(text string, secrets *redact.Redactor) string {
	dec := jsontext.NewDecoder(strings.NewReader(text))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	for {
		v, err := dec.ReadValue()
		if errors.Is(err, io.EOF) {
			// Outside a string JSON holds no #: a ##[ or ##vso[ is in one,
			// where an escape breaks it and decodes to the same text.
			return defuseJSON(out.String())
		}
		if err == nil {
			err = enc.WriteValue(scrubValue(v, secrets))
		}
		if err != nil {
			return defuse(secrets.Redact(text))
		}
	}
}

// scrubValue scrubs one JSON value, an object's or array's members one by
// one.
func scrubValue(v jsontext.Value, secrets *redact.Redactor) jsontext.Value {
	switch v.Kind() {
	case '{', '[':
		dec := jsontext.NewDecoder(bytes.NewReader(v))
		var out bytes.Buffer
		enc := jsontext.NewEncoder(&out)
		start, err := dec.ReadToken() // { or [
		if err != nil {
			return jsontext.Value("null")
		}
		enc.WriteToken(start)
		for dec.PeekKind() != '}' && dec.PeekKind() != ']' {
			if v.Kind() == '{' {
				name, err := dec.ReadToken()
				if err != nil {
					return jsontext.Value("null")
				}
				enc.WriteToken(name)
			}
			member, err := dec.ReadValue()
			if err != nil {
				return jsontext.Value("null")
			}
			enc.WriteValue(scrubValue(member, secrets))
		}
		end, _ := dec.ReadToken()
		enc.WriteToken(end)
		return bytes.TrimSpace(out.Bytes())
	case '"':
		s := string(v)
		scrubbed := `"` + secrets.Redact(s[1:len(s)-1]) + `"`
		if !jsontext.Value(scrubbed).IsValid() {
			return jsontext.Value(`"` + redact.Mask + `"`)
		}
		return jsontext.Value(scrubbed)
	}
	if secrets.Has(string(v)) {
		return jsontext.Value("null")
	}
	return v
}
