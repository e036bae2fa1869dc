package redact

import (
	"strings"
	"testing"
)

// Reports put zero-width spaces where GitHub would link a reference, and
// they may land inside an escape (%5<U+200B>f): a secret so written is
// still found, the invisible characters masked with it.
func TestInvisibleCharactersInsideEscapes(t *testing.T) {
	t.Parallel()
	invisibles := map[string]string{
		"raw U+200B": "\u200b", "&#8203;": "&#8203;", "&#x200B;": "&#x200B;", "raw U+2060": "\u2060",
	}
	for _, name := range []string{"percent lower", "JSON upper hex", "HTML hex", "HTML decimal", "JSON of a JSON", "HTML of an HTML"} {
		for inv, mark := range invisibles {
			t.Run(name+"/"+inv, func(t *testing.T) {
				t.Parallel()
				for _, token := range tokens() {
					var enc []string
					for i := 0; i < len(token); i++ {
						enc = append(enc, encodings[name](token[i], nil))
					}
					// An invisible character between every two bytes of the
					// encoded text, inside each escape as well as between.
					text := strings.Join(strings.Split(strings.Join(enc, ""), ""), mark)
					if got := New(token).Redact(text); got != Mask {
						t.Errorf("token %q written as %q: got %q, want %q", token, text, got, Mask)
					}
				}
			})
		}
	}
}

func TestVisibleMapsBack(t *testing.T) {
	t.Parallel()
	s := "a\u200bb&#8203;c&amp;d"
	view, at := visible(s)
	if view != "abc&amp;d" {
		t.Fatalf("view %q", view)
	}
	for i := range len(view) {
		if s[at[i]] != view[i] {
			t.Errorf("at[%d]=%d: %q, want %q", i, at[i], s[at[i]], view[i])
		}
	}
	if at[len(view)] != len(s) {
		t.Errorf("end maps to %d, want %d", at[len(view)], len(s))
	}
	if v, at := visible("plain"); v != "plain" || at != nil {
		t.Errorf("plain text: %q %v", v, at)
	}
}
