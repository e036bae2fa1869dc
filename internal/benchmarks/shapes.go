//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/growthtest"
)

// A shape is one kind of input a pull request can send, written at a size:
// the files of a workspace, and the arguments that prepare (or compare) it.
type shape struct {
	name string
	// write writes the shape at about size bytes into dir and returns the
	// arguments to docs-publish after --dry-run, and the bytes written.
	write func(dir string, size int) (args []string, written int64, err error)
	// refused: the run is expected to end in an error (an input over a
	// limit), which is measured like the others.
	refused bool
	// sizes overrides shapeSizes.
	sizes []int
}

// shapeSizes are the four sizes each shape is measured at.
var shapeSizes = []int{512 << 10, 1 << 20, 2 << 20, 4 << 20}

const yamlTop = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n"

// lines writes a YAML description: its top, then head, then item(i) for i
// from 0 until size bytes are written, then tail.
func lines(head string, item func(i int) string, tail string) func(string, int) ([]string, int64, error) {
	return func(dir string, size int) ([]string, int64, error) {
		n, err := writeFile(filepath.Join(dir, "in.yaml"), func(w io.Writer) {
			io.WriteString(w, yamlTop+head)
			for i, n := 0, len(yamlTop)+len(head); n < size; i++ {
				s := item(i)
				io.WriteString(w, s)
				n += len(s)
			}
			io.WriteString(w, tail)
		})
		return []string{"--file", "in.yaml"}, n, err
	}
}

const jsonTop = `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},`

// yamlProperties and jsonProperties open a description whose one schema's
// properties follow, one a line in YAML; jsonProperties wants "}}}}}"
// after them.
const (
	yamlProperties = yamlTop + "components:\n  schemas:\n    S:\n      type: object\n      properties:\n"
	jsonProperties = jsonTop + `"components":{"schemas":{"S":{"type":"object","properties":{`
)

// properties is the opening of jsonProperties or yamlProperties.
func properties(json bool) string {
	if json {
		return jsonProperties
	}
	return yamlProperties
}

// jsonItems writes a JSON description: its top, then head, then item(i)
// for i from 0 until size bytes are written, each after the first with a
// comma, then tail.
func jsonItems(head string, item func(i int) string, tail string) func(string, int) ([]string, int64, error) {
	return func(dir string, size int) ([]string, int64, error) {
		n, err := writeFile(filepath.Join(dir, "in.json"), func(w io.Writer) {
			io.WriteString(w, jsonTop+head)
			for i, n := 0, len(jsonTop)+len(head); n < size; i++ {
				s := item(i)
				if i > 0 {
					s = "," + s
				}
				io.WriteString(w, s)
				n += len(s)
			}
			io.WriteString(w, tail)
		})
		return []string{"--file", "in.json"}, n, err
	}
}

// collidingNames writes a description whose properties each refer to a
// schema of another file named "a" and punctuation, all of whose names
// clean to "a": in YAML (flow mappings, as people write one-line $refs) or
// in JSON, which leaves out the YAML parser's share.
func collidingNames(json bool) func(string, int) ([]string, int64, error) {
	return func(dir string, size int) ([]string, int64, error) {
		var other strings.Builder
		main, ext, line, def := "in.yaml", "c.yaml", "        p%d: {$ref: 'c.yaml#/%s'}\n", "'%s': {type: string}\n"
		if json {
			main, ext, line, def = "in.json", "c.json", `"p%d":{"$ref":"c.json#/%s"}`, `"%s":{"type":"string"}`
			other.WriteString("{")
		}
		n, err := writeFile(filepath.Join(dir, main), func(w io.Writer) {
			io.WriteString(w, properties(json))
			for i, n := 0, 0; n < size; i++ {
				name := "a" + growthtest.Punct(i)
				s := fmt.Sprintf(line, i, name)
				d := fmt.Sprintf(def, name)
				if json && i > 0 {
					s, d = ","+s, ","+d
				}
				io.WriteString(w, s)
				other.WriteString(d)
				n += len(s) + len(d)
			}
			if json {
				io.WriteString(w, "}}}}}")
			}
		})
		if err != nil {
			return nil, 0, err
		}
		if json {
			other.WriteString("}")
		}
		if err := os.WriteFile(filepath.Join(dir, ext), []byte(other.String()), 0o644); err != nil {
			return nil, 0, err
		}
		return []string{"--file", main}, n + int64(other.Len()), nil
	}
}

