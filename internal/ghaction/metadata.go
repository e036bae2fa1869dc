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

var githubExpr = regexp.MustCompile(`\$\{\{\s*github\.([a-z_]+)\s*\}\}`)

// EvalDefault evaluates a default the way the runner would for the
// expressions action.yml uses: ${{ github.ref_name }} is GITHUB_REF_NAME.
func EvalDefault(def string, getenv func(string) string) string {
	return githubExpr.ReplaceAllStringFunc(def, func(expr string) string {
		name := githubExpr.FindStringSubmatch(expr)[1]
		return getenv("GITHUB_" + strings.ToUpper(name))
	})
}
