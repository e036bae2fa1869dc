package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/ghaction"
)

// runDemo publishes the sample description to an emulator on loopback
// through all four steps, the way a workflow would, and leaves the zip.
// env writes through the scrubbing sinks; log is stderr as it is, for the
// publish run's Reporter, which scrubs what it writes itself.
func runDemo(ctx context.Context, env Env, log io.Writer, meta *ghaction.Metadata, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "docs-publish-demo", "")
	serve := fs.Bool("serve", false, "")
	if err := checkArgs(fs, args, "docs-publish demo"); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			demoUsage(env.Stdout)
			return nil
		}
		return &UsageError{Err: fmt.Errorf("demo: %w (see docs-publish demo --help)", err)}
	}
	if fs.NArg() > 0 {
		return &UsageError{Msg: fmt.Sprintf("demo: unexpected argument %q (see docs-publish demo --help)", fs.Arg(0))}
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := os.WriteFile(filepath.Join(abs, "openapi.yaml"), env.Sample, 0o644); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	cfg := emulator.Default()
	cfg.Prefix = emulator.ServicePrefix
	emu, err := emulator.Start(cfg)
	if err != nil {
		return fmt.Errorf("demo: start emulator: %w", err)
	}
	defer emu.Close()
	p := cfg.Projects[0]
	fmt.Fprintf(env.Stderr, "emulator of the service at %s (project %s, doc %s)\n\n", emu.URL(), p.ID, p.Docs[0].ID)

	// The demo runs as a CLI would anywhere: the caller's GitHub variables,
	// if any, must not send its outputs into a real workflow.
	demoEnv := map[string]string{"GITHUB_WORKSPACE": abs}
	var outputs bytes.Buffer
	err = runPublish(ctx, Env{
		Getenv: func(k string) string { return demoEnv[k] },
		Stdout: &outputs, Stderr: log, Version: env.Version, secrets: env.secrets,
	}, meta, []string{
		"--token", cfg.Token, "--api-url", emu.URL(), "--project-id", p.ID,
		"--file", "openapi.yaml", "--branch", p.Docs[0].Branch,
		"--download", "--download-path", "docs-build.zip",
	})
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nOutputs:\n%s\n", indent(outputs.String()))
	if vs := emu.Versions(p.ID, p.Docs[0].Branch, p.Docs[0].File); len(vs) > 0 {
		last := vs[len(vs)-1]
		fmt.Fprintf(&b, "The emulator stored %s on branch %s (version %d, %d bytes of JSON, commit message %q).\n",
			p.Docs[0].File, p.Docs[0].Branch, last.Version, len(last.Content), last.CommitMessage)
	}
	zipPath := filepath.Join(abs, "docs-build.zip")
	if zr, err := zip.OpenReader(zipPath); err == nil {
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		zr.Close()
		fmt.Fprintf(&b, "The rendered site is in %s: %s.\n", filepath.Join(*dir, "docs-build.zip"), strings.Join(names, ", "))
		fmt.Fprintf(&b, "Open it with: unzip -o %s -d %s, then open %s in a browser (xdg-open on Linux, open on macOS)\n",
			filepath.Join(*dir, "docs-build.zip"), filepath.Join(*dir, "site"), filepath.Join(*dir, "site", "index.html"))
	}
	os.WriteFile(filepath.Join(abs, "summary.txt"), []byte(strings.TrimLeft(b.String(), "\n")), 0o644)
	fmt.Fprint(env.Stdout, b.String())
	if *serve {
		fmt.Fprintf(env.Stdout, "\nThe live site: %s\nThe emulator keeps running; stop it with Ctrl-C.\n", emu.SiteURL(p.Docs[0].ID))
		<-ctx.Done()
	}
	return nil
}

func demoUsage(w io.Writer) {
	fmt.Fprint(w, `docs-publish demo: the whole flow against the built-in emulator

Usage:
  docs-publish demo [flags]

It starts the emulator of the service on a loopback port, publishes a sample
description through the four steps (list the docs, update the file, release
a build, download it) as a workflow would, prints the outputs, and leaves the
description, the zip of the rendered site and a summary in a directory.

Flags:
  --dir DIR (default docs-publish-demo)
      Directory for the sample description, the downloaded zip and the summary.
  --serve
      Keep the emulator running afterwards and print the address of the live
      site, to browse it without unzipping; stop with Ctrl-C.
`)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "  " + strings.Join(lines, "\n  ")
}
