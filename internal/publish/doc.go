// Package publish is the flow a run carries out: check the inputs and load the
// description, then update the file, find the doc, release a build and, if
// asked, download it, reporting each step and its outputs as it goes.
package publish
