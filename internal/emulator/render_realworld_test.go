package emulator

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
	"golang.org/x/net/html"
)

// TestRealWorldSite renders GitHub's REST description (13 MB of JSON, over
// a thousand operations, hundreds of schemas nesting each other): every
// operation is on the site, every schema has its section, every schema an
// operation references itself is linked from it, and every link inside the
// site leads somewhere.
func TestRealWorldSite(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	raw, err := os.ReadFile(testenv.NPMFile(t, "@octokit/openapi", "23.0.2", "generated/api.github.com.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := site(t, raw)
	checkEveryPart(t, raw, files)
	checkLinks(t, files)

	// The schemas each operation's own text references, found in the
	// description; the links each operation's article holds, on the site.
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	linked := operationSchemaLinks(t, files)
	checked := 0
	for path, item := range doc.Paths {
		for m, op := range item {
			if !slices.Contains(methods, m) {
				continue
			}
			key := strings.ToUpper(m) + " " + path
			for _, name := range schemaRefs(op) {
				checked++
				if !linked[key][name] {
					t.Errorf("%s references schema %s; its article does not link to it", key, name)
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d references checked", checked)
	}
}

// schemaRefs lists the named schemas an operation's JSON references
// directly (not in its extensions, x-...).
func schemaRefs(op json.RawMessage) []string {
	var v any
	json.Unmarshal(op, &v)
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if ref, ok := e.(string); ok && k == "$ref" {
					if name, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok {
						out = append(out, name)
					}
				}
				if !strings.HasPrefix(k, "x-") {
					walk(e)
				}
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// operationSchemaLinks lists the schemas each operation's article links
// to, by "METHOD path".
func operationSchemaLinks(t *testing.T, files map[string]string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for name, body := range files {
		if !strings.HasPrefix(name, "tag-") {
			continue
		}
		var current map[string]bool
		z := html.NewTokenizer(strings.NewReader(body))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt != html.StartTagToken {
				continue
			}
			tok := z.Token()
			switch {
			case tok.Data == "article":
				f := strings.Fields(attr(tok, "data-search"))
				current = map[string]bool{}
				out[f[0]+" "+f[1]] = current
			case tok.Data == "a" && attr(tok, "class") == "ref" && current != nil:
				if z.Next() == html.TextToken {
					current[html.UnescapeString(string(z.Text()))] = true
				}
			}
		}
	}
	return out
}
