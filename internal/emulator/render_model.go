package emulator

import "html/template"

// The model of a page of the rendered site, as its template reads it. Text
// fields hold the description's words as written (the template escapes
// them); template.HTML fields hold Markdown already rendered safely.

type page struct {
	File     string
	Head     *head
	Nav      []navEntry
	Overview bool           // the description's overview: servers, security
	Contents []*groupLinks  // the operations as lists of links (split index)
	Groups   []*group       // operations in full
	Params   []*sharedParam // shared parameters
	Resps    []*sharedResponse
	Schemas  []*namedSchema
}

// head is what every page shows at its top, and the overview.
type head struct {
	Title, Version, Format string
	Description            template.HTML
	Servers                []server
	Security               []requirement
	Schemes                []*securityScheme
	Facts                  []fact // contact, license, terms
	ExternalDocs           *extDoc
}

type navEntry struct {
	Label, Href string
	Current     bool
	Items       []navItem
}

type navItem struct {
	Href, Method, Label string
	Deprecated          bool
}

type groupLinks struct {
	Name, Href string
	Ops        []navItem
}

type fact struct {
	Label, Value, Href string
}

type extDoc struct {
	URL         string
	Description string
}

type server struct {
	URL         string
	Description template.HTML
	Variables   []serverVariable
}

type serverVariable struct {
	Name, Default string
	Enum          []string
	Description   template.HTML
}

// requirement is one way to authenticate: every part at once. An empty
// requirement means no authentication.
type requirement struct {
	Parts []requirementPart
}

type requirementPart struct {
	Name, Href string
	Scopes     []string
}

type securityScheme struct {
	Anchor, Key, Type string
	Description       template.HTML
	Facts             []fact
	Flows             []oauthFlow
}

type oauthFlow struct {
	Name   string
	Facts  []fact
	Scopes []fact
}

type group struct {
	Anchor, Name string
	Description  template.HTML
	Ops          []*operation
	Also         []navItem // operations shown under another tag
}

type operation struct {
	Anchor, Method, Path, Summary, ID string
	Description                       template.HTML
	Deprecated, Webhook               bool
	Servers                           []server
	Security                          []requirement
	Params                            []param
	Body                              *requestBody
	Responses                         []response
	ExternalDocs                      *extDoc
	OtherTags                         []string
}

type param struct {
	Name, In              string
	Required, Deprecated  bool
	Schema                *schemaView
	Description           template.HTML
	SharedKey, SharedHref string
	Examples              []example
}

type requestBody struct {
	Description           template.HTML
	Required              bool
	SharedKey, SharedHref string
	Media                 []mediaType
}

type mediaType struct {
	Type       string
	Schema     *schemaView
	ItemSchema *schemaView // OpenAPI 3.2's sequential media types
	Examples   []example
}

type example struct {
	Name, Summary string
	Description   template.HTML
	Value         string
	External      string
	ExternalHref  string // External when it is safe to link
}

type response struct {
	Status                string
	Description           template.HTML
	SharedKey, SharedHref string
	Headers               []header
	Media                 []mediaType
}

type header struct {
	Name                 string
	Required, Deprecated bool
	Schema               *schemaView
	Description          template.HTML
}

type sharedParam struct {
	Anchor, Key string
	Params      []param // the one parameter, as the table shows it
	UsedBy      []navItem
}

type sharedResponse struct {
	Anchor, Key string
	Response    response
	UsedBy      []navItem
}

type namedSchema struct {
	Anchor, Name string
	Schema       *schemaView
}
