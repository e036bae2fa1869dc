// Package spec loads an API description (Swagger 2.0 or OpenAPI 3.x, in YAML
// or JSON) into an ordered tree and writes it back as JSON.
//
// The tree keeps what the service renders from: keys in the order the author
// wrote them, strings as strings (a YAML date or "yes" stays text), numbers as
// their exact literal, and the line and column each value was written at, so
// that a finding can point at the source.
package spec
