//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// input is one description to prepare, and how much faster and leaner
// than the fastest peer docs-publish is to be on it.
type input struct {
	name, file, source string
	size               int64
	speed, memory      float64 // targets: the fastest peer's time and memory over docs-publish's
}

// tool is one way to prepare a description: load, resolve, write JSON.
type tool struct {
	name string
	args func(in, out string) (string, []string)
}

type prepRow struct {
	input   input
	tools   []string
	stats   map[string]stats
	err     map[string]string
	profile string // where docs-publish's time goes, when it missed a target
}

// fastest is the peer with the shortest median time, or "".
func (r prepRow) fastest() string {
	f := ""
	for _, t := range r.tools {
		if s, ok := r.stats[t]; ok && t != "docs-publish" && (f == "" || s.median < r.stats[f].median) {
			f = t
		}
	}
	return f
}

// ratios are the fastest peer's median time and memory over docs-publish's.
func (r prepRow) ratios() (speed, memory float64, ok bool) {
	dp, ok1 := r.stats["docs-publish"]
	f := r.fastest()
	if !ok1 || f == "" || dp.median <= 0 || dp.rssMedian <= 0 {
		return 0, 0, false
	}
	p := r.stats[f]
	return p.median.Seconds() / dp.median.Seconds(), float64(p.rssMedian) / float64(dp.rssMedian), true
}

// missed reports whether docs-publish fell short of a target on the row.
func (r prepRow) missed() bool {
	speed, memory, ok := r.ratios()
	return ok && (speed < r.input.speed || memory < r.input.memory)
}

func preparation(ctx context.Context, o *options) ([]prepRow, []string, error) {
	var notes []string
	dir := filepath.Join(o.work, "prep")
	os.MkdirAll(dir, 0o755)
	tools := []tool{{"docs-publish", func(in, out string) (string, []string) {
		return o.binary, []string{"--dry-run", "--file", in, "--bundle-path", out}
	}}}
	var inputs []input
	if o.smoke {
		inputs = append(inputs, input{name: "Bookstore sample (Swagger 2.0, YAML)", file: copyInto(dir, "testdata/specs/bookstore.swagger2.yaml"), source: "testdata", speed: 10, memory: 4})
	} else {
		peers, err := installPeers(ctx, o)
		if err != nil {
			notes = append(notes, "peers not installed, only docs-publish measured: "+err.Error())
		} else {
			tools = append(tools, peers...)
		}
		if inputs, err = fetchInputs(ctx, dir); err != nil {
			return nil, nil, err
		}
	}
	runs := o.prepRuns
	if o.smoke {
		runs = 1
	}
	var rows []prepRow
	for _, in := range inputs {
		logf("  %s", in.name)
		if fi, err := os.Stat(filepath.Join(dir, in.file)); err == nil {
			in.size = fi.Size()
		}
		row := prepRow{input: in, stats: map[string]stats{}, err: map[string]string{}}
		// Round after round, each tool once in turn: a machine others
		// share slows the tools alike, not the one measured while it was
		// busiest.
		samples := map[string][]sample{}
		for i := 0; i < runs; i++ {
			for _, t := range tools {
				if _, failed := row.err[t.name]; failed {
					continue
				}
				name, args := t.args(in.file, "out-"+strings.ReplaceAll(t.name, "/", "_")+".json")
				s, err := measure(ctx, dir, []string{"REDOCLY_TELEMETRY=off", "GITHUB_ACTIONS="}, name, args...)
				if err != nil {
					row.err[t.name] = firstLine(err.Error())
					continue
				}
				samples[t.name] = append(samples[t.name], s)
			}
		}
		for _, t := range tools {
			row.tools = append(row.tools, t.name)
			if ss := samples[t.name]; len(ss) > 0 {
				row.stats[t.name] = summarize(ss)
			}
			logf("    %s: %s, %s", t.name, ms(row.stats[t.name].median), mb(row.stats[t.name].rssMedian))
		}
		if !o.smoke && row.missed() {
			// Where the time goes, for the report's account of a target
			// missed.
			var err error
			if row.profile, err = profile(ctx, filepath.Join(dir, in.file)); err != nil {
				row.profile = "not profiled: " + err.Error()
			}
		}
		rows = append(rows, row)
	}
	return rows, notes, nil
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func copyInto(dir, src string) string {
	b, _ := os.ReadFile(src)
	os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o644)
	return filepath.Base(src)
}

