package find

import (
	"fmt"
	"strings"
	"unsafe"
)

// Condition is a compiled find condition. It is immutable and safe for
// concurrent use: compile once, match many documents.
type Condition struct {
	src    Value // the condition as written; String renders it
	root   matcher
	filter prefilter // rejects raw documents early
	valued bool      // filter holds strings values must equal, not only keys
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
	filter, valued := newPrefilter(root)
	return &Condition{src: src, root: root, filter: filter, valued: valued}, nil
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
	return c.root.match(elem{raw: text[rawSpace(text, 0):]})
}

// MatchSkips is Match on a document with its skip table (Skips),
// typically in scan form (ScanForm): the same answer, reading only the
// parts of doc the condition's paths lead to. It searches the whole
// document first only for the strings values must equal, which are rare
// and found early when there; the keys a match must hold, which Match
// searches for too, are found sooner by following the paths, and each
// object in an array a path goes through is searched for them before it
// is read. A table that does not belong to doc gives an unspecified
// answer, never a panic.
func (c *Condition) MatchSkips(doc, skips []byte) bool {
	text := unsafe.String(unsafe.SliceData(doc), len(doc))
	if c.valued && !c.filter.admits(text) {
		return false
	}
	return c.root.match(elem{raw: text[rawSpace(text, 0):], doc: newRawDoc(text, skips)})
}

// MatchValue reports whether a parsed document satisfies the condition.
func (c *Condition) MatchValue(doc *Value) bool {
	return c.root.match(elem{val: doc})
}

// String returns the condition as compact text that Compile reads back to
// an equal condition: strict JSON, except that /pattern/flags literals stay
// literals.
func (c *Condition) String() string { return c.src.String() }
