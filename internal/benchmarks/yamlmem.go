//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// yamlRow is the peak memory of preparing one YAML description, against
// its size.
type yamlRow struct {
	name, file, source string
	size               int64 // bytes
	st                 stats
}

// perByte is the peak memory per byte of input, and what it is above
// base, the peak of preparing a description of a few lines: the process's
// start-up, which a small file's figure would be all of.
func (r yamlRow) perByte(base int64) (whole, above float64) {
	if r.size == 0 {
		return 0, 0
	}
	return float64(r.st.rssMedian) * 1024 / float64(r.size), float64(r.st.rssMedian-base) * 1024 / float64(r.size)
}

// yamlTarget is the most peak memory a YAML description may take per
// byte of input: the tree the YAML library builds took up to 78.
const yamlTarget = 10

// yamlMemory measures the peak memory of preparing YAML descriptions: the
// GitHub description as YAML (written by the preparation section, or the
// smoke run's sample), and a block-style list of nine million one-letter
// items, 36 MB, the case of many small scalars.
func yamlMemory(ctx context.Context, o *options) ([]yamlRow, error) {
	dir := filepath.Join(o.work, "yaml")
	os.MkdirAll(dir, 0o755)
	items := 9_000_000
	rows := []yamlRow{{name: "GitHub REST (OpenAPI 3.0, YAML)", file: filepath.Join(o.work, "prep", "github.yaml"), source: "the GitHub description of section 2, as YAML"}}
	if o.smoke {
		items = 100_000
		rows = []yamlRow{{name: "Bookstore sample (Swagger 2.0, YAML)", file: "testdata/specs/bookstore.swagger2.yaml", source: "testdata"}}
	}
	minimal := filepath.Join(dir, "minimal.yaml")
	if err := os.WriteFile(minimal, []byte("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n"), 0o644); err != nil {
		return nil, err
	}
	rows = append([]yamlRow{{name: "a description of three lines", file: minimal, source: "written by the harness"}}, rows...)
	list := filepath.Join(dir, "list.yaml")
	if err := writeList(list, items); err != nil {
		return nil, err
	}
	rows = append(rows, yamlRow{name: fmt.Sprintf("a block-style list of %d one-letter items", items), file: list, source: "written by the harness: `x-list:` then `- a` on each line, after a description's top"})
	runs := 3
	if o.smoke {
		runs = 1
	}
	for i := range rows {
		// Inside the folder the run takes for its workspace.
		in := filepath.Base(rows[i].file)
		if filepath.Dir(rows[i].file) != dir {
			data, err := os.ReadFile(rows[i].file)
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(dir, in), data, 0o644); err != nil {
				return nil, err
			}
		}
		st, err := os.Stat(filepath.Join(dir, in))
		if err != nil {
			return nil, err
		}
		rows[i].size = st.Size()
		var ss []sample
		for range runs {
			s, err := measure(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary, "--dry-run", "--file", in, "--bundle-path", "out.json")
			if err != nil {
				return nil, err
			}
			ss = append(ss, s)
		}
		rows[i].st = summarize(ss)
		whole, above := rows[i].perByte(rows[0].st.rssMedian)
		logf("  %s: %s, %s, %.1f bytes per byte, %.1f above the first", rows[i].name, ms(rows[i].st.median), mb(rows[i].st.rssMedian), whole, above)
	}
	os.Remove(list)
	return rows, nil
}

// writeList writes a description whose x-list holds n one-letter items,
// one a line, in block style.
func writeList(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("openapi: 3.0.3\ninfo:\n  title: A long list\n  version: \"1\"\npaths: {}\nx-list:\n")
	for range n {
		w.WriteString("- a\n")
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// yamlWhyMissed says why the tree of a list of tiny scalars is over the
// target.
const yamlWhyMissed = "A long list of plain scalars is held packed (one node for the list, its items a few bytes each: their kind, JSON text and place), and the YAML library's own tree of a large block sequence is never whole (it is parsed in parts of about 64 kB of items, each let go as it is converted); what is over the target here is held otherwise: a value that is not a plain scalar in a long list is an openapi.Node of 40 bytes and a pointer of 8, before the garbage collector's headroom (its heap grows to about twice what is live between collections)."

// yamlHow says where the memory of the list goes.
const yamlHow = "Where a list of tiny scalars' memory goes: a long YAML list of plain scalars (256 items or more, none quoted, tagged or anchored) is held packed, one node for the list whose items are a few bytes each (their kind, their JSON text and their line and column, 4 bytes for an item `- a`), unpacked into a node each only where a reader needs the items as nodes (an enum validation checks a default against, a `$ref` into the list); the upload is written from the packed form. A large block sequence is also parsed in parts of about 64 kB of items, so the YAML library's tree of it is never whole. What remains on such a list: the input (1 byte per byte), the index of its lines while it is cut into parts (4 bytes a line, 1 per byte), the packed items (1), and the rest of the figure, not broken down further: the garbage collector's headroom and the packed text's growth while it is built."

// yamlSection is the report's account of YAML memory.
func yamlSection(rows []yamlRow) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("## 6. YAML memory\n\n")
	w("Peak memory of `docs-publish --dry-run --file IN --bundle-path OUT` on YAML descriptions (the process's whole resident set), median of three runs, per byte of input, both whole and above the peak of preparing a description of three lines (the process's start-up, which is all of a small file's figure): the tree's share. Target: the tree at most %d bytes per byte of input.\n\n", yamlTarget)
	w("| description | size | median wall | peak memory | per byte of input | above a three-line description's peak, per byte (target ≤ %d) |\n|---|---|---|---|---|---|\n", yamlTarget)
	base := rows[0].st.rssMedian
	for i, r := range rows {
		whole, above := r.perByte(base)
		if i == 0 {
			w("| %s | %d bytes | %s | %s | | |\n", r.name, r.size, ms(r.st.median), mb(r.st.rssMedian))
			continue
		}
		w("| %s | %.1f MB | %s | %s | %.1f bytes | %.1f bytes (%s) |\n", r.name, float64(r.size)/1e6, ms(r.st.median), mb(r.st.rssMedian), whole, above, verdict(above <= yamlTarget))
	}
	w("\n%s\n", yamlHow)
	for i, r := range rows {
		if _, above := r.perByte(base); i > 0 && above > yamlTarget {
			w("\n**%s**: %.1f bytes per byte above the start-up where %d is the target. %s\n", r.name, above, yamlTarget, yamlWhyMissed)
		}
	}
	w("\nSources: ")
	for i, r := range rows {
		if i > 0 {
			w("; ")
		}
		w("%s: %s", r.name, r.source)
	}
	w(".\n")
	return b.String()
}

// yamlOnly measures YAML memory alone and prints its section: GitHub's
// description is fetched and written as YAML as the preparation does.
func yamlOnly(ctx context.Context, o *options, stdout io.Writer) error {
	if !o.smoke {
		dir := filepath.Join(o.work, "prep")
		os.MkdirAll(dir, 0o755)
		if _, err := fetchInputs(ctx, dir); err != nil {
			return fmt.Errorf("inputs: %w", err)
		}
	}
	rows, err := yamlMemory(ctx, o)
	if err != nil {
		return err
	}
	io.WriteString(stdout, yamlSection(rows))
	return nil
}
