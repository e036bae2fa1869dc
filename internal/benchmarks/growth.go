//go:build unix

package main

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/docs-publish/docs-publish/internal/openapi"
)

type point struct {
	mb   float64 // input size
	wall float64 // seconds
	rss  float64 // MB
}

// growth measures preparation on synthetic descriptions of growing size,
// both ways a run prepares one (the single pass, and the tree, which a
// description that names another file takes), and the memory of downloads
// of growing zips.
func growth(ctx context.Context, o *options) (prep, tree, download []point, err error) {
	dir := filepath.Join(o.work, "growth")
	os.MkdirAll(dir, 0o755)
	base := filepath.Join(o.work, "prep", "github.json")
	sizes, zips := []float64{1, 5, 20, 80}, []float64{10, 100, 500}
	if o.smoke {
		base, sizes, zips = "testdata/specs/bookstore.openapi3.json", []float64{1}, []float64{1}
	}
	root, err := openapi.Load(context.Background(), os.DirFS(filepath.Dir(base)), filepath.Base(base), openapi.DefaultLimits)
	if err != nil {
		return nil, nil, nil, err
	}
	// The second file that makes a description take the tree.
	if err := os.WriteFile(filepath.Join(dir, "shared.json"), []byte(`{"note":"a second file"}`), 0o644); err != nil {
		return nil, nil, nil, err
	}
	for _, size := range sizes {
		name := fmt.Sprintf("synthetic-%gMB.json", size)
		if err := synthesize(root, size, filepath.Join(dir, name)); err != nil {
			return nil, nil, nil, err
		}
		two := fmt.Sprintf("synthetic-%gMB-two-files.json", size)
		if err := namingAnotherFile(filepath.Join(dir, name), filepath.Join(dir, two)); err != nil {
			return nil, nil, nil, err
		}
		for _, way := range []struct {
			file string
			to   *[]point
		}{{name, &prep}, {two, &tree}} {
			var ss []sample
			for i := 0; i < 3; i++ {
				s, err := measure(ctx, dir, []string{"GITHUB_ACTIONS="}, o.binary, "--dry-run", "--file", way.file, "--bundle-path", "out.json")
				if err != nil {
					return nil, nil, nil, err
				}
				ss = append(ss, s)
			}
			st := summarize(ss)
			*way.to = append(*way.to, point{size, st.median.Seconds(), float64(st.rssMedian) / 1024})
			logf("  %s: %s, %s", way.file, ms(st.median), mb(st.rssMedian))
		}
		os.Remove(filepath.Join(dir, two))
	}
	for _, size := range zips {
		s, err := downloadOnce(ctx, o, dir, size)
		if err != nil {
			return nil, nil, nil, err
		}
		download = append(download, point{size, s.wall.Seconds(), float64(s.rss) / 1024})
		logf("  download of %g MB: %s, %s", size, ms(s.wall), mb(s.rss))
	}
	return prep, tree, download, nil
}

// namingAnotherFile writes the description from as to, with one $ref to
// another file at its top (inlined where it stands): the same document but
// for that value, which the single pass leaves to the tree.
func namingAnotherFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("%s is not a JSON object", from)
	}
	out := append([]byte(`{"x-shared":{"$ref":"shared.json"},`), data[1:]...)
	return os.WriteFile(to, out, 0o644)
}