// smallFileSizes are the sizes of the many small files: the largest,
// 17,970 files of 68 bytes with their lines, under the 20,000 files a
// description may name.
var smallFileSizes = []int{150 << 10, 300 << 10, 600 << 10, 1200 << 10}

// tinyFileSizes are the sizes of the many tiny files: the largest, 19,600
// files of 30 bytes with their lines.
var tinyFileSizes = []int{75 << 10, 150 << 10, 300 << 10, 600 << 10}

// fileShape is a description whose properties each refer to a file of
// their own: its main file, the line that refers to file i (a format
// given i twice), the name of file i, and every file's text.
type fileShape struct {
	main, line, name, body string
	json                   bool
}

var (
	smallYAMLFiles = fileShape{main: "in.yaml", line: "        p%d: {$ref: 'f/%06d.yaml'}\n", name: "%06d.yaml", body: "{type: string, maxLength: 9}\n"}
	smallJSONFiles = fileShape{main: "in.json", line: `"p%d":{"$ref":"f/%06d.json"}`, name: "%06d.json", body: `{"type":"string","maxLength":9}`, json: true}
	// tinyFiles are the least text a file and its line can be: a name of
	// a few letters, without an extension (the file is read as text, the
	// cheaper way), and an empty object.
	tinyFiles = fileShape{main: "in.yaml", line: "        p%x: {$ref: f/%x}\n", name: "%x", body: "{}"}
)

// manyFiles writes a description of the shape sh, of size bytes with its
// files.
func manyFiles(sh fileShape) func(string, int) ([]string, int64, error) {
	return func(dir string, size int) ([]string, int64, error) {
		os.RemoveAll(filepath.Join(dir, "f"))
		if err := os.MkdirAll(filepath.Join(dir, "f"), 0o755); err != nil {
			return nil, 0, err
		}
		var total int64
		var werr error
		n, err := writeFile(filepath.Join(dir, sh.main), func(w io.Writer) {
			io.WriteString(w, properties(sh.json))
			for i, n := 0, 0; n < size; i++ {
				s := fmt.Sprintf(sh.line, i, i)
				if sh.json && i > 0 {
					s = "," + s
				}
				io.WriteString(w, s)
				if err := os.WriteFile(filepath.Join(dir, "f", fmt.Sprintf(sh.name, i)), []byte(sh.body), 0o644); err != nil && werr == nil {
					werr = err
				}
				n += len(s) + len(sh.body)
				total += int64(len(sh.body))
			}
			if sh.json {
				io.WriteString(w, "}}}}}")
			}
		})
		if err == nil {
			err = werr
		}
		return []string{"--file", sh.main}, n + total, err
	}
}

