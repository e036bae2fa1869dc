package configfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxSize bounds the config file: a list of descriptions is a few lines
// each.
const MaxSize = 1 << 20

// MaxEntries bounds the descriptions one run publishes.
const MaxEntries = 1000

// StepOnly are the inputs an entry cannot set, each with the reason. A
// pull request can change the config file, and runs with the step's
// secrets on some events: so the file cannot send a token elsewhere
// (api-url, the tokens), switch off a policy the workflow sets
// (fail-on-missing-token), widen the run's bounds (timeout,
// request-timeout, max-download-size), or make the run write to GitHub
// when the workflow said not to (comment). The inputs of the run as a whole
// (config, parallel, report) are the step's too.
var StepOnly = map[string]string{
	"token":                 "a secret: it belongs to the workflow, not to a file a pull request can change",
	"github-token":          "a secret: it belongs to the workflow, not to a file a pull request can change",
	"api-url":               "where the token is sent: a file a pull request can change must not choose it",
	"fail-on-missing-token": "a policy of the workflow's",
	"timeout":               "it bounds the whole run, every description together",
	"request-timeout":       "it bounds every request of the run",
	"max-download-size":     "a bound the workflow sets on what the run writes",
	"comment":               "whether the run writes to the pull request is the workflow's to decide",
	"config":                "it names this file",
	"parallel":              "it is how the run as a whole proceeds",
	"report":                "the run writes one report, for every description",
}

// Tightening are the boolean inputs an entry may turn on but not off when
// the step turns them on: each guards the run, and a file a pull request
// can change must not lift the guard the workflow set.
var Tightening = []string{"dry-run", "fail-on-warnings", "fail-on-breaking", "compare"}

// Entry is one description of the file.
type Entry struct {
	Index  int               // in the descriptions list, from 0
	Line   int               // where it starts in the file
	Inputs map[string]string // by input name, as written
}

// File is the description's file, for messages.
func (e Entry) File() string { return e.Inputs["file"] }

