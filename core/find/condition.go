package find

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/didlight/didlight/core/jsontext"
)

// Condition is a compiled find condition. It is immutable and safe for
// concurrent use: compile once, match many documents.
type Condition struct {
	src    Value // the condition as written; String renders it
	root   matcher
	filter prefilter // rejects raw documents early
}

// Compile parses and compiles a find condition written in strict JSON or
// in the relaxed syntax of the shell (see the package documentation). It
// returns a *SyntaxError for text that does not parse and a
// *ConditionError for a parsed object that is not a valid condition.
func Compile(text string) (*Condition, error) {
	trimmed := strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(trimmed, "{") {
		p := parser{src: text, pos: len(text) - len(trimmed)}
		return nil, p.fail("'{' (a find condition is an object)")
	}
	src, err := parse(text, true)
	if err != nil {
		return nil, err
	}
	if n := regexBytes(&src); n > MaxRegexBytes {
		return nil, &ConditionError{InvalidArgument, "$regex", "", fmt.Sprintf("the regular expressions of a condition hold at most %d bytes of pattern together, these hold %d", MaxRegexBytes, n)}
	}
	root, err := compileQuery(&src, "", false)
	if err != nil {
		return nil, err
	}
	return &Condition{src: src, root: root, filter: newPrefilter(root)}, nil
}

// Match reports whether the JSON document doc satisfies the condition,
// reading doc in place without decoding it. doc must be valid JSON, as
// stored by the node; invalid text gives an unspecified answer, never a
// panic. Match neither keeps nor modifies doc.
func (c *Condition) Match(doc []byte) bool {
	text := unsafe.String(unsafe.SliceData(doc), len(doc))
	if !c.filter.admits(text) {
		return false
	}
	return c.root.match(elem{raw: text[jsontext.SkipSpace(text, 0):]})
}

// MatchEncoded is Match on a document in encoded form (Encode): the same
// answer, reading only the parts of the form the condition's paths lead
// to. Bytes that are not an encoded form do not match, or give an
// unspecified answer, never a panic. MatchEncoded neither keeps nor
// modifies form.
func (c *Condition) MatchEncoded(form []byte) bool {
	head, root, ok := encRoot(form)
	return ok && c.root.match(elem{raw: root, enc: head})
}

// MatchValue reports whether a parsed document satisfies the condition.
func (c *Condition) MatchValue(doc *Value) bool {
	return c.root.match(elem{val: doc})
}

// String returns the condition as compact text that Compile reads back to
// an equal condition: strict JSON, except that /pattern/flags literals stay
// literals.
func (c *Condition) String() string { return c.src.String() }
