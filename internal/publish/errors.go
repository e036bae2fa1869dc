package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docs-publish/docs-publish/internal/docsapi"
	"github.com/docs-publish/docs-publish/internal/openapi"
)

// InputError is an input that cannot work, found before any request.
type InputError struct {
	Input string // the input's name in action.yml
	Msg   string // what is wrong and what to do
	Err   error  // the cause, if any: a *openapi.LoadError, a *workspace.OutsideError, ...
	// Annotated is that the one fault the error is about was annotated at
	// its place already, as a finding: the run's end need not say it again.
	Annotated bool
}

func (e *InputError) Error() string { return fmt.Sprintf("input %s: %s", e.Input, e.Msg) }

func (e *InputError) Unwrap() error { return e.Err }

// ErrReportInTheWay is the cause of the error of a report file whose path
// is a file the run reads or writes: the report is not written.
var ErrReportInTheWay = errors.New("the report file is in the way")

// EnvError is an environment variable of the runner (not an input) whose
// value the run cannot use: GITHUB_API_URL, a proxy variable. Like an
// InputError, it is the user's to fix.
type EnvError struct {
	Var string // the variable's name
	Msg string // what is wrong and what to do, never the secrets the value holds; "" when Err says it
	Err error  // the cause, if any
}

func (e *EnvError) Error() string {
	if e.Msg == "" && e.Err != nil {
		return e.Err.Error() // the cause names the variable itself
	}
	return fmt.Sprintf("environment variable %s: %s", e.Var, e.Msg)
}

func (e *EnvError) Unwrap() error { return e.Err }

// ErrInvalidDescription is the cause of a run stopped by the findings in
// its description: errors, or warnings with fail-on-warnings.
var ErrInvalidDescription = errors.New("the description is invalid")

// IsInvalid says whether err stopped a run because of its description:
// findings, or a place in it that cannot be loaded (a syntax error, a $ref
// that does not resolve), as opposed to a file that cannot be read at all.
func IsInvalid(err error) bool {
	var les openapi.LoadErrors
	var le *openapi.LoadError
	return errors.Is(err, ErrInvalidDescription) || errors.As(err, &les) || errors.As(err, &le) && le.Pos.Line > 0
}

