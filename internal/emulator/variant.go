package emulator

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The service interface promises two fields of its answers: docs[].id and
// build.id. Where it is silent (other fields, status codes, content types,
// id types), a real service may answer in many ways; a Variant picks one, so
// that a client tested against the emulator cannot rely on one guess.

// Variant is how the emulator answers where the interface is silent. The
// zero value is the default: ids as JSON numbers, text fields as strings,
// 200 for every success, a zip with its length.
type Variant struct {
	IDs    IDStyle
	Fields FieldStyle
	// ReleaseStatus is the success status of a release: 200, 201 or 202.
	ReleaseStatus int
	Update        UpdateStyle
	Zip           ZipStyle
	// JSONType is the Content-Type of JSON answers.
	JSONType string
	// NotReady is how a download of an unfinished build is answered.
	NotReady NotReadyStyle
	// Failure is how a download of a failed build is answered.
	Failure FailureStyle
	// UnknownRoute is how a path the service does not have is answered.
	UnknownRoute RouteStyle
	// Seed, when not zero, mixes all of the above: each answer picks its own
	// shape at random (ids keep one style per emulator), reproducibly.
	Seed uint64
}

// IDStyle is how ids are written.
type IDStyle string

// The id styles.
const (
	IDNumber IDStyle = "number" // 17, 1001
	IDString IDStyle = "string" // "17", "1001"
	IDOpaque IDStyle = "opaque" // "d-17", "b-1001"
	IDBig    IDStyle = "big"    // numbers above 2^53, which a float64 rounds
	// IDText are ids as any text may be: "docs/17 ä=", "b/1001 Zürich=" (a
	// slash, a space, '=' and letters beyond ASCII).
	IDText IDStyle = "text"
)

// FieldStyle is how the fields the interface does not show are written.
type FieldStyle string

// The field styles.
const (
	FieldsStrings FieldStyle = "strings" // status "pending", domain "docs.example"
	FieldsAbsent  FieldStyle = "absent"  // only docs[].id and build.id
	FieldsObjects FieldStyle = "objects" // status {"code": …, "message": …}, domain {"name": …, "url": …}
	FieldsArrays  FieldStyle = "arrays"  // status ["pending"], docId [17]
	FieldsUnknown FieldStyle = "unknown" // unknown fields at every level, nested objects and nulls
)

// UpdateStyle is how a file update is answered.
type UpdateStyle string

// The update styles.
const (
	UpdateBody      UpdateStyle = "body"       // 200 with a JSON body
	UpdateEmpty     UpdateStyle = "empty"      // 200 with an empty body
	UpdateNoContent UpdateStyle = "no-content" // 204
)

// ZipStyle is how a built zip is served.
type ZipStyle string

// The zip styles.
const (
	ZipSized       ZipStyle = "zip"               // application/zip with a Content-Length
	ZipStream      ZipStyle = "octet-stream"      // application/octet-stream, chunked, with Content-Disposition
	ZipStreamplain ZipStyle = "octet-stream-bare" // the same without Content-Disposition
)

// NotReadyStyle is how a download of an unfinished build is answered.
type NotReadyStyle string

// The not-ready styles.
const (
	NotReady202 NotReadyStyle = "202" // 202 Accepted with a JSON body
	NotReady404 NotReadyStyle = "404" // 404 with the service's error
	NotReady200 NotReadyStyle = "200" // 200 with a JSON placeholder instead of a zip
	NotReady409 NotReadyStyle = "409" // 409 Conflict with the service's error
	NotReady503 NotReadyStyle = "503" // 503 with Retry-After, as a busy build farm might
)

// FailureStyle is how a download of a failed build is answered.
type FailureStyle string

// The failure styles.
const (
	Failure422    FailureStyle = "422"        // 422 with the service's error
	Failure200    FailureStyle = "200"        // 200 with a status "failed" (shaped by the field style) and a message
	FailureOpaque FailureStyle = "200-opaque" // 200 with JSON no client can read as a failure
)

// RouteStyle is how an unknown route is answered.
type RouteStyle string

// The route styles.
const (
	RouteText RouteStyle = "text" // a web server's plain 404 page
	RouteJSON RouteStyle = "json" // a framework's JSON 404: {"status": 404, "error": "Not Found", "path": …}
)

