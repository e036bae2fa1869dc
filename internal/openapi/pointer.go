package openapi

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// splitRef splits a $ref into its file part and its JSON pointer (without
// the leading #, percent-decoded).
func splitRef(ref string) (file, pointer string, err error) {
	file, frag, _ := strings.Cut(ref, "#")
	pointer, err = url.PathUnescape(frag)
	if err != nil {
		return "", "", fmt.Errorf("$ref %q has a malformed fragment", ref)
	}
	// The file part is a URI reference too: my%20schemas.yaml names
	// "my schemas.yaml".
	if file, err = url.PathUnescape(file); err != nil {
		return "", "", fmt.Errorf("$ref %q has a malformed file part", ref)
	}
	if pointer != "" && !strings.HasPrefix(pointer, "/") {
		return "", "", fmt.Errorf("$ref %q: the part after # must be a JSON pointer starting with /", ref)
	}
	return file, pointer, nil
}

// fragment is pointer written as a URI fragment: escaped as splitRef
// unescapes it ("/A B" is "/A%20B").
func fragment(pointer string) string { return (&url.URL{Fragment: pointer}).EscapedFragment() }

// isRemote reports whether a $ref names a URL rather than a local file. A
// file: URL names a local file: it is held to the rules of local files.
func isRemote(ref string) bool {
	i := strings.Index(ref, ":")
	if i < 2 || isFileURL(ref) { // "c:" is a drive letter at most
		return false
	}
	scheme := ref[:i]
	for _, r := range scheme {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// isFileURL reports whether ref is a file: URL.
func isFileURL(ref string) bool {
	return len(ref) >= 5 && strings.EqualFold(ref[:5], "file:")
}

// pointerTokens splits a JSON pointer into its unescaped tokens.
func pointerTokens(pointer string) []string {
	if pointer == "" {
		return nil
	}
	parts := strings.Split(pointer[1:], "/")
	if !strings.Contains(pointer, "~") { // most are: nothing to unescape
		return parts
	}
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
}

// escapeToken escapes a name for use in a JSON pointer.
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Resolve follows a JSON pointer from root.
func Resolve(root *Node, pointer string) (*Node, error) { return index(nil).resolve(root, pointer) }

// resolve is Resolve, with large objects looked up through ix.
func (ix index) resolve(root *Node, pointer string) (*Node, error) {
	n := root
	for _, tok := range pointerTokens(pointer) {
		switch n.Kind {
		case Object:
			next := ix.get(n, tok)
			if next == nil {
				return nil, fmt.Errorf("no %q", tok)
			}
			n = next
		case Array:
			// RFC 6901: an index is 0, or digits without a leading zero.
			i, err := strconv.Atoi(tok)
			if err != nil || !arrayIndex.MatchString(tok) || i >= len(n.Elems()) {
				return nil, fmt.Errorf("no item %q", tok)
			}
			n = n.Items()[i]
		default:
			return nil, fmt.Errorf("%q is inside a %s", tok, n.Kind)
		}
	}
	return n, nil
}

// resolveKept is resolve over a tree the single pass kept. ok is false where
// what was kept cannot tell: a pointer through a value not kept.
func (ix index) resolveKept(root *Node, pointer string) (n *Node, err error, ok bool) {
	n = root
	for _, tok := range pointerTokens(pointer) {
		if n.part == stub && (n.Kind == Object || n.Kind == Array) {
			return nil, nil, false
		}
		switch n.Kind {
		case Object:
			next := ix.get(n, tok)
			if next == nil {
				if n.part == someKeys && profileKey(tok) == mCopy {
					return nil, nil, false // a member not kept
				}
				return nil, fmt.Errorf("no %q", tok), true
			}
			n = next
		case Array:
			i, err := strconv.Atoi(tok)
			if err != nil || !arrayIndex.MatchString(tok) || i >= len(n.Elems()) {
				return nil, fmt.Errorf("no item %q", tok), true
			}
			n = n.Items()[i]
		default:
			return nil, fmt.Errorf("%q is inside a %s", tok, n.Kind), true
		}
	}
	return n, nil, true
}

var arrayIndex = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// refOf returns the $ref of an object that has one.
func refOf(n *Node) (*Node, bool) {
	if n == nil || n.Kind != Object {
		return nil, false
	}
	r := n.Get("$ref")
	return r, r != nil && r.Kind == String
}
