// Package openapi reads API descriptions (Swagger 2.0 and OpenAPI 3.x, in
// YAML or JSON) into a positioned tree, bundles one split over several files
// into one document, validates it, and writes it back as JSON. Prepare does
// all of it, and for a JSON description that names no other file, in a
// single pass from the file to the upload that keeps only what validation
// reads (onepass.go).
//
// The tree keeps what the service renders from: keys in the order the author
// wrote them, strings as strings (a YAML date or "yes" stays text), numbers as
// their exact literal, and the file, line and column each value was written
// at, so that a finding can point at the source.
package openapi