// namedVariants are the variants the emulator offers by name; each changes
// one thing from the default.
var namedVariants = map[string]Variant{
	"default":            {},
	"ids-string":         {IDs: IDString},
	"ids-opaque":         {IDs: IDOpaque},
	"ids-big":            {IDs: IDBig},
	"ids-text":           {IDs: IDText},
	"fields-absent":      {Fields: FieldsAbsent},
	"fields-objects":     {Fields: FieldsObjects},
	"fields-arrays":      {Fields: FieldsArrays},
	"fields-unknown":     {Fields: FieldsUnknown},
	"release-201":        {ReleaseStatus: http.StatusCreated},
	"release-202":        {ReleaseStatus: http.StatusAccepted},
	"update-empty":       {Update: UpdateEmpty},
	"update-204":         {Update: UpdateNoContent},
	"zip-octet-stream":   {Zip: ZipStream},
	"zip-octet-bare":     {Zip: ZipStreamplain},
	"json-no-charset":    {JSONType: "application/json"},
	"not-ready-404":      {NotReady: NotReady404},
	"not-ready-200":      {NotReady: NotReady200},
	"not-ready-409":      {NotReady: NotReady409},
	"not-ready-503":      {NotReady: NotReady503},
	"failure-200":        {Failure: Failure200},
	"failure-200-opaque": {Failure: FailureOpaque},
	"route-404-json":     {UnknownRoute: RouteJSON},
	// A few together, as one real service might answer.
	"bare":                   {Fields: FieldsAbsent, Update: UpdateEmpty, Zip: ZipStreamplain},
	"objects-string-ids-202": {Fields: FieldsObjects, IDs: IDString, ReleaseStatus: http.StatusAccepted},
	"unknown-opaque-204":     {Fields: FieldsUnknown, IDs: IDOpaque, Update: UpdateNoContent, Zip: ZipStream},
	"arrays-big-201":         {Fields: FieldsArrays, IDs: IDBig, Zip: ZipStream, ReleaseStatus: http.StatusCreated},
}

