package docsapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
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

// newAPIError reads what it can from an error body: the error shape of the
// service's design example (error_message, error_code, tracking_id), common
// variants (message, error, code), or else the start of the text.
func newAPIError(status int, header http.Header, body []byte, secret string) *APIError {
	e := &APIError{Status: status, RetryAfter: header.Get("Retry-After")}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) == nil {
		e.Message = firstText(m, "error_message", "message", "error_description", "error", "detail", "title")
		e.Code = firstText(m, "error_code", "code")
		e.TrackingID = firstText(m, "tracking_id", "trackingId", "request_id", "requestId")
		if inner, ok := m["error"]; ok && e.Message == "" {
			var im map[string]json.RawMessage
			if json.Unmarshal(inner, &im) == nil {
				e.Message = firstText(im, "message", "error_message")
				if e.Code == "" {
					e.Code = firstText(im, "code", "error_code")
				}
			}
		}
	}
	if e.Message == "" && e.Code == "" {
		e.Message = shorten(strings.TrimSpace(string(body)))
	}
	e.Message = scrub(e.Message, secret)
	e.Code = scrub(e.Code, secret)
	e.TrackingID = scrub(e.TrackingID, secret)
	return e
}

func firstText(m map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		raw, ok := m[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return shorten(s)
		}
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			return n.String()
		}
	}
	return ""
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxShownBody {
		return s
	}
	cut := maxShownBody
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// scrub removes the token from text the service may have echoed.
func scrub(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "***")
}
