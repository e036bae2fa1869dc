//go:build race && unix

package testenv

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
)

// raceExitSleep is the race detector's option for how long the process
// sleeps at exit, in milliseconds.
const raceExitSleep = "atexit_sleep_ms"

func noRaceExitSleep() {
	gorace := os.Getenv("GORACE")
	// Its options are name=value, separated as the race detector's
	// parser separates them: by spaces, commas, colons or line breaks.
	for _, opt := range strings.FieldsFunc(gorace, func(r rune) bool { return strings.ContainsRune(" ,:\t\n\r", r) }) {
		if strings.HasPrefix(opt, raceExitSleep+"=") {
			return // the run's own, or this started again
		}
	}
	exe, err := os.Executable()
	if err == nil {
		env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GORACE=") })
		env = append(env, "GORACE="+strings.TrimSpace(gorace+" "+raceExitSleep+"=0"))
		err = syscall.Exec(exe, os.Args, env) // returns only when it fails
	}
	fmt.Fprintf(os.Stderr, "testenv: the tests keep the race detector's second at exit: %v\n", err)
}
