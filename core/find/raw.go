package find

import (
	"strings"

	"github.com/didlight/didlight/core/jsontext"
)

// The raw form of a value is its JSON text inside a document, read in
// place: these functions find the members of an object and the elements of
// an array without decoding anything else, walking the text with
// jsontext's End and SkipSpace. The text is valid JSON (the node stores
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

// rawItems iterates over the members of an object or the elements of an
// array, in raw form.
type rawItems struct {
	s       string
	i       int // where the next item, or the comma before it, starts
	object  bool
	started bool // an item has been read
}

func newRawItems(s string) rawItems {
	return rawItems{s: s, i: 1, object: s[0] == '{'}
}

// next returns the next member's key and value (the key of an element is
// ""), or ok false at the end.
func (it *rawItems) next() (key, value string, ok bool) {
	s := it.s
	i := jsontext.SkipSpace(s, it.i)
	switch {
	case i >= len(s) || s[i] == '}' || s[i] == ']':
		return "", "", false
	case it.started && s[i] != ',':
		return "", "", false
	case it.started:
		i = jsontext.SkipSpace(s, i+1)
	}
	if it.object {
		var end int
		key, end = rawKey(s, i)
		if i = jsontext.SkipSpace(s, end); i >= len(s) || s[i] != ':' {
			return "", "", false
		}
		i = jsontext.SkipSpace(s, i+1)
	}
	end := jsontext.End(s, i)
	it.i, it.started = max(end, i+1), true // forward, even on invalid text
	return key, s[i:end], true
}

// rawKey returns the text of the member name that starts at s[i] and the
// offset just after it. Names are short and seldom escaped: a byte loop
// finds the end of one sooner than a search does.
func rawKey(s string, i int) (key string, end int) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return s[i+1 : j], j + 1
		case '\\':
			end = jsontext.StringEnd(s, i)
			return rawUnquote(s[i:end]), end
		}
	}
	return "", len(s)
}

// rawMember returns the first member of the object s named name, or "".
func rawMember(s, name string) string {
	for it := newRawItems(s); ; {
		key, value, ok := it.next()
		if !ok || key == name {
			return value
		}
	}
}

// rawElement returns element n of the array s, or "".
func rawElement(s string, n int) string {
	for it := newRawItems(s); ; n-- {
		_, value, ok := it.next()
		if !ok || n == 0 {
			return value
		}
	}
}