// writeFile writes what fill writes to path, and returns its size.
func writeFile(path string, fill func(w io.Writer)) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fill(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

var shapes = []shape{
	{name: "YAML block list `- a`", write: lines("x-list:\n", func(int) string { return "- a\n" }, "")},
	{name: "YAML flow list `[1,1,…]`", write: lines("x-list: [1", func(int) string { return ",1" }, "]\n")},
	{name: "YAML flow mapping `{k0: 1, …}`", write: lines("x-map: {k", func(i int) string { return fmt.Sprintf("%d: 1, k", i) }, "end: 1}\n")},
	{name: "YAML nested flow collections `[[1,[1,{a: 1}]],…]`", write: lines("x-nest: [[0]", func(int) string { return ",[1,[1,{a: 1}]]" }, "]\n")},
	{name: "YAML block mapping `k0: 1`", write: lines("x-map:\n", func(i int) string { return fmt.Sprintf("  k%d: 1\n", i) }, "")},
	{name: "YAML lines of `- [1]`", write: lines("x-list:\n", func(int) string { return "- [1]\n" }, "")},
	{name: "YAML lines of `- [[[[[[[[[1]]]]]]]]]` (nine levels, one past those packed)", write: lines("x-list:\n", func(int) string { return "- [[[[[[[[[1]]]]]]]]]\n" }, "")},
	{name: "YAML lines of `- {}`", write: lines("x-list:\n", func(int) string { return "- {}\n" }, "")},
	{name: "YAML block scalars `k0: >-`", write: lines("x-map:\n", func(i int) string { return fmt.Sprintf("  k%d: >-\n    folded\n\n    text\n", i) }, "")},
	{name: "YAML lines of `- \\|`", write: lines("x-list:\n", func(int) string { return "- |\n  x\n" }, "")},
	{name: "YAML long keys (1,000 bytes)", write: lines("x-map:\n", func(i int) string { return fmt.Sprintf("  %0990d%08d: 1\n", 0, i) }, "")},
	{name: "YAML many anchors `- &a1 1`", write: lines("x-list:\n", func(i int) string { return fmt.Sprintf("- &a%d 1\n", i) }, "")},
	{name: "YAML many tags `- !!str 1`", write: lines("x-list:\n", func(int) string { return "- !!str 1\n" }, "")},
	{name: "YAML long string with escapes", write: lines("x-s: \"", func(int) string { return `\u00e9\n\t\"a` }, "\"\n")},
	{name: "YAML deep allOf chain", write: lines("components:\n  schemas:\n    S0: {type: object}\n", func(i int) string {
		return fmt.Sprintf("    S%d: {allOf: [{$ref: '#/components/schemas/S%d'}]}\n", i+1, i)
	}, "")},
	{name: "JSON deep allOf chain (the single pass)", write: jsonItems(`"components":{"schemas":{"S0":{"type":"object"},`, func(i int) string {
		return fmt.Sprintf(`"S%d":{"allOf":[{"$ref":"#/components/schemas/S%d"}]}`, i+1, i)
	}, "}}}")},
	{name: "YAML integer of n digits (refused as too large)", refused: true, write: lines("x-n: 1", func(int) string { return "7777777777" }, "\n")},
	{name: "JSON long string with escapes", write: func(dir string, size int) ([]string, int64, error) {
		n, err := writeFile(filepath.Join(dir, "in.json"), func(w io.Writer) {
			io.WriteString(w, `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"x-s":"`)
			for n := 0; n < size; n += 12 {
				io.WriteString(w, `\u00e9\n\t\"a`)
			}
			io.WriteString(w, `"}`)
		})
		return []string{"--file", "in.json"}, n, err
	}},
	{name: "JSON long keys (1,000 bytes)", write: jsonItems(`"x-map":{`, func(i int) string { return fmt.Sprintf(`"%0990d%08d":1`, 0, i) }, "}}")},
	{name: "JSON many `$ref`s to one component", write: jsonItems(`"components":{"schemas":{"T":{"type":"string"},"S":{"type":"object","properties":{`, func(i int) string {
		return fmt.Sprintf(`"p%d":{"$ref":"#/components/schemas/T"}`, i)
	}, "}}}}}")},
	{name: "JSON with one `$ref` to another file (the tree)", write: func(dir string, size int) ([]string, int64, error) {
		if err := os.WriteFile(filepath.Join(dir, "other.json"), []byte(`{"type":"string"}`), 0o644); err != nil {
			return nil, 0, err
		}
		n, err := writeFile(filepath.Join(dir, "in.json"), func(w io.Writer) {
			io.WriteString(w, `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"O":{"$ref":"other.json"}}},"x-list":["abcdefgh"`)
			for n := 0; n < size; n += 11 {
				io.WriteString(w, `,"abcdefgh"`)
			}
			io.WriteString(w, `]}`)
		})
		return []string{"--file", "in.json"}, n, err
	}},
	{name: "`$ref`s whose lifted names clean alike (`a!`, `a$`, …)", write: collidingNames(false)},
	{name: "JSON `$ref`s whose lifted names clean alike", write: collidingNames(true)},
	{name: "many small files, each named by a `$ref`", sizes: smallFileSizes, write: manyFiles(smallYAMLFiles)},
	{name: "many small JSON files, each named by a `$ref`", sizes: smallFileSizes, write: manyFiles(smallJSONFiles)},
	{name: "many tiny files (`{}`, a name of a few letters without an extension)", sizes: tinyFileSizes, write: manyFiles(tinyFiles)},
	{name: "a comparison, every operation changed (`--base-file`)", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		ops := size / 2 / 560
		return growthtest.Operations(ops, false), growthtest.Operations(ops, true)
	})},
	// The shapes whose comparison the library does in time that grows
	// faster than their text: refused, with a warning, at a cost linear in
	// the text; and one within the bounds.
	{name: "a comparison, a chain of `$ref`s, its end changed", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		n := size / 2 / 80
		return growthtest.Spec(1, growthtest.RefChain(n, "string")), growthtest.Spec(1, growthtest.RefChain(n, "integer"))
	})},
	{name: "a comparison, schemas nested 300 properties deep inline, their ends changed", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		// 300 deep: the most a description may nest is 1,000 levels.
		n := max(1, size/2/(300*37))
		nested := func(leaf string) string {
			schemas := make([]string, n)
			for i := range schemas {
				schemas[i] = fmt.Sprintf(`"L%d":`, i) + strings.TrimPrefix(growthtest.Nested(300, leaf), `"L0":`)
			}
			return growthtest.Spec(1, strings.Join(schemas, ","))
		}
		return nested("string"), nested("integer")
	})},
	{name: "a comparison, recursive schemas whose cycles differ in length", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		n := size / 2 / 80
		return growthtest.Spec(1, growthtest.Cycle(n, false)), growthtest.Spec(1, growthtest.Cycle(n+1, true))
	})},
	{name: "a comparison, `oneOf` branches each compared with each", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		n := size / 2 / 57
		return growthtest.Spec(1, growthtest.Branches(n, "string")), growthtest.Spec(1, growthtest.Branches(n, "integer"))
	})},
	{name: "a comparison, operations naming one schema of as many changed properties", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		n := size / 2 / 165
		return growthtest.Spec(n, growthtest.Wide(n, "string")), growthtest.Spec(n, growthtest.Wide(n, "integer"))
	})},
	{name: "a comparison, operations naming a chain of 100 `$ref`s, its end changed (within the bounds)", sizes: compareSizes, write: comparedPair(func(size int) (string, string) {
		ops := max(1, (size/2-100*80)/140)
		return growthtest.Spec(ops, growthtest.RefChain(100, "string")), growthtest.Spec(ops, growthtest.RefChain(100, "integer"))
	})},
}

