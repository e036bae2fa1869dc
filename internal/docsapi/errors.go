package docsapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/report"
)

// maxShownBody is how much of an unexpected body an error quotes.
const maxShownBody = 300

// APIError is a non-success answer of the service.
type APIError struct {
	Status     int
	Message    string // the service's message, or the start of its body
	Code       string // error_code, when the body has one
	TrackingID string // tracking_id, when the body has one
	RetryAfter string // the Retry-After header, if any
	// JSON is true when the body is JSON at all; a server without the
	// route (a wrong path prefix) usually answers a bare page instead.
	JSON bool
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "service answered %d %s", e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	var extra []string
	if e.Code != "" {
		extra = append(extra, "error_code "+e.Code)
	}
	if e.TrackingID != "" {
		extra = append(extra, "tracking_id "+e.TrackingID)
	}
	if len(extra) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(extra, ", "))
	}
	return b.String()
}

// StatusOf returns the HTTP status of an *APIError in err's chain, or 0.
func StatusOf(err error) int {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status
	}
	return 0
}

// maxErrorBody is how much of an error answer is read.
const maxErrorBody = 64 << 10

// newAPIError reads what it can from an error body (at most maxErrorBody+1
// bytes of it): the error shape of the service's design example
// (error_message, error_code, tracking_id), common variants (message,
// error, code), each of any JSON type, or else the start of the text.
// The text is kept as the service wrote it, the token too: the sinks that
// show it scrub it. Every cut ends with the cut mark, so that a sink can
// scrub what a cut leaves of the token.
func newAPIError(status int, header http.Header, body []byte) *APIError {
	e := &APIError{Status: status, RetryAfter: header.Get("Retry-After")}
	cut := len(body) > maxErrorBody
	if cut {
		body = body[:maxErrorBody]
	}
	e.JSON = json.Valid(body)
	if m, ok := objectOf(body); ok {
		e.Message = firstText(m, "error_message", "message", "error_description", "error", "detail", "title")
		e.Code = firstText(m, "error_code", "code")
		e.TrackingID = firstText(m, "tracking_id", "trackingId", "request_id", "requestId")
		if inner, ok := objectOf(m["error"]); ok {
			if msg := firstText(inner, "message", "error_message"); msg != "" {
				e.Message = msg
			}
			if e.Code == "" {
				e.Code = firstText(inner, "code", "error_code")
			}
		}
	}
	if e.Message == "" && e.Code == "" {
		e.Message = strings.TrimSpace(string(body))
		if cut {
			e.Message += cutMark
		}
	}
	e.Message = shorten(e.Message)
	e.Code = shorten(e.Code)
	e.TrackingID = shorten(e.TrackingID)
	return e
}

// firstText returns the first of keys that holds a value, shown as text.
func firstText(m fields, keys ...string) string {
	for _, k := range keys {
		if s := shown(m[k]); s != "" {
			return s
		}
	}
	return ""
}

// cutMark ends text cut short: a sink that scrubs the token scrubs what is
// left of it before the mark.
const cutMark = report.CutMark

// shorten makes s one line of at most maxShownBody bytes.
func shorten(s string) string { return shortenTo(s, maxShownBody) }

// shortenTo makes s one line of at most max bytes, and marks a cut.
func shortenTo(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + cutMark
}

// HTMLError is a success answer that is a web page: the request reached a
// web application or a proxy's sign-in page, not the API.
type HTMLError struct {
	ContentType string
	Start       string // the start of the page
}

func (e *HTMLError) Error() string {
	return fmt.Sprintf("service answered with %s, not JSON: check that api-url is the service's API address (not its web application) and that no proxy answers in its place; the answer starts: %s", e.ContentType, e.Start)
}

// Unreachable is why a host could not be reached at all.
type Unreachable int

// The ways a host cannot be reached.
const (
	Refused              Unreachable = iota + 1 // nothing listens at the address
	UnknownHost                                 // its name does not resolve
	NoRoute                                     // no route to its address
	ConnectFailed                               // the connection failed otherwise
	ConnectTimeout                              // the connection was not answered: a firewall drops it, or the host is down
	UntrustedCertificate                        // its TLS certificate is not trusted
	TLSFailed                                   // the TLS handshake failed
	TLSTimeout                                  // the connection was made, the TLS handshake never finished
	PlainHTTP                                   // an https address where the server speaks plain http
	ProxyNoAnswer                               // a proxy took the connection and did not answer CONNECT
)

var unreachableText = map[Unreachable]string{
	Refused:              "connection refused: nothing listens at that address",
	UnknownHost:          "host not found",
	NoRoute:              "no route to the host",
	ConnectFailed:        "could not connect",
	ConnectTimeout:       "the connection was not answered in time",
	UntrustedCertificate: "its TLS certificate is not trusted",
	TLSFailed:            "TLS handshake failed",
	TLSTimeout:           "the TLS handshake did not finish in time",
	PlainHTTP:            "the server there answers plain http, not https",
	ProxyNoAnswer:        "it took the connection and did not answer CONNECT within request-timeout",
}

func (k Unreachable) String() string {
	if s, ok := unreachableText[k]; ok {
		return s
	}
	return fmt.Sprintf("unreachable (%d)", int(k))
}

// UnreachableError says the service's host could not be reached at all:
// nothing listens at its address, its name is unknown, the connection or
// the TLS handshake failed or was not answered. It was tried a few times
// over a few seconds, since waiting longer rarely helps.
type UnreachableError struct {
	URL      string // scheme://host[:port] that was tried
	Kind     Unreachable
	Attempts int
	Err      error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s: %s (%d attempts): %v", e.URL, e.Kind, e.Attempts, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// NoAnswerError says requests reached the service's address and none was
// answered within the request timeout: something there takes connections
// and holds them (a port of another server, a proxy), or the service
// hangs. It was tried a few times.
type NoAnswerError struct {
	URL      string        // scheme://host[:port] that was tried
	Attempts int           // requests sent
	Wait     time.Duration // how long each waited for its answer
	Err      error
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no answer from %s: %d requests were sent and none was answered within %s: %v", e.URL, e.Attempts, e.Wait, e.Err)
}

func (e *NoAnswerError) Unwrap() error { return e.Err }
