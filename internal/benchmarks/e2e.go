//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/docs-publish/docs-publish/internal/emulator"
)

type e2eResult struct {
	curl, dp stats
	skipped  string
}

// endToEnd runs the seed's curl flow and docs-publish against one emulator,
// alternating, so that both meet the same machine state.
func endToEnd(ctx context.Context, o *options) (e2eResult, error) {
	var res e2eResult
	cfg := emulator.Default()
	cfg.BuildDelay = 100 * time.Millisecond
	emu, err := emulator.Start(cfg)
	if err != nil {
		return res, err
	}
	defer emu.Close()
	ws := filepath.Join(o.work, "e2e")
	os.MkdirAll(ws, 0o755)
	spec, err := os.ReadFile("testdata/specs/bookstore.swagger2.json")
	if err != nil {
		return res, err
	}
	os.WriteFile(filepath.Join(ws, "openapi.json"), spec, 0o644)
	script, _ := filepath.Abs("testdata/seed/curl-flow.sh")

	haveCurl := true
	for _, tool := range []string{"sh", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			haveCurl, res.skipped = false, tool+" is not installed: the curl flow was not run"
		}
	}
	var curl, dp []sample
	for i := 0; i < o.runs; i++ {
		if haveCurl {
			s, err := measure(ctx, ws, []string{"BASE_URL=" + emu.URL(), "TOKEN=" + cfg.Token, "PROJECT_ID=4711",
				"SPEC_JSON=openapi.json", "OUT=curl.zip"}, "sh", script)
			if err != nil {
				return res, err
			}
			curl = append(curl, s)
		}
		s, err := measure(ctx, ws, []string{"DOCS_PUBLISH_TOKEN=" + cfg.Token, "GITHUB_ACTIONS="}, o.binary,
			"--api-url", emu.URL(), "--project-id", "4711", "--file", "openapi.json", "--branch", "main",
			"--download", "--download-path", fmt.Sprintf("dp-%d.zip", i))
		if err != nil {
			return res, err
		}
		dp = append(dp, s)
	}
	res.curl, res.dp = summarize(curl), summarize(dp)
	return res, nil
}

// startup times `docs-publish --version`, cold each time (a new process).
func startup(ctx context.Context, o *options) (stats, error) {
	n := 30
	if o.smoke {
		n = 3
	}
	var ss []sample
	for i := 0; i < n; i++ {
		s, err := measure(ctx, "", nil, o.binary, "--version")
		if err != nil {
			return stats{}, err
		}
		ss = append(ss, s)
	}
	return summarize(ss), nil
}
