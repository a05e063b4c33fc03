package cmd

import (
	"errors"
	"fmt"
)

// Exit codes shared by every command.
const (
	ExitOK       = 0
	ExitRule     = 1 // check: a rule was broken
	ExitUsage    = 2 // bad flags, bad or unreadable input
	ExitNothing  = 3 // check: nothing to judge
	ExitInternal = 4
	ExitPartial  = 5 // output printed, but some inputs could not be read (warnings on stderr)
)

// ExitError carries an exit code; Main prints Err (when set) and exits with Code.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// usageErrorf is a flag or argument error: exit 2, with a hint to --help.
func usageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: &usageError{fmt.Errorf(format, args...)}}
}

type usageError struct{ error }

func (e *usageError) Unwrap() error { return e.error }

// inputError is an input that could not be read: exit 2.
func inputError(err error) error {
	return &ExitError{Code: ExitUsage, Err: err}
}

func exitCode(err error) int {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitUsage
}
