// Package emulatortest starts the emulator for tests: seeded as the demo
// seeds it, on a loopback port, closed when the test ends.
package emulatortest

import (
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

// Start starts an emulator seeded with emulator.Default(), accepting token
// (Default's token when empty), whose builds take delay, with mutate's
// changes to the seed when mutate is not nil. The test fails if it cannot
// start; it is closed when the test ends.
func Start(t testing.TB, token string, delay time.Duration, mutate func(*emulator.Config)) *emulator.Server {
	t.Helper()
	cfg := emulator.Default()
	if token != "" {
		cfg.Token = token
	}
	cfg.BuildDelay = delay
	if mutate != nil {
		mutate(&cfg)
	}
	emu, err := emulator.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	return emu
}