// VariantNames lists the named variants, sorted.
func VariantNames() []string {
	names := make([]string, 0, len(namedVariants))
	for n := range namedVariants {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ParseVariant reads a variant's name, or random:<seed> for a mix.
func ParseVariant(name string) (Variant, error) {
	if seed, ok := strings.CutPrefix(name, "random:"); ok {
		n, err := strconv.ParseUint(seed, 10, 64)
		if err != nil || n == 0 {
			return Variant{}, fmt.Errorf("variant %q: the seed must be a positive integer, as in random:42", name)
		}
		return Variant{Seed: n}, nil
	}
	v, ok := namedVariants[name]
	if !ok {
		return Variant{}, fmt.Errorf("no variant %q: use one of %s, or random:<seed>", name, strings.Join(VariantNames(), ", "))
	}
	return v, nil
}

// withDefaults fills the zero fields.
func (v Variant) withDefaults() Variant {
	if v.IDs == "" {
		v.IDs = IDNumber
	}
	if v.Fields == "" {
		v.Fields = FieldsStrings
	}
	if v.ReleaseStatus == 0 {
		v.ReleaseStatus = http.StatusOK
	}
	if v.Update == "" {
		v.Update = UpdateBody
	}
	if v.Zip == "" {
		v.Zip = ZipSized
	}
	if v.JSONType == "" {
		v.JSONType = "application/json; charset=utf-8"
	}
	if v.NotReady == "" {
		v.NotReady = NotReady202
	}
	if v.Failure == "" {
		v.Failure = Failure422
	}
	if v.UnknownRoute == "" {
		v.UnknownRoute = RouteText
	}
	return v
}

func pick[T any](r *rand.Rand, choices ...T) T { return choices[r.IntN(len(choices))] }

// answerVariant is the variant one answer takes: the configured one, or with
// a seed, a fresh mix (the id style stays the emulator's).
func (s *Server) answerVariant() Variant {
	v := s.variant
	if s.rng == nil {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rng
	v.Fields = pick(r, FieldsStrings, FieldsAbsent, FieldsObjects, FieldsArrays, FieldsUnknown)
	v.ReleaseStatus = pick(r, http.StatusOK, http.StatusCreated, http.StatusAccepted)
	v.Update = pick(r, UpdateBody, UpdateEmpty, UpdateNoContent)
	v.Zip = pick(r, ZipSized, ZipStream, ZipStreamplain)
	v.JSONType = pick(r, "application/json; charset=utf-8", "application/json", "application/json;charset=UTF-8")
	v.NotReady = pick(r, NotReady202, NotReady404, NotReady200, NotReady409, NotReady503)
	v.Failure = pick(r, Failure422, Failure200, FailureOpaque)
	v.UnknownRoute = pick(r, RouteText, RouteJSON)
	if v.IDs == IDNumber || v.IDs == IDString {
		v.IDs = pick(r, IDNumber, IDString) // the same id, as a number or a string
	}
	return v
}

// seedIDs applies the id style to the seeded docs and the first build id.
func seedIDs(cfg *Config, style IDStyle) {
	for pi := range cfg.Projects {
		docs := slices.Clone(cfg.Projects[pi].Docs)
		for di := range docs {
			docs[di].ID = styledID(docs[di].ID, "d-", style)
		}
		cfg.Projects[pi].Docs = docs
	}
	if style == IDBig && cfg.FirstBuildID < 1<<53 {
		cfg.FirstBuildID += 1 << 53
	}
}

// styledID writes a seeded numeric id in style: prefixed when opaque,
// as text with a slash, a space and letters beyond ASCII when text, raised
// above 2^53 when big.
func styledID(id, prefix string, style IDStyle) string {
	if !isDigits(id) {
		return id
	}
	switch style {
	case IDOpaque:
		return prefix + id
	case IDText:
		return textIDs[prefix](id)
	case IDBig:
		n, _ := new(big.Int).SetString(id, 10)
		return n.Add(n, big.NewInt(1<<53)).String()
	}
	return id
}

// textIDs write a numeric id as text in the IDText style, by its prefix.
var textIDs = map[string]func(string) string{
	"d-": func(id string) string { return "docs/" + id + " ä=" },
	"b-": func(id string) string { return "b/" + id + " Zürich=" },
}

func isDigits(id string) bool {
	return id != "" && strings.Trim(id, "0123456789") == "" && (id == "0" || id[0] != '0')
}

// idValue is how an id goes on the wire in v: a JSON number when it is all
// digits and the style writes numbers, else a string.
func (v Variant) idValue(id string) any {
	if isDigits(id) && (v.IDs == IDNumber || v.IDs == IDBig) {
		return json.Number(id)
	}
	return id
}

// unknownFields are fields no client should need, at any level.
func unknownFields(level string) map[string]any {
	return map[string]any{
		"x-" + level + "-meta": map[string]any{
			"requestId": "req-" + level, "next": nil,
			"page":  map[string]any{"total": 1, "cursor": nil, "links": []any{nil, map[string]any{"rel": "self"}}},
			"flags": []any{true, 1.5, "x", nil},
		},
		"deprecated": nil,
	}
}

// decorate adds the fields the interface does not show to an object m,
// in style v: status-like text, and unknown fields.
func (v Variant) decorate(m map[string]any, level string, extra map[string]any) map[string]any {
	switch v.Fields {
	case FieldsAbsent:
		return m
	case FieldsUnknown:
		for k, val := range unknownFields(level) {
			m[k] = val
		}
		for k := range extra {
			m[k] = nil // known names, unknown shapes: null
		}
		return m
	}
	for k, val := range extra {
		m[k] = v.shape(val)
	}
	return m
}

// shape writes a text field (a string, or an id) in the field style.
func (v Variant) shape(val any) any {
	switch v.Fields {
	case FieldsObjects:
		return map[string]any{"code": val, "message": fmt.Sprint(val), "details": map[string]any{"value": val}}
	case FieldsArrays:
		return []any{val}
	}
	return val
}

// domainValue is a doc's domain in the field style.
func (v Variant) domainValue(domain string) any {
	switch v.Fields {
	case FieldsObjects:
		return map[string]any{"name": domain, "url": "https://" + domain + "/", "verified": true}
	case FieldsArrays:
		return []any{domain}
	}
	return domain
}