// compareSizes are the sizes of a comparison's two descriptions together.
var compareSizes = []int{256 << 10, 512 << 10, 1 << 20, 2 << 20}

// comparedPair writes the pair pair gives at a size, base.json and in.json,
// and compares them.
func comparedPair(pair func(size int) (base, head string)) func(string, int) ([]string, int64, error) {
	return func(dir string, size int) ([]string, int64, error) {
		base, head := pair(size)
		if err := os.WriteFile(filepath.Join(dir, "base.json"), []byte(base), 0o644); err != nil {
			return nil, 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, "in.json"), []byte(head), 0o644); err != nil {
			return nil, 0, err
		}
		return []string{"--file", "in.json", "--base-file", "base.json"}, int64(len(base) + len(head)), nil
	}
}

// shapeRow is one shape at its four sizes.
type shapeRow struct {
	name    string
	refused bool
	points  []shapePoint
	runs    int // at each size
}

// A shapePoint is a shape at one size: the median wall time and the
// median peak memory of its runs.
type shapePoint struct {
	size int64
	s    sample
	err  error
}

// medianOf is a size's point from its runs: the median wall time and the
// median peak memory, each of its own (they may come from different runs).
func medianOf(ss []sample) sample {
	st := summarize(ss)
	return sample{wall: st.median, rss: st.rssMedian}
}

