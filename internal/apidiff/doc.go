// Package apidiff says what a change to an API description does to the
// API's clients: which changes break them, which deserve a warning, and which
// are safe (an added operation, an optional parameter). It takes both
// versions as the JSON documents that are published (bundled, so a
// multi-file description compares exactly as it is uploaded) and gives a
// Report in its own types, each breaking change with where it is written
// in each document (a JSON pointer), for the caller to map to its file and
// line (parts.go says which are placed).
// The library is given only the parts of the documents that can carry a
// change (prune.go), with the report the whole documents would give.
//
// The checks are github.com/oasdiff/oasdiff's, loaded through
// github.com/getkin/kin-openapi (Swagger 2.0 converted to OpenAPI 3 first).
// Their APIs move quickly, so nothing of theirs leaks out of this package:
// a new version of either is a change here only.
package apidiff
