package ghaction

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Metadata is what the program uses of action.yml.
type Metadata struct {
	Name        string
	Description string
	Inputs      []Input
	Outputs     []Output
}

// Input is one declared input.
type Input struct {
	Name        string
	Description string
	Required    bool
	Default     string
	HasDefault  bool
}

// Output is one declared output.
type Output struct {
	Name        string
	Description string
}

// ParseMetadata reads action.yml, keeping inputs and outputs in their order.
func ParseMetadata(data []byte) (*Metadata, error) {
	var raw struct {
		Name        string    `yaml:"name"`
		Description string    `yaml:"description"`
		Inputs      yaml.Node `yaml:"inputs"`
		Outputs     yaml.Node `yaml:"outputs"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("action.yml: %w", err)
	}
	m := &Metadata{Name: raw.Name, Description: raw.Description}
	for i := 0; i+1 < len(raw.Inputs.Content); i += 2 {
		var in struct {
			Description string  `yaml:"description"`
			Required    bool    `yaml:"required"`
			Default     *string `yaml:"default"`
		}
		if err := raw.Inputs.Content[i+1].Decode(&in); err != nil {
			return nil, fmt.Errorf("action.yml: input %s: %w", raw.Inputs.Content[i].Value, err)
		}
		input := Input{Name: raw.Inputs.Content[i].Value, Description: strings.TrimSpace(in.Description), Required: in.Required}
		if in.Default != nil {
			input.Default, input.HasDefault = *in.Default, true
		}
		m.Inputs = append(m.Inputs, input)
	}
	for i := 0; i+1 < len(raw.Outputs.Content); i += 2 {
		var out struct {
			Description string `yaml:"description"`
		}
		if err := raw.Outputs.Content[i+1].Decode(&out); err != nil {
			return nil, fmt.Errorf("action.yml: output %s: %w", raw.Outputs.Content[i].Value, err)
		}
		m.Outputs = append(m.Outputs, Output{Name: raw.Outputs.Content[i].Value, Description: strings.TrimSpace(out.Description)})
	}
	return m, nil
}

// Input returns the declared input called name.
func (m *Metadata) Input(name string) (Input, bool) {
	for _, in := range m.Inputs {
		if in.Name == name {
			return in, true
		}
	}
	return Input{}, false
}

// expr is one ${{ ... }} of a default.
var expr = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// operand is one side of ||: a property of the github context, or a string
// literal in single quotes (two of them for a quote inside it).
var operand = regexp.MustCompile(`^\s*(?:github\.([a-z_]+)|'((?:[^']|'')*)')\s*$`)

// EvalDefault evaluates a default the way the runner would for the
// expressions action.yml uses: ${{ github.ref_name }} is GITHUB_REF_NAME, and
// a || b is a when a is not empty, else b, so
// ${{ github.head_ref || github.ref_name }} is the pull request's branch on
// pull_request events (where the ref name is <number>/merge) and the ref
// name on others. An expression of any other form is left as it is.
func EvalDefault(def string, getenv func(string) string) string {
	return expr.ReplaceAllStringFunc(def, func(e string) string {
		ops, ok := parseOr(expr.FindStringSubmatch(e)[1])
		if !ok {
			return e
		}
		v := ""
		for _, op := range ops {
			if v = op.value(getenv); v != "" {
				break
			}
		}
		return v
	})
}

// DescribeDefault says in words what a default is on GitHub, for help shown
// where the github context is not at hand: ${{ github.ref_name }} is "on
// GitHub: the run's ref name". A default without expressions is itself.
func DescribeDefault(def string) string {
	if !expr.MatchString(def) {
		return def
	}
	return "on GitHub: " + expr.ReplaceAllStringFunc(def, func(e string) string {
		ops, ok := parseOr(expr.FindStringSubmatch(e)[1])
		if !ok {
			return e
		}
		words := make([]string, len(ops))
		for i, op := range ops {
			words[i] = op.words()
		}
		return strings.Join(words, ", else ")
	})
}

// exprOperand is a github property (name) or a literal.
type exprOperand struct{ name, literal string }

func (o exprOperand) value(getenv func(string) string) string {
	if o.name == "" {
		return o.literal
	}
	return getenv("GITHUB_" + strings.ToUpper(o.name))
}

// contextWords names the github properties the defaults use.
var contextWords = map[string]string{
	"ref_name": "the run's ref name",
	"head_ref": "the pull request's branch on pull_request and pull_request_target events",
	"token":    "the run's GITHUB_TOKEN",
	"sha":      "the run's commit SHA",
}

func (o exprOperand) words() string {
	if o.name == "" {
		return fmt.Sprintf("%q", o.literal)
	}
	if w, ok := contextWords[o.name]; ok {
		return w
	}
	return "github." + o.name
}

// parseOr reads a || b || ... of operands.
func parseOr(s string) ([]exprOperand, bool) {
	var ops []exprOperand
	for _, part := range strings.Split(s, "||") {
		m := operand.FindStringSubmatch(part)
		if m == nil {
			return nil, false
		}
		ops = append(ops, exprOperand{name: m[1], literal: strings.ReplaceAll(m[2], "''", "'")})
	}
	return ops, true
}
