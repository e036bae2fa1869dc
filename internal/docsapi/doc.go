// Package docsapi is a client for the documentation service's HTTP interface:
// update a file in a project, list a project's docs, release a build under a
// doc, and download a build as a zip.
//
// Every request carries the bearer token; transient faults are retried where a
// retry cannot do harm (see retry.go); failures come back as *APIError with
// the service's message, error code and tracking id when the body carries them.
package docsapi
