package openapi

import "strings"

// Operation is the operation method (in any case: GET, get) of path in a
// description, following local $refs to its path item, and OpenAPI 3.2's
// additionalOperations for other methods: the member whose key names the
// method, so that KeyPos is the line a reader looks for, and Value.Src the
// file it was written in. It is nil when there is no such operation.
func Operation(root *Node, path, method string) *Field {
	v := &validator{root: root, ix: index{}, kept: root.Src.kept()}
	item := v.deref(root.Get("paths").Get(path))
	if f := item.field(strings.ToLower(method)); f != nil {
		return f
	}
	return item.Get("additionalOperations").field(method)
}

// field is the member key of an Object, or nil.
func (n *Node) field(key string) *Field {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := range n.Fields() {
		if n.Fields()[i].Key == key {
			return &n.Fields()[i]
		}
	}
	return nil
}
