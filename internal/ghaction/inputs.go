package ghaction

import (
	"strings"
)

// EnvPrefix is the prefix of the environment variables the CLI reads in
// other CI systems: DOCS_PUBLISH_PROJECT_ID for project-id.
const EnvPrefix = "DOCS_PUBLISH_"

// Lookuper finds an input's value for go-envconfig, which asks by names such
// as PROJECT_ID (it refuses hyphens). It looks, in order, at a flag, at
// INPUT_PROJECT-ID as the runner sets it (hyphen kept), at
// DOCS_PUBLISH_PROJECT_ID, and at action.yml's default. The runner sets every
// declared input, to "" when the user gave nothing, so "" counts as unset.
// Each value is trimmed of white space at both ends, a flag's as a
// variable's: a token pasted with its line break works either way.
type Lookuper struct {
	Meta   *Metadata
	Flags  map[string]string // by input name
	Getenv func(string) string
	last   string // the input looked up last
}

// LastInput is the name of the input looked up last.
func (l *Lookuper) LastInput() string { return l.last }

// InputName maps an envconfig key to its input name: PROJECT_ID → project-id.
func InputName(key string) string {
	return strings.ToLower(strings.ReplaceAll(key, "_", "-"))
}

// RunnerVar is the variable the runner sets for an input: INPUT_PROJECT-ID.
func RunnerVar(input string) string {
	return "INPUT_" + strings.ToUpper(strings.ReplaceAll(input, " ", "_"))
}

// EnvVar is the variable the CLI reads for an input: DOCS_PUBLISH_PROJECT_ID.
func EnvVar(input string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(input, "-", "_"))
}

// Lookup implements envconfig.Lookuper.
func (l *Lookuper) Lookup(key string) (string, bool) {
	name := InputName(key)
	l.last = name
	for _, v := range []string{l.Flags[name], l.Getenv(RunnerVar(name)), l.Getenv(EnvVar(name))} {
		if v = strings.TrimSpace(v); v != "" {
			return v, true
		}
	}
	if in, ok := l.Meta.Input(name); ok && in.HasDefault {
		if v := EvalDefault(in.Default, l.Getenv); v != "" {
			return v, true
		}
	}
	return "", false
}
