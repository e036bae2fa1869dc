// Command docs-publish publishes API documentation to the documentation
// service: as a GitHub container action, as a CLI, or against its emulator.
package main

import (
	"context"
	_ "embed"
	"os"
	"os/signal"
	"syscall"

	"github.com/docs-publish/docs-publish/internal/cli"
	"github.com/docs-publish/docs-publish/internal/memlimit"
)

var (
	//go:embed action.yml
	actionYAML []byte
	//go:embed testdata/specs/bookstore.swagger2.yaml
	sample []byte
	// version is set at build time with -ldflags "-X main.version=v1.2.3",
	// and commit, where the build has no .git to read it from, with
	// "-X main.commit=<sha>".
	version = "dev"
	commit  = ""
)

func main() { os.Exit(run()) }

// run is the program, and its exit code.
func run() int {
	// The process runs one job: the collector's limit follows its input
	// from the first byte (see memlimit.OneRun).
	memlimit.OneRun()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Main prints the error the run ends with itself, through the sink
	// that scrubs the secrets: nothing here writes to stdout or stderr.
	return cli.Main(ctx, cli.Env{
		Args: os.Args[1:], Getenv: os.Getenv, Environ: os.Environ, Stdout: os.Stdout, Stderr: os.Stderr,
		Action: actionYAML, Sample: sample, Version: version, Commit: commit,
	})
}