// Error is a config file that cannot be used. Entry is the index of the
// entry at fault, or -1 when the fault is the file's as a whole.
type Error struct {
	Entry int
	File  string // the entry's file input, when it has one
	Line  int    // 0 when unknown
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Entry >= 0 {
		fmt.Fprintf(&b, "descriptions[%d]", e.Entry)
		if e.File != "" {
			fmt.Fprintf(&b, " (%s)", e.File)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Keys says which keys an entry takes.
type Keys struct {
	// Inputs are the action's input names: an entry's key must be one of
	// them, and not StepOnly.
	Inputs []string
	// Nearest, when set, is the input name closest to a mistyped one, or
	// "".
	Nearest func(name string) string
}

// Parse reads a config file. Every entry must set file.
func Parse(data []byte, keys Keys) ([]Entry, error) {
	if len(data) > MaxSize {
		return nil, &Error{Entry: -1, Msg: fmt.Sprintf("is %d bytes, more than the %d a config file may be: list the descriptions alone", len(data), MaxSize)}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, &Error{Entry: -1, Msg: "is empty: give a descriptions: list"}
	} else if err != nil {
		return nil, &Error{Entry: -1, Msg: fmt.Sprintf("is not YAML (%v): give a mapping with a descriptions: list", err)}
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, &Error{Entry: -1, Line: more.Line, Msg: "holds a second YAML document: give one"}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{Entry: -1, Msg: "is empty: give a descriptions: list"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &Error{Entry: -1, Line: root.Line, Msg: "is not a mapping: give a mapping with a descriptions: list"}
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "descriptions" {
			return nil, &Error{Entry: -1, Line: k.Line, Msg: fmt.Sprintf("unknown key %q: the file holds a descriptions: list alone", k.Value)}
		}
		if list != nil {
			return nil, &Error{Entry: -1, Line: k.Line, Msg: "descriptions is given twice: give one list"}
		}
		list = v
	}
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		line := root.Line
		if list != nil {
			line = list.Line
		}
		return nil, &Error{Entry: -1, Line: line, Msg: "descriptions must be a list of one entry or more, each a mapping with file: and the inputs that differ from the step's"}
	}
	if len(list.Content) > MaxEntries {
		return nil, &Error{Entry: -1, Line: list.Line, Msg: fmt.Sprintf("lists %d descriptions, more than the %d one run publishes: split them over several steps", len(list.Content), MaxEntries)}
	}
	entries := make([]Entry, 0, len(list.Content))
	var faults []*Error
	beyond := 0 // faults past mostFaults: counted, not kept
	for i, n := range list.Content {
		e, errs := entry(i, n, keys)
		k := min(len(errs), mostFaults-len(faults))
		faults, beyond = append(faults, errs[:k]...), beyond+len(errs)-k
		entries = append(entries, e)
	}
	switch {
	case len(faults) == 1:
		return nil, faults[0]
	case len(faults) > 1:
		return nil, &Faults{Said: faults, More: beyond}
	}
	return entries, nil
}

// mostFaults is how many faults of the entries an error lists, the others
// counted: a file of a thousand mistyped entries makes no message of
// a megabyte.
const mostFaults = 10

// Faults are the faults of a config file's entries, all said on one line
// (a log line, an annotation), so that each is fixed in one go: the first
// mostFaults, and how many more there are. errors.As finds the first.
type Faults struct {
	Said []*Error
	More int
}

func (f *Faults) Error() string {
	var b strings.Builder
	for i, e := range f.Said {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Error())
	}
	if f.More > 0 {
		fmt.Fprintf(&b, "; and %d more faults in the entries", f.More)
	}
	return b.String()
}

func (f *Faults) Unwrap() []error {
	errs := make([]error, len(f.Said))
	for i, e := range f.Said {
		errs[i] = e
	}
	return errs
}

// entry reads one entry of the list, and says every fault of its keys:
// a key that is not a name, or an entry that is no mapping, stops it.
func entry(i int, n *yaml.Node, keys Keys) (Entry, []*Error) {
	e := Entry{Index: i, Line: n.Line, Inputs: map[string]string{}}
	var faults []*Error
	fault := func(line int, msg string) {
		faults = append(faults, &Error{Entry: i, File: e.Inputs["file"], Line: line, Msg: msg})
	}
	if n.Kind != yaml.MappingNode {
		fault(n.Line, "is not a mapping: give file: and the inputs that differ from the step's")
		return e, faults
	}
	// The file first, so that every message names it.
	for j := 0; j+1 < len(n.Content); j += 2 {
		if k, v := n.Content[j], n.Content[j+1]; k.Value == "file" && v.Kind == yaml.ScalarNode {
			e.Inputs["file"] = v.Value
		}
	}
	lines := map[string]int{}
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		name := k.Value
		if k.Kind != yaml.ScalarNode {
			fault(k.Line, "has a key that is not a name: give input names such as project-id")
			return e, faults
		}
		if at, ok := lines[name]; ok {
			fault(k.Line, fmt.Sprintf("sets %s twice (first at line %d): give it once", name, at))
			continue
		}
		lines[name] = k.Line
		if why, ok := StepOnly[name]; ok {
			fault(k.Line, fmt.Sprintf("%s cannot be set in the config file (%s): set it in the step's with: block", name, why))
			continue
		}
		if !slices.Contains(keys.Inputs, name) {
			msg := fmt.Sprintf("unknown key %q", name)
			if near := keys.nearest(name); near != "" {
				msg += fmt.Sprintf(": did you mean %s?", near)
			} else {
				msg += ": an entry takes the action's input names, such as project-id"
			}
			fault(k.Line, msg)
			continue
		}
		switch {
		case v.Kind == yaml.AliasNode || v.Anchor != "":
			fault(v.Line, fmt.Sprintf("%s uses a YAML anchor or alias, which the config file does not read: write the value", name))
		case v.Kind != yaml.ScalarNode:
			fault(v.Line, fmt.Sprintf("%s is not a single value: give text, a number or true/false", name))
		case v.Tag == "!!null":
			fault(v.Line, fmt.Sprintf("%s has no value: give one, or leave the key out to take the step's", name))
		default:
			e.Inputs[name] = v.Value
		}
	}
	if strings.TrimSpace(e.Inputs["file"]) == "" {
		fault(n.Line, "has no file: give the path of its description, relative to the workspace")
	}
	return e, faults
}

func (k Keys) nearest(name string) string {
	if k.Nearest == nil {
		return ""
	}
	if near := k.Nearest(name); near != "" {
		if _, stepOnly := StepOnly[near]; !stepOnly {
			return near
		}
	}
	return ""
}
