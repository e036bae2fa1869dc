// Package ghaction is the program's GitHub Actions face: it reads inputs the
// way the runner passes them, and reports (log groups, annotations, masks,
// outputs, the job summary) through workflow commands on GitHub and as plain
// text anywhere else.
//
// action.yml is the one place inputs, defaults and outputs are declared; this
// package reads it, so the code cannot disagree with it.
package ghaction
