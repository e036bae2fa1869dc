//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// sample is one timed run of a command.
type sample struct {
	wall time.Duration
	rss  int64         // peak resident memory, kB: what /usr/bin/time -v reports
	cpu  time.Duration // user and system time, the command's and its children's
}

// timeCmd is GNU time, when installed. Peak memory is read through it: Go
// starts children with vfork, and Linux carries the parent's high-water
// mark into the child's, so the harness's own memory would be counted.
var timeCmd = func() string {
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		return "/usr/bin/time"
	}
	return ""
}()

var maxRSS = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// measure runs a command and returns its wall time and peak memory.
func measure(ctx context.Context, dir string, env []string, name string, args ...string) (sample, error) {
	s, _, err := measureOut(ctx, dir, env, name, args...)
	return s, err
}

// measureOut is measure, with what the command wrote to its output and
// its error output.
func measureOut(ctx context.Context, dir string, env []string, name string, args ...string) (sample, string, error) {
	cmdName, cmdArgs := name, args
	if timeCmd != "" {
		cmdName, cmdArgs = timeCmd, append([]string{"-v", name}, args...)
	}
	cmd := exec.CommandContext(ctx, cmdName, cmdArgs...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil {
		s.cpu = ps.UserTime() + ps.SystemTime()
	}
	if m := maxRSS.FindStringSubmatch(errOut.String()); m != nil {
		s.rss, _ = strconv.ParseInt(m[1], 10, 64)
	} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rss = ru.Maxrss // an upper bound: see timeCmd
	}
	if err != nil {
		return s, "", fmt.Errorf("%s %v: %v\n%s%s", name, args, err, tail(out.String()), tail(errOut.String()))
	}
	return s, out.String() + errOut.String(), nil
}

func sh(ctx context.Context, dir, name string, args ...string) error {
	_, err := measure(ctx, dir, nil, name, args...)
	return err
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// stats summarises samples: medians, and the spread of wall times.
type stats struct {
	n                 int
	median, min, max  time.Duration
	p25, p75          time.Duration
	rssMedian, rssMax int64
}

func summarize(ss []sample) stats {
	if len(ss) == 0 {
		return stats{}
	}
	walls := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.wall, s.rss
	}
	slices.Sort(walls)
	slices.Sort(rss)
	q := func(p float64) time.Duration { return walls[int(p*float64(len(walls)-1)+0.5)] }
	return stats{
		n: len(ss), median: q(0.5), min: walls[0], max: walls[len(walls)-1], p25: q(0.25), p75: q(0.75),
		rssMedian: rss[len(rss)/2], rssMax: rss[len(rss)-1],
	}
}

func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	if d < 10*time.Second {
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

func mb(kb int64) string { return fmt.Sprintf("%.0f MB", float64(kb)/1024) }
