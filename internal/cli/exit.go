package cli

import (
	"context"
	"errors"

	"github.com/docs-publish/docs-publish/internal/publish"
)

// The program's exit codes, as --help and the README list them.
const (
	ExitOK        = 0
	ExitFailure   = 1   // the service, the network or GitHub failed the run
	ExitUsage     = 2   // a bad flag or input value
	ExitInvalid   = 3   // the description is invalid
	ExitBreaking  = 4   // the change breaks the API, with fail-on-breaking
	ExitCancelled = 130 // interrupted (SIGINT or SIGTERM)
)

// ErrReported is matched (errors.Is) by an error that was already reported
// to the user; the caller only sets the exit code.
var ErrReported = errors.New("reported")

// reported is an error already reported to the user, with its cause kept
// for the exit code.
type reported struct{ err error }

func (r *reported) Error() string        { return r.err.Error() }
func (r *reported) Unwrap() error        { return r.err }
func (r *reported) Is(target error) bool { return target == ErrReported }

// UsageError is a command line the program cannot use: an unknown flag, a
// value where none goes.
type UsageError struct {
	Msg string
	Err error // the cause, if any
}

func (e *UsageError) Error() string {
	if e.Msg == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Msg
}

func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is the exit code for the error Run returned; ctx is the context
// Run was given, which signals cancel.
func ExitCode(ctx context.Context, err error) int {
	if err == nil {
		return ExitOK
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return ExitCancelled
	}
	var re *publish.RunsError
	if errors.As(err, &re) {
		return worstExit(ctx, re)
	}
	var ue *UsageError
	var ie *publish.InputError
	var ee *publish.EnvError
	var be *publish.BreakingError
	switch {
	case errors.As(err, &ue):
		return ExitUsage
	case publish.IsInvalid(err):
		return ExitInvalid
	case errors.As(err, &be):
		return ExitBreaking
	case errors.As(err, &ie), errors.As(err, &ee):
		return ExitUsage
	}
	return ExitFailure
}

// exitRank orders the exit codes of several descriptions, the worst first:
// the class that stops a run earliest (an input, then the description, then
// a breaking change) says most about what the user must fix first; a
// failure of the service comes last.
var exitRank = []int{ExitUsage, ExitInvalid, ExitBreaking, ExitFailure}

// worstExit is the exit code of a run of several descriptions: the worst
// class among their failures.
func worstExit(ctx context.Context, re *publish.RunsError) int {
	worst := len(exitRank)
	for _, f := range re.Failed {
		code := ExitCode(ctx, f.Err)
		for i, c := range exitRank {
			if c == code {
				worst = min(worst, i)
			}
		}
	}
	if worst == len(exitRank) {
		return ExitFailure
	}
	return exitRank[worst]
}
