// Package emulator is an in-memory stand-in for the documentation service,
// served over real HTTP.
//
// It implements the four endpoints of the service interface: file updates
// into projects with branches (each update a new version with its commit
// message), the docs list, releases that build asynchronously after a short
// delay, and downloads of a real rendered static site as a zip. It checks the
// bearer token and the JSON content type as the service does, and answers
// errors in the service's error shape (error_message, error_code,
// tracking_id).
//
// The rendered site (render*.go) reads like API documentation: operations by
// tag with their parameters, request bodies and responses, schemas as nested
// property tables, Markdown descriptions rendered safely, servers and
// security. While it runs, the emulator serves the live build of each doc at
// /sites/<doc id>/ (sites.go), logs each request without its token (log.go),
// and can be seeded from a JSON or YAML file (seed.go).
//
// It is safe to leave running: its token is random unless it is given one;
// on loopback it refuses requests addressed to another host name than its
// own (a web page reaching it through DNS rebinding sends one); and the file
// versions it keeps are capped in bytes, the oldest let go first.
//
// It deliberately shares no code with the client in internal/docsapi, so a
// mistake in one cannot hide the same mistake in the other.
package emulator
