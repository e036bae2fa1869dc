package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// outcome is what a run with one injected fault must end in.
type outcome struct {
	ok       bool
	attempts int    // requests to the faulty endpoint; 0: at least 2 (download polls); -1: at least 1
	builds   int    // builds the emulator made; -1: 0 or 1
	msg      string // in the error annotation, when !ok
}

var faults = []struct {
	name  string
	fault emulator.Fault
}{
	{"500", emulator.Fault{Kind: emulator.FaultStatus, Status: 500}},
	{"502", emulator.Fault{Kind: emulator.FaultStatus, Status: 502}},
	{"503", emulator.Fault{Kind: emulator.FaultStatus, Status: 503}},
	{"429 Retry-After seconds", emulator.Fault{Kind: emulator.FaultStatus, Status: 429, RetryAfter: "1"}},
	{"429 Retry-After date", emulator.Fault{Kind: emulator.FaultStatus, Status: 429}}, // date set at injection
	{"reset before any answer", emulator.Fault{Kind: emulator.FaultReset}},
	{"dropped after the request was read", emulator.Fault{Kind: emulator.FaultDropAfter}},
	// The run's request-timeout is slowHeadersTimeout; the stall ends when
	// the client gives up.
	{"headers slower than the timeout", emulator.Fault{Kind: emulator.FaultSlowHeaders, Delay: time.Minute}},
	{"body cut short", emulator.Fault{Kind: emulator.FaultCutBody}},
	{"malformed JSON", emulator.Fault{Kind: emulator.FaultMalformedJSON}},
	{"wrong content type", emulator.Fault{Kind: emulator.FaultWrongType}},
	{"redirect to another host", emulator.Fault{Kind: emulator.FaultRedirect}},
}

// expect says how each step must meet each fault. Idempotent steps heal by
// retrying; a release is sent again only when it provably was not processed.
func expect(endpoint, fault string) outcome {
	healed := outcome{ok: true, attempts: 2, builds: 1}
	if endpoint == "download" {
		if fault == "redirect to another host" {
			// The zip may be served from another host: the redirect is
			// followed, and asked again only if the build was not ready.
			return outcome{ok: true, attempts: -1, builds: 1}
		}
		return outcome{ok: true, attempts: 0, builds: 1} // every fault heals, by retry or poll
	}
	switch fault {
	case "wrong content type":
		return outcome{attempts: 1, builds: 0, msg: "not JSON: check that api-url is the service's API address"}
	case "malformed JSON":
		if endpoint == "update" {
			// The update's answer is not needed, so a 200 is taken; this
			// fault did not store the file, and the build says so.
			return outcome{attempts: 1, builds: 1, msg: "build 9007199254740993 failed"}
		}
	case "redirect to another host":
		return outcome{attempts: 1, builds: 0, msg: "check the token secret"}
	}
	if endpoint != "release" {
		return healed
	}
	uncertain := "a build may have been started under doc 17"
	switch fault {
	case "500", "502":
		return outcome{attempts: 1, builds: 0, msg: "release build under doc 17: service answered " + fault}
	case "reset before any answer", "malformed JSON":
		return outcome{attempts: 1, builds: 0, msg: uncertain}
	case "dropped after the request was read", "body cut short":
		return outcome{attempts: 1, builds: 1, msg: uncertain}
	case "headers slower than the timeout":
		return outcome{attempts: 1, builds: -1, msg: uncertain}
	}
	return healed // 503 and 429 say the request was turned away
}

// slowHeadersTimeout is request-timeout where the headers are slower.
const slowHeadersTimeout = "2s"

var endpointPath = map[string]string{
	"update": "/projects/", "list": "/docs.list", "release": "/docs.release", "download": "/docs.builds.download",
}

// TestFaults runs the binary against the emulator with one fault injected
// into one endpoint at a time, and checks the outcome, the attempts, the
// builds (never two for one run) and the files left on disk.
func TestFaults(t *testing.T) {
	testenv.Long(t) // the fault table takes a few seconds
	t.Parallel()
	for _, endpoint := range []string{"update", "list", "release", "download"} {
		for _, fc := range faults {
			t.Run(endpoint+"/"+fc.name, func(t *testing.T) {
				t.Parallel()
				want := expect(endpoint, fc.name)
				emu := startEmulator(t, nil)
				if _, err := emu.Storage(); err != nil {
					t.Fatal(err)
				}
				f := fc.fault
				f.Endpoint = endpoint
				if fc.name == "429 Retry-After date" {
					f.RetryAfter = time.Now().Add(time.Second).UTC().Format(http.TimeFormat)
				}
				emu.Inject(f)
				in := baseInputs(emu)
				in["download"] = "true"
				if f.Kind == emulator.FaultSlowHeaders {
					// Only here: a short timeout would fail other runs
					// on a loaded machine with attempts of their own.
					in["request-timeout"] = slowHeadersTimeout
				}
				run := runAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})

				if (run.code == 0) != want.ok {
					t.Fatalf("exit %d, want success %v\n%s", run.code, want.ok, run.stdout)
				}
				attempts := 0
				for _, r := range emu.Requests() {
					if strings.Contains(r.Path, endpointPath[endpoint]) {
						attempts++
					}
				}
				if want.attempts > 0 && attempts != want.attempts || want.attempts == 0 && attempts < 2 || want.attempts < 0 && attempts < 1 {
					t.Errorf("%d requests to %s, want %d", attempts, endpoint, want.attempts)
				}
				builds := len(emu.Builds()) // a build starts before its release is answered
				if want.builds >= 0 && builds != want.builds || builds > 1 {
					t.Errorf("%d builds, want %d (never two)", builds, want.builds)
				}
				if !want.ok {
					errs := annotations(run.stdout, "error")
					if len(errs) == 0 || !strings.Contains(errs[len(errs)-1], want.msg) {
						t.Errorf("error annotation %q does not say %q", errs, want.msg)
					}
				}
				for _, a := range emu.StorageAuth() {
					if a != "" {
						t.Errorf("the other host was sent Authorization %q", a)
					}
				}
				if fc.name == "redirect to another host" && len(emu.StorageAuth()) == 0 {
					t.Error("the redirect was not followed")
				}
				zips, _ := filepath.Glob(filepath.Join(run.workspace, "docs-build-*.zip"))
				parts, _ := filepath.Glob(filepath.Join(run.workspace, ".*.part"))
				if len(parts) > 0 {
					t.Errorf("partial files left: %v", parts)
				}
				if want.ok != (len(zips) == 1) {
					t.Errorf("zips on disk: %v", zips)
				}
				if want.ok {
					if data, _ := os.ReadFile(zips[0]); len(data) == 0 {
						t.Error("empty zip")
					}
				}
			})
		}
	}
}
