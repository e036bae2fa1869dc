package publish

import (
	"fmt"
	"net/http"

	"github.com/docs-publish/docs-publish/internal/docsapi"
)

// InputError is an input that cannot work, found before any request.
type InputError struct {
	Input string // the input's name in action.yml
	Msg   string // what is wrong and what to do
}

func (e *InputError) Error() string { return fmt.Sprintf("input %s: %s", e.Input, e.Msg) }

// StepError is a failure of one step of the flow, with what to do about it.
type StepError struct {
	Step string // "update file", "list docs", "release build", "download build"
	Desc string // the step with its subject: "update file openapi.yml on branch main"
	Err  error
	Hint string
}

func (e *StepError) Error() string {
	msg := e.Desc + ": " + e.Err.Error()
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	return msg
}

func (e *StepError) Unwrap() error { return e.Err }

// authHint is the advice for a refused token, on any step.
const authHint = "check the token secret: it must be a valid access token of the service, created on its profile access-token page, with access to this project"

func hintFor(err error) string {
	switch docsapi.StatusOf(err) {
	case http.StatusUnauthorized, http.StatusForbidden:
		return authHint
	}
	return ""
}
