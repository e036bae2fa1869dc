package emulator

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Helpers the site's collector uses on the ordered JSON tree: local
// references, anchors, and values shown as JSON literals.

// maxRefHops bounds a chain of references to references.
const maxRefHops = 16

// resolve follows a local reference ("#/a/b") in the description. It
// answers nil for a reference to another file or to nothing.
func resolve(root *object, ref string) any {
	p, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	var cur any = root
	if p == "" {
		return cur
	}
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = unescapePointer(unescapePercent(tok))
		switch v := cur.(type) {
		case *object:
			if _, ok := v.vals[tok]; !ok {
				return nil
			}
			cur = v.vals[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

// deref follows o's $ref chain to the object it ends at; it answers o
// itself when o is no reference, and nil for a reference it cannot follow.
func deref(root, o *object) *object {
	for range maxRefHops {
		ref, isRef := o.get("$ref").(string)
		if !isRef {
			return o
		}
		next, _ := resolve(root, ref).(*object)
		if next == nil {
			return nil
		}
		o = next
	}
	return nil
}

// componentKey answers the name of the component ref points at, when ref
// is exactly prefix + one name ("#/components/schemas/Book" → "Book").
func componentKey(ref, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(ref, prefix)
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	return unescapePointer(unescapePercent(rest)), true
}

func unescapePercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func keysOf(o *object) []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// strings answers the strings of the array at k.
func (o *object) strs(k string) []string {
	arr, _ := o.get(k).([]any)
	var out []string
	for _, v := range arr {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (o *object) has(k string) bool {
	return o != nil && o.vals[k] != nil
}

func (o *object) isTrue(k string) bool {
	b, _ := o.get(k).(bool)
	return b
}

// anchors hands out unique element ids made from names.
type anchors struct {
	used map[string]bool
	next map[string]int // base → next number to try on a clash
}

func (a *anchors) make(kind, name string) string {
	if a.used == nil {
		a.used, a.next = map[string]bool{}, map[string]int{}
	}
	base := kind + "-" + slug(name)
	if slug(name) == "" {
		base = kind
	}
	id := base
	if a.used[id] {
		// Numbering goes on from the last clash on this base: n clashes
		// cost n tries, not n²/2. An id some other name gave already
		// ("op-get-a-2") is skipped.
		n := max(a.next[base], 2)
		for id = base + "-" + strconv.Itoa(n); a.used[id]; id = base + "-" + strconv.Itoa(n) {
			n++
		}
		a.next[base] = n + 1
	}
	a.used[id] = true
	return id
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// maxLiteral bounds a value shown in a table cell; maxExample an example.
const (
	maxLiteral = 200
	maxExample = 8 << 10
)

// literal writes v as compact JSON, cut to limit bytes.
func literal(v any, limit int) string {
	var b strings.Builder
	appendValue(&b, v, "", limit)
	return cut(b.String(), limit)
}

// pretty writes v as indented JSON, cut to limit bytes; a string example
// is shown as its text.
func pretty(v any, limit int) string {
	if s, ok := v.(string); ok {
		return cut(s, limit)
	}
	var b strings.Builder
	appendValue(&b, v, "\n", limit)
	return cut(b.String(), limit)
}

func cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	i := limit
	for i > 0 && !utf8Start(s[i]) {
		i--
	}
	return s[:i] + " …"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// appendValue writes an ordered value as JSON, keys in their order; indent
// is "" for compact output or "\n" to indent by two spaces a level. It
// stops writing once b holds more than limit bytes.
func appendValue(b *strings.Builder, v any, indent string, limit int) {
	if b.Len() > limit {
		return
	}
	next := indent
	if indent != "" {
		next = indent + "  "
	}
	switch t := v.(type) {
	case *object:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(next)
			appendValue(b, k, "", limit)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			appendValue(b, t.vals[k], next, limit)
		}
		b.WriteString(indent)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(next)
			appendValue(b, e, next, limit)
		}
		b.WriteString(indent)
		b.WriteByte(']')
	case json.Number:
		b.WriteString(t.String())
	case nil:
		b.WriteString("null")
	default:
		// Not json.Marshal: it would write < > & as \u escapes, which the
		// page escapes anyway.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(t)
		b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
}