// StepError is a failure of one step of the flow, with what to do about it.
type StepError struct {
	Step Step
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

// authHint is the advice for a refused token, on any step; authHintCLI is
// the same off GitHub, where the token comes from the environment.
const (
	authHint    = "check the token secret: it must be a valid access token of the service, created on its profile access-token page, with access to this project"
	authHintCLI = "check the token in DOCS_PUBLISH_TOKEN (or --token): it must be a valid access token of the service, created on its profile access-token page, with access to this project"
)

// hintFor is the advice for a failure that any step of a run with cfg can
// meet; ctx is the run's, whose end tells the run's timeout from a
// request's.
func hintFor(ctx context.Context, err error, cfg Config) string {
	var ue *docsapi.UnreachableError
	var na *docsapi.NoAnswerError
	switch {
	case errors.As(err, &na):
		return "check api-url (its host and port): something there takes requests and does not answer them (a port of another server, or a proxy that holds connections); if the service is only slow, raise request-timeout"
	case errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return timeoutRanOut(cfg.timeout()) + ": raise it for a slow service, or check api-url if the service does not answer"
	}
	if errors.As(err, &ue) {
		switch ue.Kind {
		case docsapi.UntrustedCertificate, docsapi.TLSFailed:
			return "check that api-url is the service's https address; for a service whose certificate comes from a private authority, give its CA file in SSL_CERT_FILE"
		case docsapi.TLSTimeout:
			return "check that api-url is the service's https address and port: something there accepts connections but does not answer TLS (a plain-http port, or a proxy that holds the connection)"
		case docsapi.PlainHTTP:
			return "api-url is https, but the server at its host and port speaks plain http: give the service's https address (its port for https)"
		case docsapi.UnknownHost:
			return "check the host name in api-url"
		case docsapi.ConnectTimeout:
			return "check api-url (its host and port), that the service is up, and that no firewall between the runner and the service drops the connection (a self-hosted runner may need a proxy: HTTPS_PROXY)"
		}
		return "check api-url (its host and port) and that the service is up and reachable from the runner"
	}
	switch docsapi.StatusOf(err) {
	case http.StatusUnauthorized, http.StatusForbidden:
		if cfg.CLI {
			return authHintCLI
		}
		return authHint
	}
	return ""
}

func timeoutRanOut(d time.Duration) string {
	return fmt.Sprintf("timeout (%s), which bounds the whole run, ran out", d)
}

// TimeoutError is a run stopped by its timeout before it reached the
// service: while loading the description or comparing it with its base.
// (A step that talks to the service names the timeout in its StepError.)
type TimeoutError struct {
	Timeout time.Duration
	Step    Step
	Err     error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%v: %s during %s, before anything was sent to the service: raise it (a large description takes seconds to load, validate and compare)", e.Err, timeoutRanOut(e.Timeout), e.Step)
}

func (e *TimeoutError) Unwrap() error { return e.Err }

// overTime names the timeout input in err when the run's time, ctx's, ran
// out during step st and nothing on the way has named it yet.
func overTime(ctx context.Context, cfg Config, st Step, err error) error {
	var se *StepError
	var te *TimeoutError
	if err == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(err, context.DeadlineExceeded) ||
		errors.As(err, &se) || errors.As(err, &te) {
		return err
	}
	return &TimeoutError{Timeout: cfg.timeout(), Step: st, Err: err}
}

// notFound tells what a 404 is likely about. A bare page (not JSON) comes
// from a server that has no such route, so api-url's path prefix is likely
// wrong. A JSON answer may be the service saying the resource does not
// exist, or a framework's page for an unknown route: both are named.
func notFound(err error, resource string) (hint string, ok bool) {
	var ae *docsapi.APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusNotFound {
		return "", false
	}
	if !ae.JSON {
		return routeHint, true
	}
	return resource + "; if it does exist, api-url may be wrong: check its path prefix (such as /v1)", true
}

// routeHint is the advice for a route the server does not know.
const routeHint = "the server has no such route, so api-url may be wrong: check its path prefix (such as /v1) against the service's API address"

// InterruptedError is a run of the service's steps cut short by a signal
// or by its timeout: it says by what, what the run had done on the service
// already, and what to check before running again. Err is the step's
// error, kept for errors.Is (context.Canceled, context.DeadlineExceeded).
type InterruptedError struct {
	Desc    string        // the step cut short, with its subject: "wait for build 1002"
	Signal  string        // the signal's cause, "" when none is known
	Timeout time.Duration // the timeout input, when it is what ran out
	Done    string        // what the run had done on the service
	Check   bool          // something may be under way on the service: check the doc's builds first
	Err     error
}

func (e *InterruptedError) Error() string {
	msg := "cancelled during " + e.Desc
	switch {
	case e.Timeout > 0:
		msg += ": " + timeoutRanOut(e.Timeout)
	case e.Signal != "":
		msg += " (" + e.Signal + ")"
	}
	msg += ": " + e.Done + ": "
	switch {
	case e.Check && e.Timeout > 0:
		return msg + "check the doc's builds in the web application, then raise timeout before running again"
	case e.Check:
		return msg + "check the doc's builds in the web application before running again"
	case e.Timeout > 0:
		return msg + "raise timeout for a slow service, or check api-url if the service does not answer"
	}
	return msg + "run again"
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// interrupted words err, the error of step st cut short by the end of the
// run's ctx, with what the flow had done on the service by then.
func (f *flow) interrupted(ctx context.Context, st Step, err error) error {
	ie := &InterruptedError{Desc: st.String(), Err: err}
	if se := (*StepError)(nil); errors.As(err, &se) && se.Desc != "" {
		ie.Desc = se.Desc
	}
	ie.by(ctx, f.cfg)
	live := ", kept unpublished (set-live false)"
	if f.cfg.SetLive {
		live = " with set-live true, so the service may still build it and make it live"
	}
	switch {
	case f.res.BuildID != "":
		ie.Done = fmt.Sprintf("build %s was released under doc %s%s", f.res.BuildID, f.res.DocID, live)
		ie.Check = true
	case st == StepRelease:
		ie.Done = fmt.Sprintf("a build under doc %s may have been released (the request was under way)%s", f.res.DocID, live)
		ie.Check = true
	case st == StepUpdate:
		ie.Done = fmt.Sprintf("file %s on branch %s may have been updated; no build was released", f.plan.FileName, f.cfg.Branch)
	default:
		ie.Done = "nothing was changed on the service"
	}
	return ie
}

// by says what ended ctx, the run's: its timeout, or a signal.
func (e *InterruptedError) by(ctx context.Context, cfg Config) {
	switch cause := context.Cause(ctx); {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		e.Timeout = cfg.timeout()
	case cause != nil && cause != context.Canceled:
		e.Signal = cause.Error()
	}
}

// interruptedEarly words err, the error of step st cut short by a signal
// before the run sent anything to the service. (A timeout there is a
// *TimeoutError: see overTime.)
func interruptedEarly(ctx context.Context, cfg Config, st Step, err error) error {
	if err == nil || !errors.Is(ctx.Err(), context.Canceled) {
		return err
	}
	ie := &InterruptedError{Desc: st.String(), Done: "nothing was sent to the service", Err: err}
	ie.by(ctx, cfg)
	return ie
}
