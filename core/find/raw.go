package find

import (
	"strings"

	"github.com/didlight/didlight/core/jsontext"
)

// The raw form of a value is its JSON text inside a document, read in
// place: these functions find the members of an object and the elements of
// an array without decoding anything else, walking the text with
// [jsontext.Items]. The text is valid JSON (the node stores
// only that); on other text they give some answer and never panic, and
// they never recurse, however deep the nesting.

// rawUnquote returns the text of a string value (quotes included), its
// escapes decoded as the parser decodes them.
func rawUnquote(q string) string {
	if len(q) < 2 {
		return ""
	}
	body := q[1 : len(q)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	p := parser{src: q}
	s, err := p.string()
	if err != nil {
		return body // not valid JSON: any answer will do
	}
	return s
}

// rawMember returns the first member of the object s named name, or "".
func rawMember(s, name string) string {
	for it := jsontext.NewItems(s, 0); ; {
		key, value, ok := it.Next()
		if !ok || rawName(&it, key) == name {
			return value
		}
	}
}

// rawName returns the text of the member name q, in its quotes, that it
// read last, as [rawUnquote] does; "" for an element.
func rawName(it *jsontext.Items[string], q string) string {
	switch {
	case it.Escaped():
		return rawUnquote(q)
	case len(q) < 2:
		return ""
	}
	return q[1 : len(q)-1]
}

// rawElement returns element n of the array s, or "".
func rawElement(s string, n int) string {
	for it := jsontext.NewItems(s, 0); ; n-- {
		_, value, ok := it.Next()
		if !ok || n == 0 {
			return value
		}
	}
}
