package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// runEmulator serves the emulator on loopback until interrupted, for trying
// a workflow or a script locally.
func runEmulator(ctx context.Context, env Env, args []string) error {
	cfg := emulator.Default()
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "loopback address to listen on (port 0 picks a free one)")
	fs.StringVar(&cfg.Token, "token", cfg.Token, "the bearer token the emulator accepts")
	fs.StringVar(&cfg.Prefix, "prefix", "", "path prefix of the API, such as /v1")
	fs.DurationVar(&cfg.BuildDelay, "build-delay", cfg.BuildDelay, "how long a build takes after its release")
	variant := fs.String("variant", "default", "how the emulator answers where the service interface is silent (id types, extra fields, status codes, content types): one of "+strings.Join(emulator.VariantNames(), ", ")+", or random:<seed> for a reproducible mix")
	certFile := fs.String("tls-cert", "", "serve https with a self-signed certificate written to this file (trust it with SSL_CERT_FILE); needed to listen beyond loopback, e.g. --addr 0.0.0.0:8443 for a container")
	if err := fs.Parse(args); err != nil {
		return err
	}
	v, err := emulator.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("emulator: --%w", err)
	}
	cfg.Variant = v
	var emu *emulator.Server
	if *certFile != "" {
		emu, err = emulator.StartTLS(cfg, *addr, *certFile)
	} else {
		emu, err = emulator.StartOn(cfg, *addr)
	}
	if err != nil {
		return fmt.Errorf("emulator: %w", err)
	}
	defer emu.Close()
	p := emu.Config().Projects[0]
	fmt.Fprintf(env.Stdout, `docs-publish emulator listening
  api-url:    %s
  token:      %s
  project-id: %s
  doc-id:     %s (renders %s on branch %s)
  variant:    %s

Try: docs-publish --api-url %s --token %s --project-id %s --file openapi.yaml --branch %s --download
Stop with Ctrl-C.
`, emu.URL(), cfg.Token, p.ID, p.Docs[0].ID, p.Docs[0].File, p.Docs[0].Branch, *variant,
		emu.URL(), cfg.Token, p.ID, p.Docs[0].Branch)
	<-ctx.Done()
	return nil
}