// synthesize writes a description of about size MB made of the source's
// real paths, repeated under new names once they run out, with only the
// components those paths reach, so that every size is a valid description.
func synthesize(root *openapi.Node, size float64, path string) error {
	paths := root.Get("paths")
	if paths == nil || len(paths.Fields()) == 0 {
		return fmt.Errorf("no paths to repeat")
	}
	target := int(size * 1e6)
	grownPaths := &openapi.Node{Kind: openapi.Object}
	comps := map[string]bool{} // "#/components/schemas/x" reached so far
	var order []string
	total := 0
	var reach func(n *openapi.Node)
	reach = func(n *openapi.Node) {
		if r := n.Get("$ref"); r != nil && strings.HasPrefix(r.Scalar(), "#/") && !comps[r.Scalar()] {
			comps[r.Scalar()] = true
			order = append(order, r.Scalar())
			if t, err := openapi.Resolve(root, r.Scalar()[1:]); err == nil {
				total += len(t.AppendJSON(nil))
				reach(t)
			}
		}
		for _, f := range n.Fields() {
			reach(f.Value)
		}
		for _, it := range n.Items() {
			reach(it)
		}
	}
	for copyN := 0; total < target; copyN++ {
		for _, f := range paths.Fields() {
			key := f.Key
			if copyN > 0 {
				key = fmt.Sprintf("/copy%d%s", copyN, f.Key)
			}
			grownPaths.SetFields(append(grownPaths.Fields(), openapi.Field{Key: key, Value: f.Value}))
			total += len(key) + len(f.Value.AppendJSON(nil)) + 4
			reach(f.Value)
			if total >= target {
				break
			}
		}
	}
	// The document: the source's top level with the grown paths and the
	// reached components, each in its own section, in the source's order.
	out := &openapi.Node{Kind: openapi.Object}
	for _, f := range root.Fields() {
		switch f.Key {
		case "paths":
			out.SetFields(append(out.Fields(), openapi.Field{Key: "paths", Value: grownPaths}))
		case "webhooks", "x-webhooks":
			// Not paths: left out, with the components only they reach.
		case "components", "definitions", "parameters", "responses":
			kept := pick(root, f, comps)
			if kept != nil {
				out.SetFields(append(out.Fields(), openapi.Field{Key: f.Key, Value: kept}))
			}
		default:
			out.SetFields(append(out.Fields(), f))
		}
	}
	return os.WriteFile(path, out.AppendJSON(nil), 0o644)
}

// pick keeps the components of a section that were reached.
func pick(root *openapi.Node, sec openapi.Field, reached map[string]bool) *openapi.Node {
	prefix := "#/" + sec.Key + "/"
	keep := &openapi.Node{Kind: openapi.Object}
	if sec.Key == "components" {
		for _, group := range sec.Value.Fields() {
			if g := pick(root, openapi.Field{Key: "components/" + group.Key, Value: group.Value}, reached); g != nil {
				keep.SetFields(append(keep.Fields(), openapi.Field{Key: group.Key, Value: g}))
			}
		}
	} else {
		for _, f := range sec.Value.Fields() {
			if reached[prefix+strings.ReplaceAll(strings.ReplaceAll(f.Key, "~", "~0"), "/", "~1")] {
				keep.SetFields(append(keep.Fields(), f))
			}
		}
	}
	if len(keep.Fields()) == 0 {
		return nil
	}
	return keep
}

// downloadOnce serves a zip of size MB from a loopback stand-in of the
// service and measures docs-publish downloading it.
func downloadOnce(ctx context.Context, o *options, dir string, size float64) (sample, error) {
	zipPath := filepath.Join(dir, fmt.Sprintf("site-%gMB.zip", size))
	if err := bigZip(zipPath, int64(size*1e6)); err != nil {
		return sample{}, err
	}
	defer os.Remove(zipPath)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return sample{}, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /projects/{p}/files/{f}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{}`) })
	mux.HandleFunc("GET /docs.list", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"docs":[{"id":1}]}`) })
	mux.HandleFunc("POST /docs.release", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"build":{"id":1}}`) })
	mux.HandleFunc("GET /docs.builds.download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		http.ServeFile(w, r, zipPath)
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	spec, _ := os.ReadFile("testdata/specs/bookstore.swagger2.yaml")
	os.WriteFile(filepath.Join(dir, "openapi.yaml"), spec, 0o644)
	s, err := measure(ctx, dir, []string{"DOCS_PUBLISH_TOKEN=bench", "GITHUB_ACTIONS="}, o.binary,
		"--api-url", "http://"+ln.Addr().String(), "--project-id", "1", "--file", "openapi.yaml", "--branch", "main",
		"--download", "--download-path", "downloaded.zip", "--max-download-size", "2GiB")
	os.Remove(filepath.Join(dir, "downloaded.zip"))
	return s, err
}

// bigZip writes a zip holding one incompressible file of about n bytes.
func bigZip(path string, n int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "index.html", Method: zip.Store})
	if err != nil {
		return err
	}
	rng := rand.NewChaCha8([32]byte{1})
	if _, err := io.CopyN(w, rng, n); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}
