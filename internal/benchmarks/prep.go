//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// input is one description to prepare.
type input struct {
	name, file, source string
	size               int64
}

// tool is one way to prepare a description: load, resolve, write JSON.
type tool struct {
	name string
	args func(in, out string) (string, []string)
}

type prepRow struct {
	input input
	tools []string
	stats map[string]stats
	err   map[string]string
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
		inputs = append(inputs, input{name: "Bookstore sample (Swagger 2.0, YAML)", file: copyInto(dir, "testdata/specs/bookstore.swagger2.yaml"), source: "testdata"})
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
	runs := 3
	if o.smoke {
		runs = 1
	}
	var rows []prepRow
	for _, in := range inputs {
		if fi, err := os.Stat(filepath.Join(dir, in.file)); err == nil {
			in.size = fi.Size()
		}
		row := prepRow{input: in, stats: map[string]stats{}, err: map[string]string{}}
		for _, t := range tools {
			row.tools = append(row.tools, t.name)
			var ss []sample
			for i := 0; i < runs; i++ {
				name, args := t.args(in.file, "out-"+strings.ReplaceAll(t.name, "/", "_")+".json")
				s, err := measure(ctx, dir, []string{"REDOCLY_TELEMETRY=off", "GITHUB_ACTIONS="}, name, args...)
				if err != nil {
					row.err[t.name] = firstLine(err.Error())
					break
				}
				ss = append(ss, s)
			}
			if len(ss) > 0 {
				row.stats[t.name] = summarize(ss)
			}
			logf("  %s on %s: %s", t.name, in.name, ms(row.stats[t.name].median))
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

// npmFile fetches one file of an npm package into dir.
func npmFile(ctx context.Context, dir, pkg, file string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack %s: %w", pkg, err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(string(out)))
	defer os.Remove(tgz)
	if err := sh(ctx, dir, "tar", "-xzf", tgz, "package/"+file); err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Join(dir, "package"))
	data, err := os.ReadFile(filepath.Join(dir, "package", file))
	if err != nil || !strings.HasSuffix(file, ".gz") {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// fetchInputs gets the large real descriptions from the npm registry.
func fetchInputs(ctx context.Context, dir string) ([]input, error) {
	gh, err := npmFile(ctx, dir, "@octokit/openapi@23.0.2", "generated/api.github.com.json")
	if err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "github.json"), gh, 0o644)
	k8s, err := npmFile(ctx, dir, "kubernetes-client@9.0.0", "lib/specs/swagger-1.13.json.gz")
	if err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "kubernetes.json"), k8s, 0o644)
	// No registry package ships a multi-megabyte YAML description, so the
	// GitHub description is rewritten as YAML, keys in order.
	var doc yaml.Node
	if err := yaml.Unmarshal(gh, &doc); err != nil {
		return nil, err
	}
	clearStyles(&doc)
	y, err := yaml.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "github.yaml"), y, 0o644)
	return []input{
		{name: "GitHub REST (OpenAPI 3.0, JSON)", file: "github.json", source: "@octokit/openapi@23.0.2 generated/api.github.com.json"},
		{name: "Kubernetes 1.13 (Swagger 2.0, JSON)", file: "kubernetes.json", source: "kubernetes-client@9.0.0 lib/specs/swagger-1.13.json.gz"},
		{name: "GitHub REST (OpenAPI 3.0, YAML)", file: "github.yaml", source: "the GitHub description above, written as YAML by the harness"},
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
