// Package apidiff says what a change to an API description does to the
// API's clients: which changes break them, which deserve a warning, and which
// are safe (an added operation, an optional parameter). It takes both
// versions as the JSON documents that are published (bundled, so a
// multi-file description compares exactly as it is uploaded) and gives a
// Report in its own types.
//
// The checks are github.com/oasdiff/oasdiff's, loaded through
// github.com/getkin/kin-openapi (Swagger 2.0 converted to OpenAPI 3 first).
// Their APIs move quickly, so nothing of theirs leaks out of this package:
// a new version of either is a change here only.
package apidiff
