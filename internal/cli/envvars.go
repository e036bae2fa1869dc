package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/docs-publish/docs-publish/internal/ghaction"
	"github.com/docs-publish/docs-publish/internal/report"
)

// toolVars are the DOCS_PUBLISH_ variables that name no input but that the
// project's tests and tools read (docs/development.md, .ci/run): set in the
// same shell as a run, they are no mistake.
var toolVars = []string{
	"DOCS_PUBLISH_FULL_SWEEPS", "DOCS_PUBLISH_LONG_TESTS", "DOCS_PUBLISH_NETWORK_TESTS",
	"DOCS_PUBLISH_REQUIRE_ACT", "DOCS_PUBLISH_REQUIRE_DOCKER", "DOCS_PUBLISH_TESTENV_GORACE_CHILD",
	"DOCS_PUBLISH_TEST_ONE_RUN", "DOCS_PUBLISH_TOOLS_CACHE",
}

// warnUnknownVars warns of each DOCS_PUBLISH_ variable (in any case) that
// names no input, with the nearest input's variable, as a mistyped flag
// gets the nearest flag: such a variable is otherwise ignored without a
// word. The run goes on. The runner's INPUT_ variables are not checked:
// the runner sets only the inputs action.yml declares, and warns itself of
// a step's unexpected input. Only names are shown, never values.
func warnUnknownVars(env Env, meta *ghaction.Metadata, rep report.Reporter) {
	if env.Environ == nil {
		return
	}
	var inputs []string
	known := map[string]bool{}
	for _, in := range meta.Inputs {
		inputs = append(inputs, in.Name)
		known[ghaction.EnvVar(in.Name)] = true
	}
	var unknown []string
	for _, kv := range env.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if len(name) >= len(ghaction.EnvPrefix) && strings.EqualFold(name[:len(ghaction.EnvPrefix)], ghaction.EnvPrefix) &&
			!known[name] && !slices.Contains(toolVars, name) && !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		msg := fmt.Sprintf("%s names no input, so it is ignored", name)
		if near := nearestName(name[len(ghaction.EnvPrefix):], inputs); near != "" {
			msg += fmt.Sprintf(": did you mean %s?", ghaction.EnvVar(near))
		} else {
			msg += ": an input's variable is DOCS_PUBLISH_ and its name in capitals, hyphens as underscores, such as DOCS_PUBLISH_PROJECT_ID (see docs-publish --help)"
		}
		rep.Annotate(report.Warning, msg, report.Where{})
	}
}
