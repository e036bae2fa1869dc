//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docs-publish/docs-publish/internal/openapi"
)

// profile prepares file in process as docs-publish does, under the CPU
// profiler, and summarises with go tool pprof where the time goes: the
// account BENCHMARKS.md gives of a target missed.
func profile(ctx context.Context, file string) (string, error) {
	dir, err := os.MkdirTemp("", "docs-publish-profile")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	prof := filepath.Join(dir, "cpu.pprof")
	pf, err := os.Create(prof)
	if err != nil {
		return "", err
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		pf.Close()
		return "", err
	}
	runs := 0
	for start := time.Now(); runs < 3 || time.Since(start) < 2*time.Second; runs++ {
		out, err := os.Create(filepath.Join(dir, "out.json"))
		if err == nil {
			var p *openapi.Prepared
			p, err = openapi.Prepare(ctx, os.DirFS(filepath.Dir(file)), filepath.Base(file), openapi.PrepareOptions{Bundle: true}, out)
			p.Release() // as a run lets its tree go
			out.Close()
		}
		if err != nil {
			pprof.StopCPUProfile()
			pf.Close()
			return "", err
		}
	}
	pprof.StopCPUProfile()
	pf.Close()
	cmd := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=100000", prof)
	text, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go tool pprof: %w", err)
	}
	shares := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasSuffix(f[1], "%") || f[1] == "flat%" {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[1], "%"), 64)
		if err != nil {
			continue
		}
		shares[where(strings.Join(f[5:], " "))] += pct
	}
	type share struct {
		what string
		pct  float64
	}
	var list []share
	for w, p := range shares {
		if p >= 1 {
			list = append(list, share{w, p})
		}
	}
	slices.SortFunc(list, func(a, b share) int { return int(b.pct*100 - a.pct*100) })
	var parts []string
	for _, s := range list {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", s.what, s.pct))
	}
	return fmt.Sprintf("in process, %d runs: %s", runs, strings.Join(parts, ", ")), nil
}

// where names the part of the work a profiled function belongs to.
func where(fn string) string {
	switch {
	case strings.HasPrefix(fn, "go.yaml.in/yaml/v3"):
		return "the YAML parser (yaml.v3)"
	case strings.HasPrefix(fn, "github.com/go-json-experiment/json"):
		return "the JSON decoder (jsontext)"
	case strings.Contains(fn, "/internal/openapi."):
		return "docs-publish's own code"
	case strings.HasPrefix(fn, "runtime.mallocgc"), strings.HasPrefix(fn, "runtime.(*mcache)"), strings.HasPrefix(fn, "runtime.(*mcentral)"),
		strings.HasPrefix(fn, "runtime.nextFreeFast"), strings.HasPrefix(fn, "runtime.memclr"), strings.HasPrefix(fn, "runtime.growslice"),
		strings.HasPrefix(fn, "runtime.makeslice"), strings.HasPrefix(fn, "runtime.newobject"), strings.HasPrefix(fn, "runtime.slicebytetostring"):
		return "allocation"
	case strings.HasPrefix(fn, "runtime.memmove"):
		return "copying"
	case strings.HasPrefix(fn, "runtime.") && (strings.Contains(fn, "gc") || strings.Contains(fn, "scan") || strings.Contains(fn, "mark") ||
		strings.Contains(fn, "sweep") || strings.Contains(fn, "Span") || strings.Contains(fn, "madvise")),
		strings.HasPrefix(fn, "internal/runtime/gc"):
		return "the garbage collector"
	case strings.HasPrefix(fn, "syscall."), strings.HasPrefix(fn, "internal/runtime/syscall"), strings.HasPrefix(fn, "internal/poll"):
		return "reading and writing files"
	case strings.HasPrefix(fn, "runtime."), strings.HasPrefix(fn, "internal/runtime"), strings.HasPrefix(fn, "aeshash"), strings.HasPrefix(fn, "gcWriteBarrier"):
		return "the Go runtime (maps, scheduling)"
	case !strings.Contains(strings.SplitN(fn, "/", 2)[0], "."):
		return "the standard library"
	}
	return "other"
}