// shapeGrowth measures every shape at its four sizes, o.shapeRuns times
// each (at least once): peak memory is the measure to read, time a second
// one on a shared machine.
func shapeGrowth(ctx context.Context, o *options) ([]shapeRow, error) {
	var rows []shapeRow
	for _, sh := range shapes {
		if !strings.Contains(sh.name, o.shape) {
			continue
		}
		dir := filepath.Join(o.work, "shapes")
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		sizes := shapeSizes
		if sh.sizes != nil {
			sizes = sh.sizes
		}
		if o.smoke {
			sizes = []int{16 << 10, 64 << 10}
		}
		row := shapeRow{name: sh.name, refused: sh.refused, runs: max(1, o.shapeRuns)}
		for _, size := range sizes {
			args, n, err := sh.write(dir, size)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sh.name, err)
			}
			var ss []sample
			for range row.runs {
				var s sample
				s, err = measure(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary, append([]string{"--dry-run", "--bundle-path", "out.json"}, args...)...)
				if err != nil && !sh.refused {
					return nil, fmt.Errorf("%s at %d bytes: %w", sh.name, n, err)
				}
				ss = append(ss, s)
				logf("  %s, %d bytes: %s, %s", sh.name, n, ms(s.wall), mb(s.rss))
			}
			row.points = append(row.points, shapePoint{size: n, s: medianOf(ss), err: err})
		}
		rows = append(rows, row)
		os.RemoveAll(dir)
	}
	return rows, nil
}

// shapesSection is the report's growth table by shape.
func shapesSection(rows []shapeRow) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("## 8. Growth by shape\n\n")
	w("`docs-publish --dry-run` on inputs of one shape each, written by the harness at four sizes (`go -C internal/benchmarks run . -shapes`), %s. Peak memory (resident set, GNU time) is the measure to read; wall time is taken on a machine other work shares. Between two sizes: the memory the larger took per byte more of input (the slope; the target for a description is 10), and the exponent of time (1 is linear, 2 quadratic).\n\n", runsEach(rows))
	w("| shape | sizes (kB) | wall | peak memory (MB) | memory slope, bytes per byte | time exponent |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		var sizes, walls, peaks, slopes, exps []string
		for i, p := range r.points {
			sizes = append(sizes, fmt.Sprintf("%d", p.size>>10))
			walls = append(walls, ms(p.s.wall))
			peaks = append(peaks, fmt.Sprintf("%.0f", float64(p.s.rss)/1024))
			if i > 0 {
				q := r.points[i-1]
				slopes = append(slopes, fmt.Sprintf("%.1f", float64(p.s.rss-q.s.rss)*1024/float64(p.size-q.size)))
				exps = append(exps, fmt.Sprintf("%.2f", math.Log(p.s.wall.Seconds()/q.s.wall.Seconds())/math.Log(float64(p.size)/float64(q.size))))
			}
		}
		name := r.name
		if r.refused {
			name += " (exit 1 each time, as meant)"
		}
		w("| %s | %s | %s | %s | %s | %s |\n", name, strings.Join(sizes, " / "), strings.Join(walls, " / "), strings.Join(peaks, " / "), strings.Join(slopes, " / "), strings.Join(exps, " / "))
	}
	return b.String()
}

// runsEach says how many runs each size of rows took: "one run each", or
// "n runs each, their medians" (-shape-runs).
func runsEach(rows []shapeRow) string {
	n := 1
	if len(rows) > 0 {
		n = rows[0].runs
	}
	if n <= 1 {
		return "one run each"
	}
	return fmt.Sprintf("%d runs each, the median wall time and the median peak memory of each size", n)
}

// shapesOnly measures the shapes alone and prints their section.
func shapesOnly(ctx context.Context, o *options, stdout io.Writer) error {
	rows, err := shapeGrowth(ctx, o)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, shapesSection(rows))
	return err
}
