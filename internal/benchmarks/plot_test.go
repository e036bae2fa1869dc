//go:build unix

package main

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestLineReachesItsEnd: every line ends, at its end point, in any direction.
func TestLineReachesItsEnd(t *testing.T) {
	t.Parallel()
	for _, l := range [][4]int{{0, 0, 50, 7}, {50, 7, 0, 0}, {3, 40, 9, 2}, {10, 10, 10, 30}, {5, 5, 40, 5}, {0, 30, 30, 0}} {
		img := image.NewRGBA(image.Rect(0, 0, 64, 64))
		line(img, l[0], l[1], l[2], l[3], black)
		if img.RGBAAt(l[2], l[3]) != black {
			t.Errorf("line %v does not reach its end", l)
		}
	}
}

func TestWritePlot(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "g.png")
	pts := []point{{1, 0.05, 23}, {5, 0.2, 70}, {20, 0.9, 244}, {80, 4.2, 868}}
	tree := []point{{1, 0.06, 25}, {5, 0.3, 90}, {20, 1.1, 300}, {80, 4.8, 1000}}
	if err := writePlot(p, pts, tree, []point{{10, 0.08, 11}, {100, 0.4, 12}, {500, 2.5, 12}}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(p)
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
}
