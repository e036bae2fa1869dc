// Command testruns plans and reads the test runs of .ci/run.
//
//	go run ./internal/testruns long
//
// prints the go test arguments that select the tests marked with
// testenv.Long (-run=^(TestA|TestB)$ and their packages), for a run
// without the race detector next to the -race run of everything else.
//
//	go test -json ./... | go run ./internal/testruns summary [-require-all] [FILE...]
//
// reads go test -json streams (standard input, or each FILE: the runs of
// one CI pass) and says where the time went (the slowest packages and
// tests), which tests failed, and which did not run: skipped in every
// stream they appear in, with the reason each gave. It exits 1 when a test
// failed, and with -require-all when one did not run.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testruns:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("no command: give long or summary")
	}
	switch args[0] {
	case "long":
		if len(args) != 1 {
			return fmt.Errorf("long takes no arguments; run it in the module's top folder")
		}
		s, err := findLong(".")
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, s.goTestArgs())
		return nil
	case "summary":
		return summary(args[1:], stdin, stdout)
	}
	return fmt.Errorf("unknown command %q: give long or summary", args[0])
}
