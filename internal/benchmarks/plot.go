//go:build unix

package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

var (
	black = color.RGBA{30, 30, 30, 255}
	grey  = color.RGBA{210, 210, 210, 255}
	blue  = color.RGBA{9, 105, 218, 255}
	red   = color.RGBA{207, 34, 46, 255}
	// The tree's series, paler than the single pass's.
	lightBlue = color.RGBA{120, 170, 230, 255}
	orange    = color.RGBA{230, 140, 40, 255}
)

// writePlot draws two panels: preparation time and memory against
// description size, and download memory against zip size.
func writePlot(path string, prep, tree, download []point) error {
	img := image.NewRGBA(image.Rect(0, 0, 1100, 460))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	// Both ways on one panel: each series carries the points it plots.
	both := append(append([]point(nil), prep...), tree...)
	panel(img, image.Rect(60, 40, 520, 400), "Preparation (docs-publish --dry-run)", "description size (MB)", both, []series{
		{"single pass: wall time (s)", blue, func(p point) float64 { return p.wall }, prep},
		{"single pass: peak memory (100 MB)", red, func(p point) float64 { return p.rss / 100 }, prep},
		{"tree: wall time (s)", lightBlue, func(p point) float64 { return p.wall }, tree},
		{"tree: peak memory (100 MB)", orange, func(p point) float64 { return p.rss / 100 }, tree},
	})
	panel(img, image.Rect(610, 40, 1070, 400), "Download", "zip size (MB)", download, []series{
		{"peak memory (100 MB)", red, func(p point) float64 { return p.rss / 100 }, download},
		{"wall time (s)", blue, func(p point) float64 { return p.wall }, download},
	})
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type series struct {
	label string
	c     color.RGBA
	y     func(point) float64
	pts   []point // the points it plots, among the panel's
}

func panel(img *image.RGBA, r image.Rectangle, title, xlabel string, pts []point, ss []series) {
	text(img, r.Min.X, r.Min.Y-20, title, black)
	text(img, (r.Min.X+r.Max.X)/2-len(xlabel)*3, r.Max.Y+40, xlabel, black)
	if len(pts) == 0 {
		return
	}
	xmax, ymax := 0.0, 0.0
	for _, p := range pts {
		xmax = math.Max(xmax, p.mb)
		for _, s := range ss {
			ymax = math.Max(ymax, s.y(p))
		}
	}
	ymax = niceCeil(ymax)
	xmax = niceCeil(xmax)
	px := func(x float64) int { return r.Min.X + int(x/xmax*float64(r.Dx())) }
	py := func(y float64) int { return r.Max.Y - int(y/ymax*float64(r.Dy())) }
	for i := 0; i <= 5; i++ {
		y := ymax * float64(i) / 5
		line(img, r.Min.X, py(y), r.Max.X, py(y), grey)
		text(img, r.Min.X-45, py(y)+4, fmt.Sprintf("%.2g", y), black)
		x := xmax * float64(i) / 5
		line(img, px(x), r.Max.Y, px(x), r.Max.Y+5, black)
		text(img, px(x)-10, r.Max.Y+20, fmt.Sprintf("%.3g", x), black)
	}
	line(img, r.Min.X, r.Max.Y, r.Max.X, r.Max.Y, black)
	line(img, r.Min.X, r.Min.Y, r.Min.X, r.Max.Y, black)
	for i, s := range ss {
		text(img, r.Min.X+10, r.Min.Y+15+16*i, "-- "+s.label, s.c)
		for j := range s.pts {
			x, y := px(s.pts[j].mb), py(s.y(s.pts[j]))
			dot(img, x, y, s.c)
			if j > 0 {
				line(img, px(s.pts[j-1].mb), py(s.y(s.pts[j-1])), x, y, s.c)
			}
		}
	}
}

func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func text(img *image.RGBA, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func dot(img *image.RGBA, x, y int, c color.Color) {
	for dx := -3; dx <= 3; dx++ {
		for dy := -3; dy <= 3; dy++ {
			if dx*dx+dy*dy <= 9 {
				img.Set(x+dx, y+dy, c)
			}
		}
	}
}

// line draws with Bresenham's algorithm, two pixels thick.
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		img.Set(x0, y0, c)
		img.Set(x0, y0+1, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e // both tests use the error before either step
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
