package ghaction

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/redact"
	"github.com/docs-publish/docs-publish/internal/report"
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

// maxJSONOutput bounds an output whose value is a JSON text. GitHub takes
// 1 MB of outputs a job, counted as UTF-16 (two bytes a character of
// ASCII), and the step's other outputs need room beside it.
const maxJSONOutput = 256 << 10

// fitJSON returns text, a JSON value already scrubbed, within max bytes,
// and how many strings it cut: when text is longer, each string value
// longer than a length is cut to it and marked, the length the largest
// that fits. Names, numbers and the shape stay whole, so a value without
// strings to cut may stay over max. It reads the text twice, or more
// where escapes make the strings longer than counted.
func fitJSON(text string, max int) (string, int) {
	if len(text) <= max {
		return text, 0
	}
	whole, lengths, _, err := cutStrings(text, -1)
	if err != nil {
		return text, 0
	}
	for limit := fitLimit(lengths, len(defuseJSON(whole))-max); ; limit /= 2 {
		out, _, n, err := cutStrings(text, limit)
		if err != nil {
			return text, 0
		}
		// Written again, a string loses the escapes that broke a command.
		if out = defuseJSON(out); len(out) <= max || limit == 0 {
			return out, n
		}
	}
}

// fitLimit is the largest length that strings of lengths, each cut to it
// and marked, take at least over bytes less; 0 when none does.
func fitLimit(lengths []int, over int) int {
	saved := func(limit int) int {
		n := 0
		for _, l := range lengths {
			n += max(l-limit-len(report.CutMark), 0)
		}
		return n
	}
	longest := 0
	for _, l := range lengths {
		longest = max(longest, l)
	}
	// The largest limit in [0, longest] that saves enough: saved falls as
	// the limit grows.
	return max(sort.Search(longest+1, func(limit int) bool { return saved(limit) < over })-1, 0)
}

// cutStrings writes text again with each string value of more than limit
// bytes and the mark cut to limit (on a character's start) and marked, and
// counts them. With limit -1 it cuts nothing and returns the length of
// each string value.
func cutStrings(text string, limit int) (string, []int, int, error) {
	dec := jsontext.NewDecoder(strings.NewReader(text))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	var lengths []int
	n := 0
	for {
		// An object's name is read when the object holds an even count of
		// names and values so far.
		kind, length := dec.StackIndex(dec.StackDepth())
		isName := kind == '{' && length%2 == 0
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", nil, 0, err
		}
		if tok.Kind() == '"' && !isName {
			s := tok.String()
			switch {
			case limit < 0:
				lengths = append(lengths, len(s))
			case len(s) > limit+len(report.CutMark):
				cut := limit
				for cut > 0 && !utf8.RuneStart(s[cut]) {
					cut--
				}
				tok = jsontext.String(s[:cut] + report.CutMark)
				n++
			}
		}
		if err := enc.WriteToken(tok); err != nil {
			return "", nil, 0, err
		}
	}
	return strings.TrimSuffix(out.String(), "\n"), lengths, n, nil
}