// installPeers installs the tools a user would otherwise run, from the npm
// registry, into the run's temporary directory.
func installPeers(ctx context.Context, o *options) ([]tool, error) {
	o.peerDir = filepath.Join(o.work, "peers")
	os.MkdirAll(o.peerDir, 0o755)
	if _, err := exec.LookPath("npm"); err != nil {
		return nil, err
	}
	logf("  npm install @redocly/cli@2.77.0 @apidevtools/swagger-cli@4.0.4")
	if err := sh(ctx, o.peerDir, "npm", "install", "--silent", "--no-audit", "--no-fund", "@redocly/cli@2.77.0", "@apidevtools/swagger-cli@4.0.4"); err != nil {
		return nil, err
	}
	bin := filepath.Join(o.peerDir, "node_modules", ".bin")
	return []tool{
		{"@redocly/cli bundle", func(in, out string) (string, []string) {
			return filepath.Join(bin, "redocly"), []string{"bundle", in, "--ext", "json", "-o", out}
		}},
		{"@apidevtools/swagger-cli bundle", func(in, out string) (string, []string) {
			return filepath.Join(bin, "swagger-cli"), []string{"bundle", "-t", "json", "-o", out, in}
		}},
	}, nil
}

// npmFiles fetches files of an npm package into dir, each gunzipped when
// its name ends in .gz.
func npmFiles(ctx context.Context, dir, pkg string, files ...string) ([][]byte, error) {
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack %s: %w", pkg, err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(string(out)))
	defer os.Remove(tgz)
	args := []string{"-xzf", tgz}
	for _, f := range files {
		args = append(args, "package/"+f)
	}
	if err := sh(ctx, dir, "tar", args...); err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Join(dir, "package"))
	var all [][]byte
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, "package", f))
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(f, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, err
			}
			if data, err = io.ReadAll(zr); err != nil {
				return nil, err
			}
		}
		all = append(all, data)
	}
	return all, nil
}

// moduleFile fetches one file of a Go module, through the module proxy,
// into a module cache of the run's own.
func moduleFile(ctx context.Context, dir, mod, file string) ([]byte, error) {
	env := append(os.Environ(), "GOMODCACHE="+filepath.Join(dir, "gomod"), "GOFLAGS=-mod=mod")
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", mod)
	cmd.Dir, cmd.Env = dir, env
	// The cache's files are read-only: only go clean removes them.
	defer func() {
		clean := exec.Command("go", "clean", "-modcache")
		clean.Dir, clean.Env = dir, env
		clean.Run()
	}()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download %s: %w", mod, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return nil, fmt.Errorf("go mod download %s: %s", mod, out)
	}
	return os.ReadFile(filepath.Join(info.Dir, file))
}

// fetchInputs gets the large real descriptions from the package registries.
func fetchInputs(ctx context.Context, dir string) ([]input, error) {
	const octokit = "@octokit/openapi@23.0.2"
	gh, err := npmFiles(ctx, dir, octokit, "generated/api.github.com.json", "generated/api.github.com.deref.json")
	if err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "github.json"), gh[0], 0o644)
	os.WriteFile(filepath.Join(dir, "github.deref.json"), gh[1], 0o644)
	k8s, err := npmFiles(ctx, dir, "kubernetes-client@9.0.0", "lib/specs/swagger-1.13.json.gz")
	if err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "kubernetes.json"), k8s[0], 0o644)
	// GitHub's description as YAML, keys in order, indented by two spaces
	// as YAML is mostly written.
	var doc yaml.Node
	if err := yaml.Unmarshal(gh[0], &doc); err != nil {
		return nil, err
	}
	clearStyles(&doc)
	var y bytes.Buffer
	enc := yaml.NewEncoder(&y)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	enc.Close()
	os.WriteFile(filepath.Join(dir, "github.yaml"), y.Bytes(), 0o644)
	const libopenapi = "github.com/pb33f/libopenapi@v0.42.3"
	stripe, err := moduleFile(ctx, dir, libopenapi, "test_specs/stripe.yaml")
	if err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "stripe.yaml"), stripe, 0o644)
	return []input{
		{name: "GitHub REST (OpenAPI 3.0, JSON)", file: "github.json", source: octokit + " generated/api.github.com.json", speed: 20, memory: 4},
		{name: "Kubernetes 1.13 (Swagger 2.0, JSON)", file: "kubernetes.json", source: "kubernetes-client@9.0.0 lib/specs/swagger-1.13.json.gz", speed: 10, memory: 4},
		{name: "GitHub REST dereferenced (OpenAPI 3.0, JSON)", file: "github.deref.json", source: octokit + " generated/api.github.com.deref.json", speed: 8, memory: 4},
		{name: "GitHub REST (OpenAPI 3.0, YAML)", file: "github.yaml", source: "the GitHub description above, written as YAML by the harness (two-space indents)", speed: 3, memory: 2.5},
		{name: "Stripe (OpenAPI 3.0, YAML)", file: "stripe.yaml", source: libopenapi + " test_specs/stripe.yaml (a Go module that ships it as a test file)", speed: 3, memory: 2.5},
	}, nil
}

// clearStyles makes JSON's flow style into YAML's block style.
func clearStyles(n *yaml.Node) {
	if n.Kind != yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		clearStyles(c)
	}
}
