// Package ghaction is the program's GitHub Actions face: it reads inputs the
// way the runner passes them, and reports (log groups, annotations, masks,
// outputs, the job summary) through workflow commands on GitHub and as plain
// text anywhere else.
//
// Everything the reporter writes leaves through a sink (sinks.go): the log,
// stdout, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Each scrubs the registered
// secrets once, after all formatting and escaping and before any cut, and
// returns its write errors rather than panicking; code that builds a
// message never scrubs it itself.
//
// action.yml is the one place inputs, defaults and outputs are declared; this
// package reads it, so the code cannot disagree with it.
package ghaction
